/**
 * chat.postMessage and chat.update answer `{ok, channel, ts, message}`, and chat.update's `message`
 * carries no `ts`: the edited message's ts is the top-level one. The record is `message`, so it takes
 * that `ts` when it lacks its own.
 */
export function withEnvelopeTs(body: unknown): unknown {
  if (!isRecord(body) || !isRecord(body.message) || body.message.ts !== undefined) return body;
  return { ...body, message: { ...body.message, ts: body.ts } };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
