import type { Expr, Node, Target } from './ast.ts';

/**
 * Jinja's `meta.find_undeclared_variables`, which the CDK runs before rendering: every name a
 * template reads that it has not assigned first. A name assigned inside an `if` or a `for` does not
 * count outside it (Jinja resolves it from the context there too).
 */
export function findUndeclaredNames(nodes: Node[]): Set<string> {
  const undeclared = new Set<string>();
  walkBody(nodes, new Set(), undeclared);
  return undeclared;
}

function walkBody(nodes: Node[], declared: Set<string>, undeclared: Set<string>): void {
  for (const node of nodes) {
    switch (node.kind) {
      case 'data':
        break;
      case 'output':
        walkExpr(node.expr, declared, undeclared);
        break;
      case 'if':
        for (const branch of node.branches) {
          walkExpr(branch.test, declared, undeclared);
          walkBody(branch.body, new Set(declared), undeclared);
        }
        walkBody(node.otherwise, new Set(declared), undeclared);
        break;
      case 'for': {
        walkExpr(node.iterable, declared, undeclared);
        const inner = new Set(declared);
        declareTarget(node.target, inner, undeclared);
        inner.add('loop');
        if (node.filter) walkExpr(node.filter, inner, undeclared);
        walkBody(node.body, inner, undeclared);
        walkBody(node.otherwise, new Set(declared), undeclared);
        break;
      }
      case 'set':
        walkExpr(node.value, declared, undeclared);
        declareTarget(node.target, declared, undeclared);
        break;
      case 'set_block':
        walkBody(node.body, new Set(declared), undeclared);
        declareTarget(node.target, declared, undeclared);
        break;
    }
  }
}

function declareTarget(target: Target, declared: Set<string>, undeclared: Set<string>): void {
  if (target.kind === 'name') declared.add(target.name);
  else if (target.kind === 'tuple') for (const item of target.items) declareTarget(item, declared, undeclared);
  else if (!declared.has(target.name)) undeclared.add(target.name);
}

function walkExpr(expr: Expr, declared: Set<string>, undeclared: Set<string>): void {
  const walk = (child: Expr | null) => {
    if (child) walkExpr(child, declared, undeclared);
  };
  switch (expr.kind) {
    case 'const':
      return;
    case 'name':
      if (!declared.has(expr.name)) undeclared.add(expr.name);
      return;
    case 'tuple':
    case 'list':
      expr.items.forEach(walk);
      return;
    case 'dict':
      for (const [key, value] of expr.pairs) {
        walk(key);
        walk(value);
      }
      return;
    case 'getattr':
      walk(expr.object);
      return;
    case 'getitem':
      walk(expr.object);
      walk(expr.key);
      return;
    case 'slice':
      walk(expr.object);
      walk(expr.start);
      walk(expr.stop);
      walk(expr.step);
      return;
    case 'call':
      walk(expr.callee);
      expr.args.forEach(walk);
      for (const [, value] of expr.kwargs) walk(value);
      return;
    case 'filter':
    case 'test':
      walk(expr.value);
      expr.args.forEach(walk);
      for (const [, value] of expr.kwargs) walk(value);
      return;
    case 'unary':
      walk(expr.operand);
      return;
    case 'binary':
    case 'and':
    case 'or':
      walk(expr.left);
      walk(expr.right);
      return;
    case 'concat':
      expr.parts.forEach(walk);
      return;
    case 'compare':
      walk(expr.first);
      for (const [, operand] of expr.rest) walk(operand);
      return;
    case 'condition':
      walk(expr.test);
      walk(expr.whenTrue);
      walk(expr.whenFalse);
      return;
  }
}
