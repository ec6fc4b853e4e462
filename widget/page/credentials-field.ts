import type { JsonSchema } from './api.ts';
import { h, uniqueId } from './dom.ts';
import { type Field, labelledField } from './form-fields.ts';
import { schemaProblem } from './value-checks.ts';

interface CredentialKind {
  title: string;
  /** The credential's field name, e.g. `access_token`. */
  name: string;
  schema: JsonSchema;
}

/**
 * The credentials of a connector type: one `oneOf` branch per kind it accepts (OAuth access token,
 * personal token). With several kinds, the end user picks one in a radio group and fills its secret;
 * when updating, leaving it empty keeps the stored credentials.
 */
export function credentialsField(schema: JsonSchema, updating: boolean, currentField?: string): Field {
  const kinds: CredentialKind[] = (schema.oneOf ?? []).map((branch) => {
    const [name, property] = Object.entries(branch.properties ?? {})[0] ?? ['token', {}];
    return { title: branch.title ?? name, name, schema: property };
  });
  const secrets = kinds.map((kind) => {
    const input = h('input', { type: 'password', autocomplete: 'off', spellcheck: 'false' });
    const read = () => input.value;
    const description = [kind.schema.description, updating ? 'Leave it empty to keep the credentials already saved.' : undefined].filter(Boolean).join(' ');
    const title = kinds.length > 1 ? `${kind.title}: ${kind.schema.title ?? kind.name}` : (kind.schema.title ?? kind.name);
    const field = labelledField(['body', 'credentials', kind.name], input, { title, description, required: !updating }, read, () =>
      schemaProblem(kind.schema, !updating, read()),
    );
    return { kind, input, field };
  });
  // An update starts on the kind the source uses now.
  let selected = Math.max(
    0,
    kinds.findIndex((kind) => kind.name === currentField),
  );
  const show = () => {
    for (const [index, secret] of secrets.entries()) secret.field.root.hidden = index !== selected;
  };
  const group =
    kinds.length > 1
      ? h(
          'fieldset',
          { class: 'kinds' },
          h('legend', {}, schema.title ?? 'Credentials'),
          ...kinds.map((kind, index) => {
            const id = uniqueId('kind');
            const radio = h('input', {
              type: 'radio',
              name: 'credential-kind',
              id,
              value: kind.name,
              checked: index === selected,
              onchange: () => {
                selected = index;
                show();
              },
            });
            return h('div', { class: 'field checkbox' }, radio, h('label', { for: id }, kind.title));
          }),
        )
      : null;
  show();
  const current = () => secrets[selected];
  return {
    loc: ['body', 'credentials'],
    title: schema.title ?? 'Credentials',
    root: h('div', { class: 'credentials' }, group, ...secrets.map((secret) => secret.field.root)),
    get focusTarget() {
      return current()?.input ?? group ?? document.body;
    },
    check: () => current()?.field.check(),
    read() {
      const secret = current();
      if (!secret || (updating && secret.input.value === '')) return undefined;
      return { [secret.kind.name]: secret.input.value };
    },
    showError(message) {
      for (const secret of secrets) secret.field.showError(secret === current() ? message : undefined);
    },
  };
}
