import type { JsonSchema, SearchIndex } from '../../sdk/index.ts';
import { isObject } from '../../plugins/value-shapes.ts';

export type FieldKind = 'string' | 'number' | 'boolean' | 'object' | 'array';

/** One field of a stored document: its kind, and for objects and arrays what lies below. */
export interface FieldNode {
  kind: FieldKind;
  /** Object fields: the declared properties. */
  children?: Map<string, FieldNode>;
  /** Array fields: their elements. */
  element?: FieldNode;
}

/**
 * A step from a document (or an array element) to a value: a key, or `each` for "some element of
 * this array" (the `[]` of a path).
 */
export type PathStep = { key: string } | { each: true };

/** A field path checked against the catalog: the steps to it and the kind of value found there. */
export interface ResolvedField {
  name: string;
  steps: PathStep[];
  node: FieldNode;
  /** Slot in the text indexes (0-63) of a text or substring field, else undefined. */
  textSlot?: number;
  /** Indexed by word (keyword, fuzzy). */
  words: boolean;
  /** Indexed by trigram (like without a scan). */
  trigrams: boolean;
}

/** The text indexes hold up to 64 fields per entity: a text row's id is the record's id times 64 plus the slot. */
export const TEXT_SLOTS = 64;

/** What the context store knows of one searchable entity: the fields of its documents and their indexes. */
export class FieldCatalog {
  readonly root: FieldNode;
  /** Text and substring fields in slot order. */
  readonly textFields: ResolvedField[];
  readonly idFields: string[];
  /** Fields with a B-tree (expression) index. */
  readonly indexedFields: ResolvedField[];

  constructor(
    readonly entity: string,
    readonly index: SearchIndex,
  ) {
    this.root = nodeOf(index.document);
    this.idFields = typeof index.id === 'string' ? [index.id] : [...index.id];
    const missing = this.idFields.filter((field) => !this.root.children?.has(field));
    if (missing.length > 0) throw new Error(`${entity}: id field ${missing.join(', ')} is not a field of the document`);
    const words = new Set(index.textFields);
    const trigrams = new Set(index.substringFields ?? []);
    const slots = [...new Set([...words, ...trigrams])];
    if (slots.length > TEXT_SLOTS) throw new Error(`${entity}: at most ${TEXT_SLOTS} text and substring fields`);
    this.textFields = slots.map((name, slot) => {
      const field = this.resolve(name);
      if (field?.node.kind !== 'string' || field.steps.some((step) => 'each' in step)) {
        throw new Error(`${entity}: text field "${name}" must be a string field of the document outside arrays`);
      }
      return { ...field, textSlot: slot, words: words.has(name), trigrams: trigrams.has(name) };
    });
    this.indexedFields = this.indexedNames().map((name) => {
      const field = this.resolve(name);
      if (!field || field.node.kind === 'object' || field.node.kind === 'array' || field.steps.some((step) => 'each' in step)) {
        throw new Error(`${entity}: indexed field "${name}" must be a plain field of the document outside arrays`);
      }
      return field;
    });
  }

  /** The declared indexed fields, or by default the top-level strings and numbers that are not text (the id has its own index). */
  private indexedNames(): string[] {
    if (this.index.indexedFields) return this.index.indexedFields;
    const text = new Set(this.index.textFields);
    return [...(this.root.children ?? [])]
      .filter(([name, node]) => (node.kind === 'string' || node.kind === 'number') && !this.idFields.includes(name) && !text.has(name))
      .map(([name]) => name);
  }

  /** A dot path (`profile.email`, `reactions[].name`) relative to `from` (the document, or an array's element), or undefined. */
  resolve(name: string, from: FieldNode = this.root): ResolvedField | undefined {
    if (from === this.root) {
      const text = this.textFields?.find((field) => field.name === name);
      if (text) return text;
    }
    const steps: PathStep[] = [];
    let node: FieldNode | undefined = from;
    for (const part of name.split('.')) {
      const each = part.endsWith('[]');
      const key = each ? part.slice(0, -2) : part;
      if (key === '' || !node?.children) return undefined;
      node = node.children.get(key);
      if (!node) return undefined;
      steps.push({ key });
      if (each) {
        if (node.kind !== 'array' || !node.element) return undefined;
        node = node.element;
        steps.push({ each: true });
      }
    }
    return node ? { name, steps, node, words: false, trigrams: false } : undefined;
  }

  /** The paths a caller can name, for error messages. */
  fieldNames(from: FieldNode = this.root, prefix = ''): string[] {
    const names: string[] = [];
    for (const [key, node] of from.children ?? []) {
      const name = `${prefix}${key}`;
      names.push(name);
      if (node.kind === 'object') names.push(...this.fieldNames(node, `${name}.`));
      if (node.kind === 'array' && node.element?.kind === 'object') names.push(...this.fieldNames(node.element, `${name}[].`));
    }
    return names;
  }

  /** The record's id as the index declares it, or undefined when a part is missing. */
  idOf(record: Record<string, unknown>): string | undefined {
    const parts = this.idFields.map((field) => record[field]);
    if (parts.some((part) => (typeof part !== 'string' && typeof part !== 'number') || part === '')) return undefined;
    return parts.join(':');
  }

  /** The document kept of a record: its declared top-level fields (null when absent). */
  documentOf(record: Record<string, unknown>, id: string): Record<string, unknown> {
    const document: Record<string, unknown> = {};
    for (const key of this.root.children?.keys() ?? []) document[key] = record[key] ?? null;
    document.id = id;
    return document;
  }
}

function nodeOf(schema: JsonSchema | undefined): FieldNode {
  const kind = kindOf(schema);
  if (kind === 'object' && isObject(schema?.properties)) {
    const children = new Map<string, FieldNode>();
    for (const [key, child] of Object.entries(schema.properties)) children.set(key, nodeOf(child as JsonSchema));
    return { kind, children };
  }
  if (kind === 'array' && isObject(schema?.items)) return { kind, element: nodeOf(schema.items as JsonSchema) };
  return { kind };
}

/** The schema's type other than null; an untyped schema holds an object whose fields are unknown. */
function kindOf(schema: JsonSchema | undefined): FieldKind {
  const declared = schema?.type;
  const types = (Array.isArray(declared) ? declared : [declared]).filter((type) => type !== 'null');
  const type = types[0];
  if (type === 'integer' || type === 'number') return 'number';
  if (type === 'string' || type === 'boolean' || type === 'array') return type;
  return 'object';
}
