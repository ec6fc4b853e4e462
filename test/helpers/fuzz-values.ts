import type { SeededRandom } from '../../testing/seeded-random.ts';
import type { Json } from './schema-sample.ts';

/**
 * Values a careless server trips on, by kind, so that every run tries every kind. Strings are the
 * characters themselves (JSON text escapes a lone surrogate as `\ud800`).
 */
export const HOSTILE_STRINGS: Readonly<Record<string, readonly string[]>> = {
  dots: ['.', '..', '../../etc/passwd', '%2e%2e'],
  nul: ['\u0000', 'a\u0000b'],
  'lone surrogate': ['\ud800', 'a\udc00b', '\udbff'],
  unicode: ['\ud83d\ude00', 'é ß 中文 \u202e RTL \u200b'],
  'blank or control': ['', ' ', '\r\n\t', '\u0001'],
  // biome-ignore lint/suspicious/noTemplateCurlyInString: a log-injection probe, sent as text.
  syntax: ['\\', '/', '?#&=', '__proto__', 'constructor', '${jndi:ldap://x}', "' OR 1=1 --", '<script>alert(1)</script>'],
  'number-like': ['NaN', '-0', '1e309', 'null', '9007199254740993'],
  long: ['x'.repeat(300), 'y'.repeat(20_000)],
};

/** Path parameter values as wire text, by kind: encoded dots, NUL, invalid UTF-8 (a lone surrogate's bytes), bad escapes, very long. */
export const HOSTILE_SEGMENTS: Readonly<Record<string, readonly string[]>> = {
  dots: ['.', '..', '%2e', '%2e%2e', '%2E%2E%2F%2E%2E', '..%2F..%2Fhealthz'],
  nul: ['%00', 'a%00b'],
  'invalid UTF-8': ['%ED%A0%80', '%ED%B0%80x', '%C3', '%FF%FE'],
  'bad escape': ['%', '%zz', '%E0%A4%A'],
  separators: ['%2F', '%5C', '%20', '~', ';x=1'],
  unicode: ['%F0%9F%98%80', '%C3%A9'],
  'unknown or long id': ['00000000-0000-4000-8000-000000000000', 'a'.repeat(5_000)],
};

/** Replacements of the wrong JSON type for any value. */
export const WRONG_TYPES: readonly Json[] = [0, -1, 1.5, 1e308, true, false, null, [], {}, '', 'text', [1, 'two'], { nested: { deeper: [] } }];

/** Keys an object body should not grow: prototype names, NUL, a lone surrogate, a long one. */
export const HOSTILE_KEYS: readonly string[] = ['__proto__', 'constructor', 'prototype', '\u0000', '\ud800', 'k'.repeat(1_000), 'extra'];

/** A string's UTF-8 percent-encoding that, unlike encodeURIComponent, also writes a lone surrogate (as its three WTF-8 bytes). */
function percentEncode(text: string): string {
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    const pairs = unit >= 0xd800 && unit <= 0xdbff && i + 1 < text.length && text.charCodeAt(i + 1) >= 0xdc00 && text.charCodeAt(i + 1) <= 0xdfff;
    if (pairs) {
      out += encodeURIComponent(text.slice(i, i + 2));
      i++;
    } else if (unit >= 0xd800 && unit <= 0xdfff) {
      out += [0xe0 | (unit >> 12), 0x80 | ((unit >> 6) & 0x3f), 0x80 | (unit & 0x3f)].map((byte) => `%${byte.toString(16).toUpperCase()}`).join('');
    } else {
      out += encodeURIComponent(text[i]!);
    }
  }
  return out;
}

/**
 * Wire text for a path segment or query value, cut to a length that keeps the request head under
 * Node's 16 KB limit: past it Node answers a bodiless 431 itself, before any of the server's code runs.
 */
const MAX_URL_VALUE = 4_000;

/** A hostile string percent-encoded for a URL, within MAX_URL_VALUE. */
export function urlValue(text: string): string {
  return percentEncode(text.slice(0, MAX_URL_VALUE / 9)) || '%20';
}

/** A hostile path segment or query value of any kind. */
export function hostileSegment(random: SeededRandom): string {
  return random.chance(0.6) ? random.pick(random.pick(Object.values(HOSTILE_SEGMENTS))) : urlValue(random.pick(random.pick(Object.values(HOSTILE_STRINGS))));
}

/** JSON text nested `depth` levels deep, as arrays or objects. */
export function deeplyNested(depth: number, random: SeededRandom): string {
  return random.chance(0.5) ? `${'['.repeat(depth)}${']'.repeat(depth)}` : `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
}
