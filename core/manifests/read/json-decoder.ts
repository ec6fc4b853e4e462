/**
 * The CDK's JsonDecoder: a body that is not JSON (or is empty) decodes to one empty dict, a JSON list
 * to its items (an empty list to one empty dict), anything else to itself. Extractors read every decoded
 * body; a pagination strategy reads the first one as `response`.
 */

export function decodeBodies(body: Buffer): unknown[] {
  const parsed = decodeJsonOrEmpty(body);
  if (!Array.isArray(parsed)) return [parsed];
  return parsed.length === 0 ? [{}] : parsed;
}

/** The body as JSON, or `{}` when it is none (the CDK's `_safe_response_json`). */
export function decodeJsonOrEmpty(body: Buffer): unknown {
  if (body.length === 0) return {};
  try {
    return JSON.parse(body.toString('utf8'));
  } catch {
    return {};
  }
}
