/** How a connection names the destination namespace its tables land in (the public API's enum). */
export type NamespaceDefinition = 'source' | 'destination' | 'custom_format';

/** The placeholder of a custom format that stands for the source's namespace. */
// biome-ignore lint/suspicious/noTemplateCurlyInString: Airbyte's placeholder, not a template.
const SOURCE_NAMESPACE = '${SOURCE_NAMESPACE}';

/**
 * The namespace a connection's tables land in, or undefined for the destination's own schema.
 * Plugboard's streams declare no namespace, so `source` keeps the destination's schema, as Airbyte
 * does for such streams, and `${SOURCE_NAMESPACE}` in a custom format renders empty. A blank format
 * also keeps the destination's schema.
 */
export function connectionNamespace(definition: NamespaceDefinition | undefined, format: string | null | undefined): string | undefined {
  if (definition !== 'custom_format' || !format) return undefined;
  const rendered = format.replaceAll(SOURCE_NAMESPACE, '').trim();
  return rendered === '' ? undefined : rendered;
}

/**
 * A destination configuration (`destinationType` as the public API names it) writing into
 * `namespace`: its `schema`. SQLite has no schemas, so it keeps its file.
 */
export function configurationInNamespace(type: string, configuration: Record<string, unknown>, namespace: string | undefined): Record<string, unknown> {
  return namespace === undefined || type === 'sqlite' ? configuration : { ...configuration, schema: namespace };
}
