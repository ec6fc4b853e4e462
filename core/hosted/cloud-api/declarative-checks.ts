import { ConnectorLoadError, type ValidationIssue } from '../../errors.ts';
import { compileConnector } from '../../plugins/load-connector.ts';
import { isObject } from '../../plugins/value-shapes.ts';
import { createAjv } from '../../schema/ajv.ts';
import type { Loc } from './actor-kind.ts';
import { isFailureInBodyRule, runnableDefinition } from './declarative-definition.ts';
import type { Manifest } from './declarative-manifest.ts';
import { isReservedType } from './declarative-names.ts';

const MANIFEST: Loc = ['body', 'manifest'];

/** A problem at a place of the manifest (`at`: a path inside it). */
interface ManifestProblem {
  at: Loc;
  msg: string;
  type: string;
}

/**
 * Every problem of a manifest to publish, as 400 issues: the checks a loaded connector gets (its
 * structure, every schema compiled in strict mode), and what a manifest adds: it is data, so nothing
 * that only code can be; its `type` takes no name a source type has on this server (`reservedTypes`);
 * its upstream is an http(s) URL.
 */
export function manifestIssues(manifest: Manifest, reservedTypes: readonly string[]): ValidationIssue[] {
  const codeOnly = codeOnlyFields(manifest);
  const own = [...codeOnly, ...schemaIds(manifest), ...typeClash(manifest.type, reservedTypes), ...baseUrlProblem(manifest.defaultBaseUrl)];
  // Code-only fields are named once, here: the loaded-connector checks see the manifest without them.
  const codePlaces = codeOnly.map((problem) => problem.at);
  const loaded = loadProblems(withoutFields(manifest, codePlaces)).map((msg) => ({ at: placeOf(msg), msg, type: 'value_error.manifest' }));
  return [...own, ...loaded].map(({ at, msg, type }) => ({ loc: [...MANIFEST, ...at], msg, type }));
}

const TOP_LEVEL = 'type|displayName|version|auth|defaultBaseUrl|transport|pagination|replicationConfig|actions|check|replicate|syncStreams';
const ACTION_PROBLEM = /^actions\[(\d+)\]/;
const FIELD_PROBLEM = new RegExp(`^\`?((?:${TOP_LEVEL})(?:\\.[\\w-]+)*)\`?[ :;]`);
const UNKNOWN_FIELD = /^unknown field `([\w.-]+)`/;

/** Where a loaded-connector problem is, as far as its text says (the action, or the field it starts with); else the whole manifest. */
function placeOf(problem: string): Loc {
  const action = ACTION_PROBLEM.exec(problem);
  if (action) return ['actions', Number(action[1])];
  const field = FIELD_PROBLEM.exec(problem)?.[1] ?? UNKNOWN_FIELD.exec(problem)?.[1];
  return field === undefined ? [] : field.split('.');
}

/** The problems compileConnector finds (on a fresh Ajv, so nothing of one manifest stays for the next). */
function loadProblems(manifest: Manifest): string[] {
  try {
    compileConnector(runnableDefinition(manifest), createAjv(), 'manifest');
    return [];
  } catch (error) {
    if (error instanceof ConnectorLoadError) return error.problems;
    throw error;
  }
}

/** Fields whose value is code in a connector written in TypeScript: a manifest, being data, can give them none. */
function codeOnlyFields(manifest: Manifest): ManifestProblem[] {
  const problems: ManifestProblem[] = [];
  const code = (at: Loc, msg: string) => problems.push({ at, msg: `${msg}; a declarative manifest is data only`, type: 'value_error.code_only' });
  if (manifest.replicate !== undefined) code(['replicate'], '`replicate` is code (it fills a context store)');
  const errors = isObject(manifest.transport) && isObject(manifest.transport.errors) ? manifest.transport.errors : {};
  if (errors.failureInBody !== undefined && !isFailureInBodyRule(errors.failureInBody)) {
    problems.push({
      at: ['transport', 'errors', 'failureInBody'],
      msg: 'must be a rule {path, equals}: a success body reports a failure when the value at `path` is `equals` (Slack: {"path": "ok", "equals": false})',
      type: 'value_error.failure_rule',
    });
  }
  (Array.isArray(manifest.actions) ? manifest.actions : []).forEach((action: unknown, index) => {
    if (!isObject(action)) return;
    if (action.hooks !== undefined) code(['actions', index, 'hooks'], '`hooks` are code: a declarative action is its `request` and `response` mapping');
    if (action.hostedOnly) code(['actions', index, 'hostedOnly'], 'a hosted-only action reads a context store, which only `replicate` code fills');
  });
  for (const [entity, settings] of Object.entries(isObject(manifest.syncStreams) ? manifest.syncStreams : {})) {
    if (isObject(settings?.parent) && settings.parent.include !== undefined) code(['syncStreams', entity, 'parent', 'include'], '`parent.include` is code');
    if (isObject(settings?.incremental) && settings.incremental.startFrom !== undefined)
      code(['syncStreams', entity, 'incremental', 'startFrom'], '`incremental.startFrom` is code');
  }
  return problems;
}

/**
 * Every version of every definition compiles its schemas into the runtime's one Ajv, where an `$id`
 * can be taken once: a schema naming itself would refuse the next version.
 */
function schemaIds(manifest: Manifest): ManifestProblem[] {
  const problems: ManifestProblem[] = [];
  const walk = (node: unknown, at: Loc): void => {
    if (Array.isArray(node)) {
      for (const [index, item] of node.entries()) walk(item, [...at, index]);
      return;
    }
    if (!isObject(node)) return;
    if (typeof node.$id === 'string')
      problems.push({ at: [...at, '$id'], msg: 'a schema of a declarative manifest may not declare `$id`', type: 'value_error.schema_id' });
    for (const [key, value] of Object.entries(node)) walk(value, [...at, key]);
  };
  walk(manifest, []);
  return problems;
}

function typeClash(type: unknown, reservedTypes: readonly string[]): ManifestProblem[] {
  if (typeof type !== 'string') return [];
  if (reservedTypes.includes(type)) {
    return [{ at: ['type'], msg: `"${type}" is a source type of this server already; choose another type`, type: 'value_error.type_taken' }];
  }
  if (isReservedType(type)) return [{ at: ['type'], msg: 'types starting with "declarative-" are the server’s own', type: 'value_error.type_taken' }];
  return [];
}

/** The structural check wants http(s) at the start; this one, a URL that parses. */
function baseUrlProblem(baseUrl: unknown): ManifestProblem[] {
  if (typeof baseUrl !== 'string' || !/^https?:\/\//.test(baseUrl) || URL.canParse(baseUrl)) return [];
  return [{ at: ['defaultBaseUrl'], msg: 'must be an http(s) URL', type: 'value_error.url' }];
}

/** A copy of the manifest without the fields at these places. */
function withoutFields(manifest: Manifest, places: Loc[]): Manifest {
  const copy = structuredClone(manifest);
  for (const place of places) {
    const parent = place
      .slice(0, -1)
      .reduce<unknown>((node, key) => (isObject(node) || Array.isArray(node) ? (node as Record<string, unknown>)[key] : undefined), copy);
    if (isObject(parent)) delete parent[String(place.at(-1))];
  }
  return copy;
}
