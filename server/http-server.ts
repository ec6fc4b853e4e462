import { createServer, type RequestListener, type Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { ConfigurationError } from '../core/configuration-error.ts';
import type { ServerConfig } from './config.ts';

/** How often Node looks for connections past their deadline: its default, 30 s, lets them overstay by that much. */
const CONNECTIONS_CHECK_MS = 1_000;

export type ConnectionLimits = Pick<ServerConfig, 'headersTimeoutSeconds' | 'requestTimeoutSeconds' | 'maxConnections'>;

/**
 * The HTTP server, bounded against slow clients: the headers, then the whole request, must arrive within
 * their timeouts, or the client gets a 408 and its connection is closed. Only receiving the request is
 * bounded, so a long download streams on. Connections beyond the cap are closed as they arrive.
 */
export function createHttpServer(listener: RequestListener, limits: ConnectionLimits): Server {
  const server = createServer(
    {
      headersTimeout: limits.headersTimeoutSeconds * 1000,
      requestTimeout: limits.requestTimeoutSeconds * 1000,
      connectionsCheckingInterval: CONNECTIONS_CHECK_MS,
    },
    listener,
  );
  server.maxConnections = limits.maxConnections;
  server.on('clientError', answerClientError);
  return server;
}

/** Node's parser errors (a head too large, a malformed request line, a timeout) by the status they answer. */
const CLIENT_ERRORS: Record<string, { status: number; reason: string; detail: string }> = {
  HPE_HEADER_OVERFLOW: { status: 431, reason: 'Request Header Fields Too Large', detail: 'Request headers too large' },
  ERR_HTTP_REQUEST_TIMEOUT: { status: 408, reason: 'Request Timeout', detail: 'The request was not received in time' },
};
const MALFORMED = { status: 400, reason: 'Bad Request', detail: 'Malformed HTTP request' };

/**
 * A request Node refuses before any route runs still gets a JSON error body ({detail}) (Node's own answer has
 * none), then the connection is destroyed, as Node does: after a parse error its bytes can't be
 * trusted, and a client that never closes its side must not keep a connection slot. Nothing is
 * written into a response already under way (a bad pipelined request behind a download).
 */
function answerClientError(error: NodeJS.ErrnoException, socket: Duplex): void {
  const responseStarted = (socket as Duplex & { _httpMessage?: { headersSent?: boolean } })._httpMessage?.headersSent === true;
  if (error.code === 'ECONNRESET' || !socket.writable || responseStarted) {
    socket.destroy();
    return;
  }
  const { status, reason, detail } = CLIENT_ERRORS[error.code ?? ''] ?? MALFORMED;
  const body = JSON.stringify({ detail });
  const answer = `HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`;
  socket.end(answer, () => socket.destroy());
}

const LISTEN_PROBLEMS: Record<string, string> = {
  EADDRINUSE: 'the address is in use (another process listens there: set PORT)',
  EACCES: 'permission denied (ports below 1024 need privileges: set PORT)',
  EADDRNOTAVAIL: 'no such address on this machine (set HOST)',
  ENOTFOUND: 'unknown host name (set HOST)',
  EAI_AGAIN: 'the host name could not be resolved (set HOST)',
};

/** Listens on host:port; an address this process cannot take refuses the start (ConfigurationError). */
export function listen(server: Server, port: number, host: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const refuse = (error: NodeJS.ErrnoException) => {
      const problem = LISTEN_PROBLEMS[error.code ?? ''];
      reject(problem ? new ConfigurationError(`cannot listen on ${host}:${port}: ${problem}`) : error);
    };
    server.once('error', refuse);
    server.listen(port, host, () => {
      server.off('error', refuse);
      resolve();
    });
  });
}
