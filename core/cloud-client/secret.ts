import { inspect } from 'node:util';

const MASK = '****';

/**
 * A credential that never shows itself: string conversion, JSON and util.inspect all give `****`,
 * so a config or an error that holds one can be logged safely. `reveal()` is the one way to read it.
 */
export class Secret {
  readonly #value: string;

  constructor(value: string) {
    this.#value = value;
  }

  /** Wraps a string, keeps a Secret as it is. */
  static of(value: string | Secret): Secret {
    return value instanceof Secret ? value : new Secret(value);
  }

  reveal(): string {
    return this.#value;
  }

  toString(): string {
    return MASK;
  }

  toJSON(): string {
    return MASK;
  }

  [inspect.custom](): string {
    return MASK;
  }
}
