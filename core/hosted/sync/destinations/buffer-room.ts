/**
 * `buffer` when `room` more bytes fit after the `used` ones, else a larger one from `allocate` (twice
 * the size, or more if the room needs it) holding those bytes: how the reused batch buffers grow.
 */
export function withRoom(buffer: Buffer, used: number, room: number, allocate: (bytes: number) => Buffer): Buffer {
  if (used + room <= buffer.length) return buffer;
  const larger = allocate(Math.max(used + room, buffer.length * 2));
  buffer.copy(larger, 0, 0, used);
  return larger;
}

/** The most bytes of UTF-8 a string of `length` UTF-16 units can take. */
export function maxUtf8Bytes(length: number): number {
  return length * 3;
}
