import type { FuzzRequest, FuzzTarget, Operation } from './fuzz-request.ts';

/** A fuzzed request the server answered wrongly. */
export interface Failure {
  operation: Operation;
  request: FuzzRequest;
  problem: string;
  /** The server's log of an unhandled error, when it wrote one. */
  cause: string | undefined;
}

/** The error the server logged as unhandled while answering, as `Name: message at first frame`. */
export function unhandledError(lines: string[]): string | undefined {
  for (const line of lines) {
    const entry = JSON.parse(line) as { msg?: string; err?: { type?: string; message?: string; stack?: string } };
    if (entry.msg !== 'unhandled error' || !entry.err) continue;
    const frame = entry.err.stack
      ?.split('\n')
      .find((l) => l.trim().startsWith('at '))
      ?.trim();
    return `${entry.err.type}: ${entry.err.message} ${frame ?? ''}`;
  }
  return undefined;
}

/** The failures grouped by route and cause, each with the first request that showed it, written so it can be sent again. */
export function report(failures: Failure[], target: FuzzTarget, seed: number): string {
  const groups = new Map<string, Failure[]>();
  for (const failure of failures) {
    const key = `${failure.request.method} ${failure.operation.path} → ${failure.cause ?? failure.problem.slice(0, 120)}`;
    groups.set(key, [...(groups.get(key) ?? []), failure]);
  }
  const sections = [...groups].map(([key, [first, ...rest]]) => `• ${key} (${rest.length + 1}×)\n${describeFailure(first!, target)}`);
  return `${failures.length} failing request(s), FUZZ_SEED=${seed}:\n${sections.join('\n')}`;
}

function describeFailure(failure: Failure, target: FuzzTarget): string {
  const { request } = failure;
  // Tokens by name: the values are long, and a replay gets fresh ones from its own fixture. A forged one reads as what was done to it (`<scopedToken>x`).
  const names = [...Object.entries(target.tokens), ...Object.entries(target.dangling).map(([scheme, token]) => [`dangling ${scheme}`, token] as const)];
  const headers = names.reduce((text, [name, token]) => text.replaceAll(token, `<${name}>`), JSON.stringify(request.headers));
  const body = request.body?.toString() ?? '';
  const shown = body.length > 400 ? `${body.slice(0, 400)}… (${body.length} bytes)` : body;
  return [
    `  ${request.method} ${request.path.slice(0, 300)}`,
    `  mutation: ${request.mutation}`,
    `  headers: ${headers.slice(0, 400)}`,
    `  body: ${shown}`,
    `  answer: ${failure.problem}`,
  ].join('\n');
}
