import { SERVER_SCHEMAS } from '../core/hosted/types.generated.ts';
import type { JsonSchema } from '../core/sdk/index.ts';

/** The schema files a `$ref` may name, by file name. */
const SCHEMA_FILES: Record<string, JsonSchema | undefined> = SERVER_SCHEMAS;

/**
 * The schemas an API document uses, as components named by their titles: a schema goes in once and
 * is referred to as `#/components/schemas/<title>`, and a `$ref` to another file of schemas/server/
 * inside it becomes a reference to that file's component.
 */
export class SchemaComponents {
  private readonly byTitle = new Map<string, { source: JsonSchema; component: JsonSchema }>();

  ref(schema: JsonSchema): { $ref: string } {
    const title = schema.title;
    if (typeof title !== 'string') throw new Error(`A schema of the API document has no title to name its component: ${JSON.stringify(schema).slice(0, 200)}`);
    const known = this.byTitle.get(title);
    if (known && known.source !== schema) throw new Error(`Two schemas of the API document are titled ${title}`);
    if (!known) {
      // Registered before it is converted: a schema that refers back to itself finds its component.
      const entry = { source: schema, component: {} };
      this.byTitle.set(title, entry);
      entry.component = this.converted(schema) as JsonSchema;
    }
    return { $ref: `#/components/schemas/${title}` };
  }

  all(): Record<string, JsonSchema> {
    return Object.fromEntries([...this.byTitle].map(([title, { component }]) => [title, component]));
  }

  /** The schema without `$schema` (the document names the dialect), its file references made component references. */
  private converted(value: unknown): unknown {
    if (Array.isArray(value)) return value.map((item) => this.converted(item));
    if (value === null || typeof value !== 'object') return value;
    const entries = Object.entries(value).filter(([key]) => key !== '$schema');
    return Object.fromEntries(entries.map(([key, child]) => [key, key === '$ref' ? this.ref(this.fileOf(child)).$ref : this.converted(child)]));
  }

  private fileOf(ref: unknown): JsonSchema {
    const schema = typeof ref === 'string' ? SCHEMA_FILES[ref] : undefined;
    if (!schema) throw new Error(`A schema of the API document refers to ${String(ref)}, which is not a file of schemas/server/`);
    return schema;
  }
}
