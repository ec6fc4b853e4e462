/** The file name a Content-Disposition header carries (RFC 6266: `filename*` wins over `filename`). */
export function fileNameFromDisposition(header: string | undefined): string | null {
  if (!header) return null;
  const encoded = /filename\*=UTF-8''([^;]+)/i.exec(header);
  if (encoded) return decodeURIComponent(encoded[1]!);
  const plain = /filename="?([^";]+)"?/i.exec(header);
  return plain ? plain[1]! : null;
}
