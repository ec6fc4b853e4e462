/** The syntax tree of a template: expressions and the statements the CDK's Jinja allows. */

export type Expr =
  | { kind: 'const'; value: unknown }
  | { kind: 'name'; name: string }
  | { kind: 'tuple'; items: Expr[] }
  | { kind: 'list'; items: Expr[] }
  | { kind: 'dict'; pairs: Array<[Expr, Expr]> }
  | { kind: 'getattr'; object: Expr; attribute: string }
  | { kind: 'getitem'; object: Expr; key: Expr }
  | { kind: 'slice'; object: Expr; start: Expr | null; stop: Expr | null; step: Expr | null }
  | { kind: 'call'; callee: Expr; args: Expr[]; kwargs: Array<[string, Expr]> }
  | { kind: 'filter'; value: Expr; name: string; args: Expr[]; kwargs: Array<[string, Expr]> }
  | { kind: 'test'; value: Expr; name: string; args: Expr[]; kwargs: Array<[string, Expr]>; negated: boolean }
  | { kind: 'unary'; op: '-' | '+' | 'not'; operand: Expr }
  | { kind: 'binary'; op: '+' | '-' | '*' | '/' | '//' | '%' | '**'; left: Expr; right: Expr }
  | { kind: 'concat'; parts: Expr[] }
  | { kind: 'compare'; first: Expr; rest: Array<[CompareOp, Expr]> }
  | { kind: 'and' | 'or'; left: Expr; right: Expr }
  | { kind: 'condition'; test: Expr; whenTrue: Expr; whenFalse: Expr | null };

export type CompareOp = '==' | '!=' | '<' | '<=' | '>' | '>=' | 'in' | 'not in';

/** What `{% set %}` and `{% for %}` assign to. */
export type Target = { kind: 'name'; name: string } | { kind: 'tuple'; items: Target[] } | { kind: 'namespace'; name: string; attribute: string };

export type Node =
  | { kind: 'data'; text: string }
  | { kind: 'output'; expr: Expr }
  | { kind: 'if'; branches: Array<{ test: Expr; body: Node[] }>; otherwise: Node[] }
  | { kind: 'for'; target: Target; iterable: Expr; filter: Expr | null; body: Node[]; otherwise: Node[] }
  | { kind: 'set'; target: Target; value: Expr }
  | { kind: 'set_block'; target: Target; body: Node[] };
