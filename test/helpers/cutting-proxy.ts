import { createServer, request, type IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import { listen } from '../../testing/index.ts';

/**
 * How to cut one answer: after `afterBytes` body bytes the connection ends cleanly (a FIN, no reset).
 * `chunked` drops Content-Length, as a server streaming a body of unknown size does: only the
 * missing last chunk tells the body is short. `close-delimited` drops it too and ends the body with
 * the connection: only a Content-Range can tell.
 */
export interface Cut {
  /** Cuts the next 2xx answer to a request whose path starts with this. */
  pathPrefix: string;
  afterBytes: number;
  framing: 'chunked' | 'close-delimited';
}

export interface CuttingProxy {
  url: string;
  cutNext(cut: Cut): void;
  close(): Promise<void>;
}

/** A proxy in front of `target` that passes everything through, except the answers it was told to cut. */
export async function startCuttingProxy(target: string): Promise<CuttingProxy> {
  const pending: Cut[] = [];
  const server = createServer((req, res) => {
    const forward = request(new URL(req.url!, target), { method: req.method, headers: req.headers }, (answer) => {
      const index = pending.findIndex((cut) => req.url!.startsWith(cut.pathPrefix));
      if (index >= 0 && answer.statusCode! < 300) return sendCut(req.socket, answer, pending.splice(index, 1)[0]!);
      res.writeHead(answer.statusCode!, answer.headers);
      answer.pipe(res);
    });
    forward.on('error', () => res.destroy());
    req.pipe(forward);
  });
  const url = await listen(server);
  return {
    url,
    cutNext: (cut) => pending.push(cut),
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** Writes the answer's head and first bytes straight to the socket, framed as `cut` says, then ends the connection. */
function sendCut(socket: Socket, answer: IncomingMessage, cut: Cut): void {
  const { 'content-length': _length, 'transfer-encoding': _encoding, connection: _connection, 'keep-alive': _keepAlive, ...kept } = answer.headers;
  const headers = { ...kept, ...(cut.framing === 'chunked' ? { 'transfer-encoding': 'chunked' } : { connection: 'close' }) };
  const head = Object.entries(headers).map(([name, value]) => `${name}: ${String(value)}\r\n`);
  socket.write(`HTTP/1.1 ${answer.statusCode} ${answer.statusMessage}\r\n${head.join('')}\r\n`);
  let left = cut.afterBytes;
  const stop = () => {
    answer.destroy();
    socket.end();
  };
  if (left === 0) return stop();
  answer.on('data', (chunk: Buffer) => {
    const part = chunk.subarray(0, left);
    left -= part.length;
    socket.write(cut.framing === 'chunked' ? Buffer.concat([Buffer.from(`${part.length.toString(16)}\r\n`), part, Buffer.from('\r\n')]) : part);
    if (left === 0) stop();
  });
  answer.once('end', stop); // an answer shorter than the cut is cut all the same
}
