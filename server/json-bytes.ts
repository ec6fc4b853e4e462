/**
 * A value as the UTF-8 bytes of its JSON text, for response bodies. API payloads are nearly always
 * pure ASCII, and the Latin-1 bytes of an ASCII string are its UTF-8 bytes: copying them costs a
 * fraction of UTF-8 encoding (a large execute page spends more time encoding than writing).
 * `byteLength === length` holds exactly when every character is below U+0080.
 */
export function jsonBytes(value: unknown): Buffer {
  const text = JSON.stringify(value);
  return Buffer.byteLength(text) === text.length ? Buffer.from(text, 'latin1') : Buffer.from(text);
}
