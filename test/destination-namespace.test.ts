import { expect, it } from 'vitest';
import { configurationInNamespace, connectionNamespace } from '../core/hosted/sync/destinations/destination-namespace.ts';

it("renders a connection's namespace as Airbyte does for streams that declare none", () => {
  expect(connectionNamespace('custom_format', 'analytics')).toBe('analytics');
  // The source namespace is empty here: the placeholder renders to nothing.
  expect(connectionNamespace('custom_format', `raw_\${SOURCE_NAMESPACE}`)).toBe('raw_');
  // Blank, or only the placeholder: the destination's own schema, as `source` and `destination` give.
  for (const format of ['', '  ', `\${SOURCE_NAMESPACE}`, null, undefined]) expect(connectionNamespace('custom_format', format)).toBeUndefined();
  expect(connectionNamespace('source', 'ignored')).toBeUndefined();
  expect(connectionNamespace('destination', 'ignored')).toBeUndefined();
  expect(connectionNamespace(undefined, 'ignored')).toBeUndefined();
});

it('writes a namespace into the schema of PostgreSQL and DuckDB configurations; SQLite has no schemas', () => {
  const postgres = { destinationType: 'postgres', host: 'db', schema: 'public' };
  expect(configurationInNamespace('postgres', postgres, 'analytics')).toEqual({ ...postgres, schema: 'analytics' });
  expect(configurationInNamespace('duckdb', { destination_path: '/local/a.duckdb' }, 'analytics')).toEqual({
    destination_path: '/local/a.duckdb',
    schema: 'analytics',
  });
  expect(configurationInNamespace('postgres', postgres, undefined)).toBe(postgres);
  const sqlite = { destinationType: 'sqlite', destination_path: '/local/a.sqlite' };
  expect(configurationInNamespace('sqlite', sqlite, 'analytics')).toBe(sqlite);
});
