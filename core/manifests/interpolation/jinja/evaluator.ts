import { PyTypeError, RenderError, UndefinedError } from '../errors.ts';
import { binaryOp, unaryOp } from '../python/arithmetic.ts';
import { makeDict } from '../python/mapping.ts';
import { iterate, pyContains, pyEquals, pyOrder, truthy } from '../python/semantics.ts';
import { pyStr } from '../python/to-string.ts';
import { Callable, Namespace, Tuple, Undefined, typeName } from '../values.ts';
import type { Expr, Node, Target } from './ast.ts';
import { FILTERS, type FilterRuntime } from './filters.ts';
import type { Runtime } from './runtime.ts';
import { getAttribute, getItem, getSlice } from './sandbox.ts';
import { TESTS } from './tests.ts';

/** Names assigned by `{% set %}` and `{% for %}`; a loop body gets its own scope, as in Jinja. */
class Scope {
  private readonly names = new Map<string, unknown>();
  constructor(private readonly parent: Scope | null) {}

  lookup(name: string): { found: boolean; value: unknown } {
    for (let scope: Scope | null = this; scope; scope = scope.parent) {
      if (scope.names.has(name)) return { found: true, value: scope.names.get(name) };
    }
    return { found: false, value: undefined };
  }

  set(name: string, value: unknown): void {
    this.names.set(name, value);
  }
}

/** Where names the context lacks are looked up (the macros). */
export type GlobalLookup = Pick<ReadonlyMap<string, Callable>, 'get'>;

/**
 * Renders a parsed template against a context. Every node and expression ticks the budget; the
 * output is size-checked as it grows. Names resolve from assignments, then the context's own keys,
 * then the globals (macros); anything else is undefined.
 */
export function render(nodes: Node[], context: Readonly<Record<string, unknown>>, globals: GlobalLookup, runtime: Runtime): string {
  return new Evaluator(context, globals, runtime).renderBody(nodes, new Scope(null));
}

class Evaluator {
  /** Built when a filter first runs: most templates have none, and closures are not free (tsx names each one). */
  private builtFilterRuntime: FilterRuntime | null = null;

  constructor(
    private readonly context: Readonly<Record<string, unknown>>,
    private readonly globals: GlobalLookup,
    private readonly runtime: Runtime,
  ) {}

  private get filterRuntime(): FilterRuntime {
    this.builtFilterRuntime ??= {
      budget: this.runtime.budget,
      now: this.runtime.now,
      applyFilter: (name, value, args, kwargs) => this.applyFilter(name, value, args, kwargs),
      applyTest: (name, value, args) => this.applyTest(name, value, args),
    };
    return this.builtFilterRuntime;
  }

  renderBody(nodes: Node[], scope: Scope): string {
    const budget = this.runtime.budget;
    let out = '';
    for (const node of nodes) {
      budget.tick();
      switch (node.kind) {
        case 'data':
          out = this.append(out, node.text);
          break;
        case 'output':
          out = this.append(out, pyStr(this.evaluate(node.expr, scope), budget));
          break;
        case 'if': {
          const branch = node.branches.find((candidate) => truthy(this.evaluate(candidate.test, scope)));
          out = this.append(out, this.renderBody(branch ? branch.body : node.otherwise, scope));
          break;
        }
        case 'for':
          out = this.append(out, this.renderFor(node, scope));
          break;
        case 'set':
          this.assign(node.target, this.evaluate(node.value, scope), scope);
          break;
        case 'set_block':
          this.assign(node.target, this.renderBody(node.body, new Scope(scope)), scope);
          break;
      }
    }
    return out;
  }

  /** The output so far with `text` after it, checked against the size bound before it is built. */
  private append(out: string, text: string): string {
    this.runtime.budget.checkSize(out.length + text.length);
    return out + text;
  }

  private renderFor(node: Extract<Node, { kind: 'for' }>, scope: Scope): string {
    const budget = this.runtime.budget;
    const iterable = this.evaluate(node.iterable, scope);
    let items = iterate(iterable, budget);
    if (node.filter) {
      const filterExpr = node.filter;
      items = items.filter((item) => {
        const inner = new Scope(scope);
        this.assign(node.target, item, inner);
        return truthy(this.evaluate(filterExpr, inner));
      });
    }
    if (items.length === 0) return this.renderBody(node.otherwise, scope);
    let out = '';
    for (const [index, item] of items.entries()) {
      budget.tick();
      const inner = new Scope(scope);
      this.assign(node.target, item, inner);
      const loop = Object.create(null) as Record<string, unknown>;
      Object.assign(loop, {
        index: index + 1,
        index0: index,
        revindex: items.length - index,
        revindex0: items.length - index - 1,
        first: index === 0,
        last: index === items.length - 1,
        length: items.length,
        depth: 1,
        depth0: 0,
        previtem: index > 0 ? items[index - 1] : new Undefined('there is no previous item'),
        nextitem: index < items.length - 1 ? items[index + 1] : new Undefined('there is no next item'),
      });
      inner.set('loop', loop);
      const text = this.renderBody(node.body, inner);
      budget.checkSize(out.length + text.length);
      out += text;
    }
    return out;
  }

  private assign(target: Target, value: unknown, scope: Scope): void {
    if (target.kind === 'name') {
      scope.set(target.name, value);
      return;
    }
    if (target.kind === 'namespace') {
      const namespace = this.lookup(target.name, scope);
      if (!(namespace instanceof Namespace)) throw new RenderError('can only set attributes on namespace objects');
      namespace.attributes.set(target.attribute, value);
      return;
    }
    const items = iterate(value, this.runtime.budget);
    if (items.length !== target.items.length) throw new RenderError(`cannot unpack ${items.length} values into ${target.items.length} names`);
    for (const [index, item] of target.items.entries()) this.assign(item, items[index], scope);
  }

  private lookup(name: string, scope: Scope): unknown {
    const assigned = scope.lookup(name);
    if (assigned.found) return assigned.value;
    if (Object.hasOwn(this.context, name)) return this.context[name] ?? null;
    const global = this.globals.get(name);
    if (global) return global;
    return new Undefined(`'${name}' is undefined`);
  }

  evaluate(expr: Expr, scope: Scope): unknown {
    const runtime = this.runtime;
    runtime.budget.tick();
    switch (expr.kind) {
      case 'const':
        return expr.value;
      case 'name':
        return this.lookup(expr.name, scope);
      case 'tuple':
        return new Tuple(expr.items.map((item) => this.evaluate(item, scope)));
      case 'list':
        return expr.items.map((item) => this.evaluate(item, scope));
      case 'dict':
        return makeDict(expr.pairs.map(([key, value]) => [this.evaluate(key, scope), this.evaluate(value, scope)] as [unknown, unknown]));
      case 'getattr':
        return getAttribute(this.evaluate(expr.object, scope), expr.attribute, runtime);
      case 'getitem':
        return getItem(this.evaluate(expr.object, scope), this.evaluate(expr.key, scope), runtime);
      case 'slice': {
        const object = this.evaluate(expr.object, scope);
        const part = (node: Expr | null) => (node ? this.evaluate(node, scope) : null);
        return getSlice(object, part(expr.start), part(expr.stop), part(expr.step));
      }
      case 'call': {
        const callee = this.evaluate(expr.callee, scope);
        if (callee instanceof Undefined) throw new UndefinedError(`${callee.hint} (calling it)`);
        if (!(callee instanceof Callable)) throw new PyTypeError(`'${typeName(callee)}' object is not callable`);
        const args = expr.args.map((arg) => this.evaluate(arg, scope));
        const kwargs = new Map(expr.kwargs.map(([name, value]) => [name, this.evaluate(value, scope)]));
        return callee.call(args, kwargs);
      }
      case 'filter': {
        const value = this.evaluate(expr.value, scope);
        const args = expr.args.map((arg) => this.evaluate(arg, scope));
        const kwargs = new Map(expr.kwargs.map(([name, item]) => [name, this.evaluate(item, scope)]));
        return this.applyFilter(expr.name, value, args, kwargs);
      }
      case 'test': {
        const value = this.evaluate(expr.value, scope);
        const args = expr.args.map((arg) => this.evaluate(arg, scope));
        return this.applyTest(expr.name, value, args) !== expr.negated;
      }
      case 'unary':
        if (expr.op === 'not') return !truthy(this.evaluate(expr.operand, scope));
        return unaryOp(expr.op, this.evaluate(expr.operand, scope));
      case 'binary':
        return binaryOp(expr.op, this.evaluate(expr.left, scope), this.evaluate(expr.right, scope), runtime.budget);
      case 'concat': {
        let out = '';
        for (const part of expr.parts) {
          const text = pyStr(this.evaluate(part, scope), runtime.budget);
          runtime.budget.checkSize(out.length + text.length);
          out += text;
        }
        return out;
      }
      case 'compare': {
        let left = this.evaluate(expr.first, scope);
        for (const [op, operand] of expr.rest) {
          const right = this.evaluate(operand, scope);
          if (!this.compare(op, left, right)) return false;
          left = right;
        }
        return true;
      }
      case 'and': {
        const left = this.evaluate(expr.left, scope);
        return truthy(left) ? this.evaluate(expr.right, scope) : left;
      }
      case 'or': {
        const left = this.evaluate(expr.left, scope);
        return truthy(left) ? left : this.evaluate(expr.right, scope);
      }
      case 'condition':
        if (truthy(this.evaluate(expr.test, scope))) return this.evaluate(expr.whenTrue, scope);
        return expr.whenFalse ? this.evaluate(expr.whenFalse, scope) : new Undefined('the condition was false and there is no else');
    }
  }

  private compare(op: string, left: unknown, right: unknown): boolean {
    const budget = this.runtime.budget;
    switch (op) {
      case '==':
        return pyEquals(left, right, budget);
      case '!=':
        return !pyEquals(left, right, budget);
      case 'in':
        return pyContains(right, left, budget);
      case 'not in':
        return !pyContains(right, left, budget);
      default:
        return pyOrder(op as '<' | '<=' | '>' | '>=', left, right, budget);
    }
  }

  private applyFilter(name: string, value: unknown, args: unknown[], kwargs: Map<string, unknown>): unknown {
    const filter = Object.hasOwn(FILTERS, name) ? FILTERS[name] : undefined;
    if (!filter) throw new RenderError(`no filter named '${name}'`);
    return filter(this.filterRuntime, value, args, kwargs);
  }

  private applyTest(name: string, value: unknown, args: unknown[]): boolean {
    const test = Object.hasOwn(TESTS, name) ? TESTS[name] : undefined;
    if (!test) throw new RenderError(`no test named '${name}'`);
    return test(this.runtime, value, args);
  }
}
