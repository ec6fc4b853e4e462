/**
 * Ajv's reasons for refusing a schema, said in plain words for a connector's author: Ajv's strict
 * mode names its own option (`strictTypes`) where the author needs the fix.
 */
const REPHRASINGS: Array<[RegExp, (...groups: string[]) => string]> = [
  [/^strict mode: unknown keyword: "(.+)"$/, (keyword) => `unknown keyword "${keyword}" (a typo? Ajv's strict mode refuses keywords it does not know)`],
  [
    /^strict mode: required property "(.+)" is not defined at "(.*)" \(strictRequired\)$/,
    (property, at) => `"required" lists "${property}", which "properties" does not define (at ${at})`,
  ],
  [
    /^strict mode: missing type "(.+)" for keyword "(.+)" at "(.*)" \(strictTypes\)$/,
    (type, keyword, at) => `keyword "${keyword}" applies to ${type} values only: declare "type": "${type}" beside it (at ${at})`,
  ],
  [
    /^unknown format "(.+)" ignored in schema at path "(.*)"$/,
    (format, at) => `unknown format "${format}" at ${at} (a typo? only the formats of ajv-formats are known)`,
  ],
  [/^can't resolve reference (.+) from id (.*)$/, (ref) => `"$ref" ${ref} points at nothing in the schema`],
  [/^Invalid regular expression: (.*)$/, (reason) => `a "pattern" is not a valid regular expression: ${reason}`],
  [/^schema is invalid: (.*)$/, (reasons) => `not a valid JSON Schema: ${invalidSchemaReasons(reasons)}`],
  [/^strict mode: (.*)$/, (reason) => `${reason} (refused by Ajv's strict mode)`],
];

export function describeSchemaCompileError(message: string): string {
  for (const [pattern, rephrase] of REPHRASINGS) {
    const match = pattern.exec(message);
    if (match) return rephrase(...match.slice(1));
  }
  return message;
}

/**
 * `data/properties/id/type must be equal to one of the allowed values, data/properties/id/type must
 * be array, ...`: the meta-schema's alternatives for one place. The first reason of each place says
 * enough, with the place as a schema pointer.
 */
function invalidSchemaReasons(reasons: string): string {
  const byPlace = new Map<string, string>();
  for (const reason of reasons.split(', ')) {
    const match = /^data(\S*) (.*)$/.exec(reason);
    const place = match ? `#${match[1]}` : '#';
    if (!byPlace.has(place)) byPlace.set(place, match ? match[2]! : reason);
  }
  return [...byPlace].map(([place, reason]) => `${place} ${reason}`).join('; ');
}
