/**
 * Starts a connector's sandbox (the local emulator of its third-party API), and its OAuth endpoints.
 *
 *   npm run sandbox -- chat --port 4010 --token T [--seed 1] [--set users=5000 --set channels=50]
 *   npm run sandbox -- file-storage --token T --set oauthClient=my-id:my-secret --set tokenTtlSeconds=60
 */
import { existsSync, readdirSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Command, InvalidArgumentError } from 'commander';
import { baseUrlVariable } from '../server/base-url-settings.ts';

interface RunningSandbox {
  url: string;
  /** The OAuth authorization and token endpoints, for a sandbox whose provider issues tokens. */
  authorizeUrl?: string;
  tokenUrl?: string;
  close(): Promise<void>;
}

type Settings = Record<string, number | string>;

const connectorsDir = fileURLToPath(new URL('../connectors/', import.meta.url));
const available = readdirSync(connectorsDir).filter((dir) => existsSync(`${connectorsDir}${dir}/sandbox/index.ts`));

const program = new Command()
  .name('npm run sandbox --')
  .argument('<connector>', `connector type: ${available.join(', ')}`)
  .requiredOption('--token <token>', 'the static bearer token the sandbox always accepts (OAuth-issued tokens come on top)')
  .option('--port <port>', 'port to listen on (0 = any free port)', toInteger, 0)
  .option('--host <host>', 'address to listen on', '127.0.0.1')
  .option('--seed <seed>', 'seed of the generated data', toInteger, 1)
  .option(
    '--set <key=value>',
    'sandbox setting, repeatable: sizes (users=5000), tokenTtlSeconds=60, oauthClient=<id>:<secret> (only that client is accepted)',
    collectSetting,
    {},
  )
  .action(async (type: string, options: { token: string; port: number; host: string; seed: number; set: Settings }) => {
    if (!available.includes(type)) program.error(`unknown connector "${type}"; sandboxes exist for: ${available.join(', ')}`);
    const module = (await import(pathToFileURL(`${connectorsDir}${type}/sandbox/index.ts`).href)) as {
      startSandbox(options: Record<string, unknown>): Promise<RunningSandbox>;
    };
    const sandbox = await module
      .startSandbox({
        token: options.token,
        port: options.port,
        host: options.host,
        seed: options.seed,
        recordRequests: false,
        ...options.set,
      })
      .catch((error: unknown) => {
        // A port already taken is the usual first stumble: one line saying so, not a stack trace.
        if ((error as NodeJS.ErrnoException).code === 'EADDRINUSE')
          program.error(`port ${options.port} on ${options.host} is in use: choose another with --port`);
        throw error;
      });
    console.log(`${type} sandbox listening: ${sandbox.url}`);
    // The server trusts its operator's base URL; anything a tenant configures on loopback needs the egress policy opened.
    const { host } = new URL(sandbox.url);
    console.log(`A server calls it with ${baseUrlVariable(type)}=${sandbox.url}; a declarative source calling it also needs PLUGBOARD_EGRESS_ALLOW=${host}`);
    if (sandbox.authorizeUrl && sandbox.tokenUrl) {
      console.log(`and connects accounts by OAuth with:`);
      console.log(`${oauthUrlVariable(type, 'AUTHORIZE_URL')}=${sandbox.authorizeUrl}`);
      console.log(`${oauthUrlVariable(type, 'TOKEN_URL')}=${sandbox.tokenUrl}`);
    }
    const stop = () => void sandbox.close().then(() => process.exit(0));
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });

function toInteger(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) throw new InvalidArgumentError('must be a non-negative integer');
  return n;
}

/** PLUGBOARD_<TYPE>_AUTHORIZE_URL / _TOKEN_URL, named as the base URL's variable is. */
function oauthUrlVariable(type: string, setting: 'AUTHORIZE_URL' | 'TOKEN_URL'): string {
  return baseUrlVariable(type).replace(/BASE_URL$/, setting);
}

/** Digits are numbers (sizes, lifetimes); anything else stays a string (oauthClient=id:secret). */
function collectSetting(value: string, previous: Settings): Settings {
  const match = /^(\w+)=(.+)$/.exec(value);
  if (!match) throw new InvalidArgumentError('expected key=value');
  const setting = match[2]!;
  return { ...previous, [match[1]!]: /^\d+$/.test(setting) ? Number(setting) : setting };
}

// Run bare, it shows how to run it.
if (process.argv.length <= 2) program.help();
await program.parseAsync();
