import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** Starts a sandbox's HTTP server (port 0: any free port) and resolves with its origin, e.g. `http://127.0.0.1:4010`. */
export async function listen(server: Server, port = 0, host = '127.0.0.1'): Promise<string> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port: actual } = server.address() as AddressInfo;
  return `http://${host.includes(':') ? `[${host}]` : host}:${actual}`;
}
