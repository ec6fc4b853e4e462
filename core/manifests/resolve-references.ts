import { isObject, type JsonObject, type PathSegment, setField } from './json-values.ts';
import { type ManifestProblem, problemAt } from './manifest-load-error.ts';

const REF_KEY = '$ref';
/** Inside these fields strings are values, never references (a check's config overrides may hold any text). */
const LITERAL_FIELDS = new Set(['config_overrides']);
/** How many values a manifest may expand to once its references are copied in: far above any real one, a bound on a crafted one. */
export const MAX_RESOLVED_VALUES = 5_000_000;

export interface ResolvedManifest {
  manifest: JsonObject;
  problems: ManifestProblem[];
  /** The manifest expanded past MAX_RESOLVED_VALUES: what was resolved is cut short, nothing after resolution is worth checking. */
  exhausted: boolean;
}

/**
 * Replaces the manifest's references the way Airbyte's CDK does (ManifestReferenceResolver):
 *
 * - any string value starting with `#/` is a reference and becomes (a resolved copy of) the value it names;
 * - a mapping with a `$ref` key becomes the referenced mapping with the mapping's own keys over it (its
 *   own keys win, one level deep); a `$ref` naming something that is not a mapping replaces the whole mapping;
 * - a path `#/a/b/c` is read as the CDK reads it: the whole rest (`a/b/c`) as a key first, else the first
 *   segment (a list index when it is a number) and the rest from there; no `~0`/`~1` escapes;
 * - references inside a referenced value are resolved too, so references to references work; a chain that
 *   comes back to a reference it is following is a cycle.
 *
 * Every problem is collected: a reference naming nothing, a cycle (with the chain), a `$ref` that is not a
 * `#/…` string. An unresolved reference stays in place (its string, or the mapping keeps its `$ref`) so the
 * checks after this one can skip it instead of reporting what follows from it.
 */
export function resolveReferences(manifest: JsonObject): ResolvedManifest {
  const resolver = new ReferenceResolver(manifest);
  const resolved = resolver.evaluate(manifest, [], [], false) as JsonObject;
  return { manifest: resolved, problems: [...resolver.problems.values()], exhausted: resolver.exhausted };
}

export function isReference(value: unknown): value is string {
  return typeof value === 'string' && value.startsWith('#/');
}

type Followed = { found: true; value: unknown } | { found: false };

class ReferenceResolver {
  /** By text: a definition used by many streams is evaluated once per use, and reported once. */
  readonly problems = new Map<string, ManifestProblem>();
  private budget = MAX_RESOLVED_VALUES;

  get exhausted(): boolean {
    return this.budget < 0;
  }

  constructor(private readonly root: JsonObject) {}

  /** `at`: where `node` is in the manifest as written; `chain`: the references being followed to reach it. */
  evaluate(node: unknown, at: PathSegment[], chain: string[], literal: boolean): unknown {
    if (--this.budget < 0) {
      if (this.budget === -1) this.report(at, `the manifest expands to more than ${MAX_RESOLVED_VALUES} values once its references are resolved`);
      return null;
    }
    if (Array.isArray(node)) return node.map((item, index) => this.evaluate(item, [...at, index], chain, literal));
    if (isObject(node)) return this.evaluateMapping(node, at, chain, literal);
    if (!literal && isReference(node)) {
      const followed = this.follow(node, at, chain);
      return followed.found ? followed.value : node;
    }
    return node;
  }

  private evaluateMapping(node: JsonObject, at: PathSegment[], chain: string[], literal: boolean): unknown {
    const own: JsonObject = {};
    for (const [key, value] of Object.entries(node)) {
      if (key !== REF_KEY || literal) setField(own, key, this.evaluate(value, [...at, key], chain, literal || LITERAL_FIELDS.has(key)));
    }
    if (literal || !Object.hasOwn(node, REF_KEY)) return own;
    const reference = node[REF_KEY];
    if (!isReference(reference)) {
      this.report([...at, REF_KEY], `\`$ref\` must be a reference such as "#/definitions/<name>", not ${JSON.stringify(reference)}`);
      return { [REF_KEY]: reference, ...own };
    }
    const followed = this.follow(reference, [...at, REF_KEY], chain);
    if (!followed.found) return { [REF_KEY]: reference, ...own };
    // The CDK's `ref | local`: the referenced mapping, the mapping's own keys over it.
    return isObject(followed.value) ? { ...followed.value, ...own } : followed.value;
  }

  private follow(reference: string, at: PathSegment[], chain: string[]): Followed {
    if (chain.includes(reference)) {
      const cycle = [...chain.slice(chain.indexOf(reference)), reference].join(' → ');
      this.report(at, `circular reference: ${cycle}`);
      return { found: false };
    }
    const target = lookUp(this.root, reference);
    if (target === undefined) {
      this.report(at, `reference ${reference} names nothing in the manifest`);
      return { found: false };
    }
    return { found: true, value: this.evaluate(target.value, target.at, [...chain, reference], false) };
  }

  private report(at: PathSegment[], message: string): void {
    const problem = problemAt('reference', at, message);
    this.problems.set(`${problem.path}: ${message}`, problem);
  }
}

/** The value a `#/…` reference names and where it is, read as the CDK reads it; undefined when it names nothing. */
export function lookUp(root: JsonObject, reference: string): { value: unknown; at: PathSegment[] } | undefined {
  let rest = reference.slice(2);
  let node: unknown = root;
  const at: PathSegment[] = [];
  while (rest !== '') {
    // The whole rest as one key first: `#/nested/path` finds a key "nested/path" before nested → path.
    if (isObject(node) && Object.hasOwn(node, rest)) return { value: node[rest], at: [...at, rest] };
    const slash = rest.indexOf('/');
    const head = slash < 0 ? rest : rest.slice(0, slash);
    rest = slash < 0 ? '' : rest.slice(slash + 1);
    if (Array.isArray(node)) {
      if (!/^[+-]?\d+$/.test(head)) return undefined;
      const index = Number(head) < 0 ? node.length + Number(head) : Number(head);
      if (index < 0 || index >= node.length) return undefined;
      node = node[index];
      at.push(index);
    } else if (isObject(node) && Object.hasOwn(node, head)) {
      node = node[head];
      at.push(head);
    } else {
      return undefined;
    }
  }
  return { value: node, at };
}
