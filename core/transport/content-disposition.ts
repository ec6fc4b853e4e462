/** The file name a Content-Disposition header carries (RFC 6266: `filename*` wins over `filename`). */
export function fileNameFromDisposition(header: string | undefined): string | null {
  if (!header) return null;
  const encoded = /filename\*=UTF-8''([^;]+)/i.exec(header);
  const decoded = encoded ? decodeOrNull(encoded[1]!) : null;
  if (decoded !== null) return decoded;
  // No filename*, or one that is not percent-encoded UTF-8 (a broken upstream): the plain name, if any.
  const plain = /filename="?([^";]+)"?/i.exec(header);
  return plain ? plain[1]! : null;
}

/** An attachment's Content-Disposition: an ASCII `filename` for old clients, the exact name in `filename*` (RFC 6266). */
export function contentDisposition(name: string): string {
  const ascii = name.replace(/[^\x20-\x7e]|["\\]/g, '_');
  // A lone surrogate (an upstream's broken name) has no UTF-8 form, so encodeURIComponent would throw: U+FFFD instead.
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name.toWellFormed())}`;
}

function decodeOrNull(encoded: string): string | null {
  try {
    return decodeURIComponent(encoded);
  } catch {
    return null;
  }
}
