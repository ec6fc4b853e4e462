import { PyTypeError } from '../errors.ts';
import { binaryOp } from '../python/arithmetic.ts';
import { isMapping } from '../python/mapping.ts';
import { pyContains, pyEquals, pyOrder } from '../python/semantics.ts';
import { pyStr } from '../python/to-string.ts';
import { Callable, DictView, isFloat, isInt, isNumeric, Tuple, Undefined } from '../values.ts';
import type { Runtime } from './runtime.ts';

type Test = (runtime: Runtime, value: unknown, args: unknown[]) => boolean;

function argument(args: unknown[], name: string): unknown {
  if (args.length < 1) throw new PyTypeError(`the test '${name}' needs an argument`);
  return args[0];
}

const isSequence = (value: unknown) =>
  typeof value === 'string' || Array.isArray(value) || value instanceof Tuple || isMapping(value) || value instanceof Undefined;

/** Jinja's builtin tests (`x is defined`, `x is none`, `x is divisibleby 3`...). */
export const TESTS: Record<string, Test> = Object.assign(Object.create(null) as Record<string, Test>, {
  defined: (_, value) => !(value instanceof Undefined),
  undefined: (_, value) => value instanceof Undefined,
  none: (_, value) => value === null,
  true: (_, value) => value === true,
  false: (_, value) => value === false,
  boolean: (_, value) => typeof value === 'boolean',
  integer: (_, value) => isInt(value),
  float: (_, value) => isFloat(value),
  number: (_, value) => isNumeric(value),
  string: (_, value) => typeof value === 'string',
  mapping: (_, value) => isMapping(value),
  sequence: (_, value) => isSequence(value),
  iterable: (_, value) => isSequence(value) || value instanceof DictView,
  callable: (_, value) => value instanceof Callable || value instanceof Undefined,
  in: (runtime, value, args) => pyContains(argument(args, 'in'), value, runtime.budget),
  eq: (runtime, value, args) => pyEquals(value, argument(args, 'eq'), runtime.budget),
  ne: (runtime, value, args) => !pyEquals(value, argument(args, 'ne'), runtime.budget),
  lt: (runtime, value, args) => pyOrder('<', value, argument(args, 'lt'), runtime.budget),
  le: (runtime, value, args) => pyOrder('<=', value, argument(args, 'le'), runtime.budget),
  gt: (runtime, value, args) => pyOrder('>', value, argument(args, 'gt'), runtime.budget),
  ge: (runtime, value, args) => pyOrder('>=', value, argument(args, 'ge'), runtime.budget),
  divisibleby: (runtime, value, args) => pyEquals(binaryOp('%', value, argument(args, 'divisibleby'), runtime.budget), 0),
  even: (runtime, value) => pyEquals(binaryOp('%', value, 2, runtime.budget), 0),
  odd: (runtime, value) => pyEquals(binaryOp('%', value, 2, runtime.budget), 1),
  lower: (_, value) => {
    const text = pyStr(value);
    return /\p{Ll}/u.test(text) && text === text.toLowerCase();
  },
  upper: (_, value) => {
    const text = pyStr(value);
    return /\p{Lu}/u.test(text) && text === text.toUpperCase();
  },
  sameas: (_, value, args) => {
    const other = argument(args, 'sameas');
    return value === other || (isInt(value) && isInt(other) && pyEquals(value, other) && typeof value !== 'boolean');
  },
  escaped: () => false,
} satisfies Record<string, Test>);
for (const [alias, name] of [
  ['==', 'eq'],
  ['equalto', 'eq'],
  ['!=', 'ne'],
  ['<', 'lt'],
  ['lessthan', 'lt'],
  ['<=', 'le'],
  ['>', 'gt'],
  ['greaterthan', 'gt'],
  ['>=', 'ge'],
] as const) {
  TESTS[alias] = TESTS[name]!;
}
