/**
 * Starts a connector's sandbox (the local emulator of its third-party API).
 *
 *   npm run sandbox -- chat --port 4010 --token T [--seed 1] [--set users=5000 --set channels=50]
 */
import { existsSync, readdirSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Command, InvalidArgumentError } from 'commander';
import { baseUrlVariable } from '../server/base-url-settings.ts';

interface RunningSandbox {
  url: string;
  close(): Promise<void>;
}

const connectorsDir = fileURLToPath(new URL('../connectors/', import.meta.url));
const available = readdirSync(connectorsDir).filter((dir) => existsSync(`${connectorsDir}${dir}/sandbox/index.ts`));

const program = new Command()
  .name('npm run sandbox --')
  .argument('<connector>', `connector type: ${available.join(', ')}`)
  .requiredOption('--token <token>', 'the only bearer token the sandbox accepts')
  .option('--port <port>', 'port to listen on (0 = any free port)', toInteger, 0)
  .option('--host <host>', 'address to listen on', '127.0.0.1')
  .option('--seed <seed>', 'seed of the generated data', toInteger, 1)
  .option('--set <key=value>', 'sandbox-specific size setting, repeatable (e.g. users=5000)', collectSetting, {})
  .action(async (type: string, options: { token: string; port: number; host: string; seed: number; set: Record<string, number> }) => {
    if (!available.includes(type)) program.error(`unknown connector "${type}"; sandboxes exist for: ${available.join(', ')}`);
    const module = (await import(pathToFileURL(`${connectorsDir}${type}/sandbox/index.ts`).href)) as {
      startSandbox(options: Record<string, unknown>): Promise<RunningSandbox>;
    };
    const sandbox = await module.startSandbox({
      token: options.token,
      port: options.port,
      host: options.host,
      seed: options.seed,
      recordRequests: false,
      ...options.set,
    });
    console.log(`${type} sandbox listening: ${sandbox.url}`);
    // The server trusts its operator's base URL; anything a tenant configures on loopback needs the egress policy opened.
    const { host, port } = new URL(sandbox.url);
    console.log(
      `A server calls it with ${baseUrlVariable(type)}=${sandbox.url}; a declarative source calling it also needs PLUGBOARD_EGRESS_ALLOW=${host}:${port}`,
    );
    const stop = () => void sandbox.close().then(() => process.exit(0));
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });

function toInteger(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) throw new InvalidArgumentError('must be a non-negative integer');
  return n;
}

function collectSetting(value: string, previous: Record<string, number>): Record<string, number> {
  const match = /^(\w+)=(\d+)$/.exec(value);
  if (!match) throw new InvalidArgumentError('expected key=number');
  return { ...previous, [match[1]!]: Number(match[2]) };
}

await program.parseAsync();
