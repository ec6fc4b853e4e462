/** How deep a JSON body may nest arrays and objects (docs/hosted-api.md); deeper is a 400 before it is parsed. */
export const MAX_JSON_DEPTH = 64;

const OPEN_OBJECT = 0x7b; // {
const OPEN_ARRAY = 0x5b; // [
const CLOSE_OBJECT = 0x7d; // }
const CLOSE_ARRAY = 0x5d; // ]
const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/**
 * Whether JSON text nests arrays and objects deeper than `max`: one pass over the text, counting
 * brackets outside strings, before anything builds objects (or recursive walks over them overflow
 * the stack). Malformed text is left to the parser.
 */
export function nestsDeeperThan(text: string, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i += 1) {
    const code = text.charCodeAt(i);
    if (inString) {
      if (code === BACKSLASH) i += 1;
      else if (code === QUOTE) inString = false;
    } else if (code === QUOTE) inString = true;
    else if (code === OPEN_OBJECT || code === OPEN_ARRAY) {
      if (++depth > max) return true;
    } else if (code === CLOSE_OBJECT || code === CLOSE_ARRAY) depth -= 1;
  }
  return false;
}
