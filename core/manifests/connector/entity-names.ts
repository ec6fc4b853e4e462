import { RESERVED_ENTITY_NAMES } from '../../plugins/definition-checks.ts';

/**
 * Entity names for a manifest's streams. Airbyte's stream names are free text (`Contacts`,
 * `ad-sets`, `2fa devices`); entities are lowercase identifiers, so each name is folded to one,
 * made unique, and kept apart from the names the connector client uses itself.
 */
export function entityNamesOf(streamNames: readonly string[]): Map<string, string> {
  const byEntity = new Map<string, string>();
  for (const stream of streamNames) {
    let base = stream
      .toLowerCase()
      .replace(/[^a-z0-9_-]+/g, '_')
      .replace(/^_+|_+$/g, '');
    if (!/^[a-z]/.test(base)) base = `s_${base}`;
    if (RESERVED_ENTITY_NAMES.includes(base)) base = `${base}_stream`;
    let entity = base;
    for (let n = 2; byEntity.has(entity); n++) entity = `${base}_${n}`;
    byEntity.set(entity, stream);
  }
  return byEntity;
}

/** A connector type from a manifest's file path: `source-pokeapi/manifest.yaml` → `pokeapi`, `crm.yaml` → `crm`. */
export function typeFromPath(path: string): string {
  const parts = path.split(/[\\/]/).filter((part) => part !== '');
  const file = (parts.at(-1) ?? 'manifest').replace(/\.(ya?ml|json)$/i, '');
  const name = file === 'manifest' && parts.length > 1 ? parts.at(-2)! : file;
  const folded = name
    .toLowerCase()
    .replace(/^source[-_]/, '')
    .replace(/[^a-z0-9_-]+/g, '-')
    .replace(/^[-_]+|[-_]+$/g, '');
  return /^[a-z]/.test(folded) ? folded : `manifest-${folded || 'source'}`;
}
