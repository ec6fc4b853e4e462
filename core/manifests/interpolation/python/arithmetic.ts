import type { Budget } from '../budget.ts';
import { LimitExceededError, PyTypeError, RenderError, UndefinedError } from '../errors.ts';
import { addMonths, IsoDuration, PyDate, PyDateTime, Timedelta, roundHalfEven } from '../datetime/types.ts';
import { floatValue, isFloat, isInt, isNumeric, normalizeInt, PyFloat, Tuple, toBigInt, Undefined, typeName } from '../values.ts';

export type BinaryOperator = '+' | '-' | '*' | '/' | '//' | '%' | '**';

/** Ints past this many bits stop the template (Python prints at most 4300 digits of an int anyway). */
const MAX_INT_BITS = 14_300;

function checkIntSize(value: bigint): bigint {
  const magnitude = value < 0n ? -value : value;
  if (magnitude > 0n && magnitude.toString(16).length * 4 > MAX_INT_BITS)
    throw new LimitExceededError('the template built an integer with more than 4300 digits');
  return value;
}

function unsupported(op: string, left: unknown, right: unknown): PyTypeError {
  return new PyTypeError(`unsupported operand type(s) for ${op}: '${typeName(left)}' and '${typeName(right)}'`);
}

/** Python's binary arithmetic on the values a template has; sizes are checked before anything is built. */
export function binaryOp(op: BinaryOperator, left: unknown, right: unknown, budget: Budget): unknown {
  if (left instanceof Undefined || right instanceof Undefined) throw new UndefinedError(`cannot use an undefined value with '${op}'`);
  if (isNumeric(left) && isNumeric(right)) return numericOp(op, left, right);
  switch (op) {
    case '+':
      if (typeof left === 'string' && typeof right === 'string') {
        budget.checkSize(left.length + right.length);
        return left + right;
      }
      if (Array.isArray(left) && Array.isArray(right)) {
        budget.checkSize(left.length + right.length);
        return [...left, ...right];
      }
      if (left instanceof Tuple && right instanceof Tuple) {
        budget.checkSize(left.items.length + right.items.length);
        return new Tuple([...left.items, ...right.items]);
      }
      return addTime(left, right, 1) ?? addTime(right, left, 1) ?? raise(unsupported(op, left, right));
    case '-':
      return subtractTime(left, right) ?? raise(unsupported(op, left, right));
    case '*':
      return (
        repeat(left, right, budget) ??
        repeat(right, left, budget) ??
        scaleTimedelta(left, right) ??
        scaleTimedelta(right, left) ??
        raise(unsupported(op, left, right))
      );
    case '/':
    case '//':
      if (left instanceof Timedelta && right instanceof Timedelta) {
        if (right.micros === 0n) throw new RenderError('division by zero');
        return op === '/' ? new PyFloat(Number(left.micros) / Number(right.micros)) : normalizeInt(floorDiv(left.micros, right.micros));
      }
      if (left instanceof Timedelta && isNumeric(right) && !isFloat(right) && op === '//') {
        const divisor = toBigInt(right as boolean | number | bigint);
        if (divisor === 0n) throw new RenderError('division by zero');
        return new Timedelta(floorDiv(left.micros, divisor));
      }
      if (left instanceof Timedelta && isNumeric(right) && op === '/') {
        const divisor = floatValue(right);
        if (divisor === 0) throw new RenderError('division by zero');
        return new Timedelta(BigInt(roundHalfEven(Number(left.micros) / divisor)));
      }
      throw unsupported(op, left, right);
    case '%':
      if (typeof left === 'string') throw new PyTypeError('printf-style string formatting is not supported');
      throw unsupported(op, left, right);
    default:
      throw unsupported(op, left, right);
  }
}

function raise(error: Error): never {
  throw error;
}

function floorDiv(a: bigint, b: bigint): bigint {
  const quotient = a / b;
  return a % b !== 0n && a < 0n !== b < 0n ? quotient - 1n : quotient;
}

function numericOp(op: BinaryOperator, left: boolean | number | bigint | PyFloat, right: boolean | number | bigint | PyFloat): unknown {
  const floats = isFloat(left) || isFloat(right) || op === '/';
  if (!floats) {
    const a = toBigInt(left as boolean | number | bigint);
    const b = toBigInt(right as boolean | number | bigint);
    switch (op) {
      case '+':
        return normalizeInt(checkIntSize(a + b));
      case '-':
        return normalizeInt(checkIntSize(a - b));
      case '*':
        return normalizeInt(checkIntSize(a * b));
      case '//':
        if (b === 0n) throw new RenderError('integer division or modulo by zero');
        return normalizeInt(floorDiv(a, b));
      case '%': {
        if (b === 0n) throw new RenderError('integer division or modulo by zero');
        const rest = a % b;
        return normalizeInt(rest !== 0n && rest < 0n !== b < 0n ? rest + b : rest);
      }
      case '**': {
        if (b < 0n) return new PyFloat(Number(a) ** Number(b));
        const magnitude = a < 0n ? -a : a;
        if (magnitude > 1n && Number(b) * magnitude.toString(2).length > MAX_INT_BITS + 64) {
          throw new LimitExceededError('the template built an integer with more than 4300 digits');
        }
        return normalizeInt(checkIntSize(a ** b));
      }
    }
  }
  const a = floatValue(left);
  const b = floatValue(right);
  switch (op) {
    case '+':
      return new PyFloat(a + b);
    case '-':
      return new PyFloat(a - b);
    case '*':
      return new PyFloat(a * b);
    case '/':
      if (b === 0) throw new RenderError('division by zero');
      return new PyFloat(a / b);
    case '//':
      if (b === 0) throw new RenderError('float floor division by zero');
      return new PyFloat(Math.floor(a / b));
    case '%': {
      if (b === 0) throw new RenderError('float modulo');
      const rest = a % b;
      return new PyFloat(rest !== 0 && rest < 0 !== b < 0 ? rest + b : rest);
    }
    case '**': {
      if (a < 0 && !Number.isInteger(b)) throw new RenderError('a negative number cannot be raised to a fractional power');
      if (a === 0 && b < 0) throw new RenderError('0.0 cannot be raised to a negative power');
      const result = a ** b;
      if (!Number.isFinite(result) && Number.isFinite(a) && Number.isFinite(b)) throw new RenderError('numerical result out of range');
      return new PyFloat(result);
    }
  }
}

/** `'ab' * 3`, `[1] * 3`: checked against the size budget before anything is built. */
function repeat(sequence: unknown, count: unknown, budget: Budget): unknown {
  if (!(typeof sequence === 'string' || Array.isArray(sequence) || sequence instanceof Tuple)) return undefined;
  if (!(isInt(count) || typeof count === 'boolean')) return undefined;
  const times = Math.max(0, Number(count));
  const length = typeof sequence === 'string' ? sequence.length : Array.isArray(sequence) ? sequence.length : sequence.items.length;
  budget.checkSize(length * times);
  if (typeof sequence === 'string') return sequence.repeat(times);
  const items = Array.isArray(sequence) ? sequence : sequence.items;
  const out: unknown[] = [];
  for (let i = 0; i < times; i++) out.push(...items);
  return Array.isArray(sequence) ? out : new Tuple(out);
}

function scaleTimedelta(delta: unknown, factor: unknown): Timedelta | undefined {
  if (!(delta instanceof Timedelta) || !isNumeric(factor)) return undefined;
  if (!isFloat(factor)) return new Timedelta(delta.micros * toBigInt(factor as boolean | number | bigint));
  return new Timedelta(BigInt(roundHalfEven(Number(delta.micros) * floatValue(factor))));
}

/** date/datetime plus a timedelta or an isodate Duration; timedelta plus timedelta. */
function addTime(left: unknown, right: unknown, sign: 1 | -1): unknown {
  if (right instanceof Timedelta) {
    const delta = sign === 1 ? right : new Timedelta(-right.micros);
    if (left instanceof PyDateTime) return left.plus(delta);
    if (left instanceof PyDate) return new PyDate(left.days + delta.parts.days);
    if (left instanceof Timedelta) return new Timedelta(left.micros + delta.micros);
    if (left instanceof IsoDuration) return new IsoDuration(left.years, left.months, new Timedelta(left.tdelta.micros + delta.micros));
  }
  if (right instanceof IsoDuration) {
    const duration = sign === 1 ? right : right.negate();
    if (left instanceof PyDateTime) return addMonths(left, duration.years, duration.months).plus(duration.tdelta);
    if (left instanceof PyDate) return new PyDate(addMonths(left, duration.years, duration.months).days + duration.tdelta.parts.days);
    if (left instanceof Timedelta) return new IsoDuration(duration.years, duration.months, new Timedelta(left.micros + duration.tdelta.micros));
  }
  return undefined;
}

function subtractTime(left: unknown, right: unknown): unknown {
  if (left instanceof PyDateTime && right instanceof PyDateTime) {
    if (left.aware !== right.aware) throw new PyTypeError("can't subtract offset-naive and offset-aware datetimes");
    return new Timedelta(left.epochMicros - right.epochMicros);
  }
  if (left instanceof PyDate && right instanceof PyDate) return Timedelta.of({ days: left.days - right.days });
  if (left instanceof IsoDuration && right instanceof Timedelta)
    return new IsoDuration(left.years, left.months, new Timedelta(left.tdelta.micros - right.micros));
  return addTime(left, right, -1);
}

/** Unary `-` and `+`. */
export function unaryOp(op: '-' | '+', value: unknown): unknown {
  if (value instanceof Undefined) throw new UndefinedError(`cannot use an undefined value with unary '${op}'`);
  if (isNumeric(value)) {
    if (isFloat(value)) return new PyFloat(op === '-' ? -floatValue(value) : floatValue(value));
    const number = toBigInt(value as boolean | number | bigint);
    return normalizeInt(op === '-' ? -number : number);
  }
  if (value instanceof Timedelta) return op === '-' ? new Timedelta(-value.micros) : value;
  if (value instanceof IsoDuration) return op === '-' ? value.negate() : value;
  throw new PyTypeError(`bad operand type for unary ${op}: '${typeName(value)}'`);
}
