import { createServer } from 'node:http';
import { listen } from '../sandbox-kit.ts';

/** A stand-in upstream that answers every request with one error code, as the connector's errors declare codes. */
export interface ErrorUpstream {
  url: string;
  /** The code the next requests are answered with. */
  answerWith(code: string): void;
  close(): Promise<void>;
}

/**
 * Starts it. The code sits in a 400 body at the connector's `codePath` (`error`, `error.errors.0.reason`):
 * a code keeps its declared meaning whatever status carries it, so one status serves every code.
 */
export async function startErrorUpstream(codePath: string): Promise<ErrorUpstream> {
  let code = 'unknown';
  const server = createServer((_req, res) => {
    res.writeHead(400, { 'content-type': 'application/json' }).end(JSON.stringify(bodyWithCode(codePath, code)));
  });
  const url = await listen(server);
  return {
    url,
    answerWith: (next) => {
      code = next;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** `{error: {errors: [{reason: code}]}}` for `error.errors.0.reason`: a numeric segment is an array index. */
function bodyWithCode(codePath: string, code: string): unknown {
  const segments = codePath === '' ? [] : codePath.split('.');
  let value: unknown = code;
  for (let i = segments.length - 1; i >= 0; i--) {
    const segment = segments[i]!;
    if (/^\d+$/.test(segment)) {
      const list: unknown[] = [];
      list[Number(segment)] = value;
      value = list;
    } else {
      value = { [segment]: value };
    }
  }
  return value;
}
