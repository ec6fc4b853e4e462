import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CloudWorkspace, JobStatus, SecretRequiredError } from '../core/cloud-client/index.ts';
import { CHAT_TOKEN } from './helpers/chat-fixture.ts';
import { bearer, startHostedFixture, type HostedFixture } from './helpers/hosted-fixture.ts';
import { publicAccessToken } from './helpers/public-api-calls.ts';

/**
 * `npx plugboard cloud ...` (the package's bin, scripts/plugboard.mjs) run as a child process against
 * Plugboard's own server: the workspace, a chat source on the Slack sandbox, a SQLite destination, a
 * connection, syncs followed to their end, jobs and logs, the connection's changes, deletion in safe
 * mode, JSON output, and the errors: one line on stderr, exit 1, never a credential.
 */

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const BIN = fileURLToPath(new URL('../scripts/plugboard.mjs', import.meta.url));
const MOTHERDUCK_KEY = 'md-key-never-printed-3c9e';

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Everything every run printed, for the check that no credential ever shows. */
const printed: string[] = [];

/** The parent's environment without any Plugboard setting, then `env`. */
function childEnv(env: Record<string, string>): NodeJS.ProcessEnv {
  return { ...Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('PLUGBOARD_'))), ...env };
}

/** Starts `plugboard cloud <args>`; `onStderr` sees its stderr as it comes. */
function start(args: string[], env: Record<string, string>, onStderr?: (text: string, signal: (name: NodeJS.Signals) => void) => void) {
  const child = spawn(process.execPath, [BIN, 'cloud', ...args], { cwd: ROOT, env: childEnv(env) });
  const run: Run = { code: null, stdout: '', stderr: '' };
  child.stdout.on('data', (chunk: Buffer) => (run.stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => {
    run.stderr += chunk.toString();
    onStderr?.(run.stderr, (name) => child.kill(name));
  });
  return new Promise<Run>((resolve) =>
    child.once('close', (code) => {
      run.code = code;
      printed.push(run.stdout, run.stderr);
      resolve(run);
    }),
  );
}

/** The one line a failure prints: no stack trace. */
function expectOneLineError(run: Run, pattern: RegExp): void {
  expect(run.code, run.stdout).toBe(1);
  const lines = run.stderr.trimEnd().split('\n');
  expect(lines, run.stderr).toHaveLength(1);
  expect(lines[0]).toMatch(/^plugboard cloud: /);
  expect(lines[0]).toMatch(pattern);
  expect(run.stderr).not.toMatch(/\n\s+at /);
}

// Every test starts CLI processes (tsx compiling on start): generous timeouts for a loaded machine.
describe('plugboard cloud (the CLI) against the server', { timeout: 60_000 }, () => {
  let fx: HostedFixture;
  let env: Record<string, string>;
  let workspaceId: string;
  let workspace: CloudWorkspace;
  let bearerToken: string;
  let dir: string;
  const ids = { source: '', destination: '', spare: '', connection: '' };
  /** The sync jobs run, oldest first. */
  const jobs: number[] = [];
  const cli = (...args: string[]) => start(args, env);
  const json = async (...args: string[]) => {
    const run = await start([...args, '--json'], env);
    expect(run.code, run.stderr).toBe(0);
    return JSON.parse(run.stdout);
  };

  beforeAll(async () => {
    fx = await startHostedFixture('sqlite');
    bearerToken = await publicAccessToken(fx);
    const created = await fx.http.post('v1/workspaces', { headers: bearer(bearerToken), json: { name: 'cli-ws' } }).json<{ workspaceId: string }>();
    workspaceId = created.workspaceId;
    env = {
      PLUGBOARD_CLOUD_CLIENT_ID: fx.clientId,
      PLUGBOARD_CLOUD_CLIENT_SECRET: fx.clientSecret,
      PLUGBOARD_CLOUD_API_URL: `${fx.server.url}/v1`,
      PLUGBOARD_CLOUD_WORKSPACE_ID: workspaceId,
    };
    workspace = new CloudWorkspace({ workspaceId, clientId: fx.clientId, clientSecret: fx.clientSecret, apiRoot: `${fx.server.url}/v1` });
    dir = mkdtempSync(join(tmpdir(), 'plugboard-cli-'));
  }, 60_000);
  afterAll(async () => {
    await fx?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('shows its help, and refuses without credentials or with wrong ones in one line', async () => {
    const [help, noWorkspace, noCredentials, halfCredentials, wrongSecret] = await Promise.all([
      start(['--help'], {}),
      start(['workspace'], {}),
      start(['workspace', '--workspace', 'some-id'], {}),
      start(['sources', 'list'], { PLUGBOARD_CLOUD_CLIENT_ID: 'an-id', PLUGBOARD_CLOUD_WORKSPACE_ID: 'some-id' }),
      start(['workspace'], { ...env, PLUGBOARD_CLOUD_CLIENT_SECRET: 'not-the-secret-4711' }),
    ]);
    expect(help.code).toBe(0);
    for (const command of ['workspace', 'sources', 'destinations', 'connections', 'sync', 'jobs', 'logs', 'PLUGBOARD_CLOUD_BEARER_TOKEN']) {
      expect(help.stdout).toContain(command);
    }
    expectOneLineError(noWorkspace, /PLUGBOARD_CLOUD_WORKSPACE_ID/);
    expectOneLineError(noCredentials, /PLUGBOARD_CLOUD_BEARER_TOKEN.*PLUGBOARD_CLOUD_CLIENT_ID/);
    expectOneLineError(halfCredentials, /PLUGBOARD_CLOUD_CLIENT_SECRET/);
    expectOneLineError(wrongSecret, /401/);
    expect(wrongSecret.stderr).not.toContain('not-the-secret-4711');
  });

  it('shows the workspace, with client credentials, or a bearer token and --api-url', async () => {
    const [human, withBearer] = await Promise.all([
      cli('workspace'),
      start(['workspace', '--api-url', `${fx.server.url}/api/public/v1`, '--workspace', workspaceId, '--json'], { PLUGBOARD_CLOUD_BEARER_TOKEN: bearerToken }),
    ]);
    expect(human.code, human.stderr).toBe(0);
    expect(human.stdout).toContain(workspaceId);
    expect(human.stdout).toContain('cli-ws');
    expect(human.stdout).toContain(`${fx.server.url}/v1/workspaces/${workspaceId}`);
    expect(human.stdout).toMatch(/organization:\s+\S+ \(/);
    expect(withBearer.code, withBearer.stderr).toBe(0);
    expect(JSON.parse(withBearer.stdout)).toMatchObject({
      workspaceId,
      name: 'cli-ws',
      apiRoot: `${fx.server.url}/api/public/v1`,
      organization: { organizationId: expect.any(String) },
    });
  });

  it('creates a workspace with nothing but the credentials, and lists the workspaces', async () => {
    const credentialsOnly = { ...env, PLUGBOARD_CLOUD_WORKSPACE_ID: '' };
    const created = await start(['workspaces', 'create', 'cli-made', '--json'], credentialsOnly);
    expect(created.code, created.stderr).toBe(0);
    const { workspaceId: madeId, name } = JSON.parse(created.stdout);
    expect(name).toBe('cli-made');
    const listed = await start(['workspaces', 'list'], credentialsOnly);
    expect(listed.stdout).toContain(madeId);
    expect(listed.stdout).toContain('cli-ws');
    expectOneLineError(await start(['workspaces', 'create', 'cli-made'], credentialsOnly), /409/);
  });

  it('deploys a chat source, a SQLite destination and a connection', async () => {
    const config = join(dir, 'slack.json');
    writeFileSync(
      config,
      JSON.stringify({
        sourceType: 'slack',
        credentials: { option_title: 'API Token Credentials', api_token: CHAT_TOKEN },
        start_date: '2000-01-01T00:00:00Z',
        lookback_window: 0,
        join_channels: false,
      }),
    );
    const [source, destination, spare, badJson] = await Promise.all([
      json('sources', 'deploy', '--name', 'team chat', '--config', `@${config}`),
      json('destinations', 'deploy', '--name', 'lake deleteme', '--config', '{"destinationType":"sqlite"}'),
      json('destinations', 'deploy', '--name', 'spare delete-me', '--config', '{"destinationType":"sqlite"}'),
      cli('destinations', 'deploy', '--name', 'x', '--config', '{"destinationType": "sqlite", "password": "hunter2-secret'),
    ]);
    expect(source).toMatchObject({ name: 'team chat', sourceType: 'slack' });
    expect(destination).toMatchObject({ name: 'lake deleteme', destinationType: 'sqlite' });
    expectOneLineError(badJson, /--config is not valid JSON/);
    expect(badJson.stderr).not.toContain('hunter2');
    ids.source = source.sourceId;
    ids.destination = destination.destinationId;
    ids.spare = spare.destinationId;

    const [duplicate, listed, shown, connection] = await Promise.all([
      cli('sources', 'deploy', '--name', 'team chat', '--config', `@${config}`),
      cli('sources', 'list'),
      json('sources', 'get', ids.source),
      json(
        'connections',
        'create',
        '--name',
        'chat to lake delete-me',
        '--source',
        ids.source,
        '--destination',
        ids.destination,
        '--streams',
        'users, channels,channel_messages',
        '--prefix',
        'chat_',
      ),
    ]);
    expectOneLineError(duplicate, /a source named "team chat" already exists/);
    expect(listed.stdout).toMatch(new RegExp(`^ID\\s+NAME\\s+TYPE\\s+CREATED\\n${ids.source}\\s+team chat\\s+slack`));
    expect(shown).toMatchObject({ sourceId: ids.source, configuration: { sourceType: 'slack', start_date: '2000-01-01T00:00:00Z' } });
    expect(connection).toMatchObject({ name: 'chat to lake delete-me', sourceId: ids.source, destinationId: ids.destination, prefix: 'chat_' });
    ids.connection = connection.connectionId;
    const list = await cli('connections', 'list');
    expect(list.stdout).toMatch(new RegExp(`${ids.connection}\\s+chat to lake delete-me\\s+active\\s+\\S+\\s+users,channels,channel_messages`));
  });

  it('syncs, showing the progress until the job succeeds', async () => {
    const run = await cli('sync', ids.connection, '--wait', '--poll-interval', '0.1');
    expect(run.code, run.stderr).toBe(0);
    const jobId = Number(/^Started sync job (\d+) of connection /.exec(run.stderr)![1]);
    const progress = run.stderr.trimEnd().split('\n').slice(1);
    expect(progress.length).toBeGreaterThan(0);
    for (const line of progress) expect(line).toMatch(new RegExp(`^job ${jobId} (pending|running|succeeded): [\\d,]+ records, [\\d.]+ k?B  \\(\\d+ s\\)$`));
    expect(progress.at(-1)).toMatch(/ succeeded: /);
    expect(run.stdout).toMatch(new RegExp(`^Sync job ${jobId} succeeded: [\\d,]+ records, [\\d.]+ kB in \\d+ s\\.\\n$`));
    const { users, channels } = fx.chatSandbox.data;
    expect(Number(/([\d,]+) records/.exec(run.stdout)![1]!.replaceAll(',', ''))).toBeGreaterThan(users.length + channels.length);
    jobs.push(jobId);
  });

  it('Ctrl-C stops waiting, not the job', async () => {
    let interrupted = false;
    const run = await start(['sync', ids.connection, '--wait', '--poll-interval', '30', '--json'], env, (stderr, signal) => {
      // After the first poll the CLI waits 30 s: the interrupt comes while it waits.
      if (!interrupted && /^job \d+ /m.test(stderr)) {
        interrupted = true;
        signal('SIGINT');
      }
    });
    const jobId = Number(/Started sync job (\d+)/.exec(run.stderr)![1]);
    jobs.push(jobId);
    if (/^job \d+ succeeded/m.test(run.stderr)) {
      // The job ended before the first poll: there was nothing left to interrupt.
      expect(run.code).toBe(0);
      expect(JSON.parse(run.stdout)).toMatchObject({ jobId, status: 'succeeded' });
    } else {
      expect(run.code, run.stderr).toBe(130);
      expect(run.stdout).toBe('');
      expect(run.stderr.trimEnd().split('\n').at(-1)).toBe(
        `plugboard cloud: stopped waiting; sync job ${jobId} keeps running (plugboard cloud jobs ${ids.connection})`,
      );
    }
    const result = await workspace.getConnection(ids.connection).getSyncResult(jobId);
    expect(await result!.waitForCompletion({ pollInterval: 0.1, waitTimeout: 60 })).toBe(JobStatus.SUCCEEDED);
  });

  it('lists the jobs and shows the logs', async () => {
    const [first, second] = jobs;
    const [table, listed, logs, tail] = await Promise.all([
      cli('jobs', ids.connection),
      json('jobs', ids.connection, '--oldest-first', '--limit', '1'),
      cli('logs', ids.connection, '--job', String(first)),
      json('logs', ids.connection, '--limit', '2'),
    ]);
    expect(table.stdout).toMatch(
      new RegExp(
        `^JOB\\s+STATUS\\s+STARTED\\s+DURATION\\s+RECORDS\\s+BYTES\\n${second}\\s+succeeded\\s.*\\n${first}\\s+succeeded\\s+\\S+\\s+\\d+ s\\s+[\\d,]+\\s+[\\d.]+ kB\\n$`,
      ),
    );
    expect(listed).toMatchObject([{ jobId: first, status: 'succeeded', connectionId: ids.connection }]);
    expect(logs.code, logs.stderr).toBe(0);
    expect(logs.stdout).toMatch(new RegExp(`^== job ${first}, attempt 0: succeeded, [\\d,]+ records, [\\d.]+ kB, `));
    expect(logs.stdout).toContain('chat_channel_messages');
    expect(tail).toMatchObject({ jobId: second, status: 'succeeded', attempts: [{ attemptNumber: 0, status: 'succeeded' }] });
    expect(tail.attempts[0].logLines).toHaveLength(2);
    expect(tail.attempts[0].totalLogLines).toBeGreaterThan(2);
  });

  it('changes the schedule and the status, and renames', async () => {
    const scheduled = await json('connections', 'schedule', ids.connection, '0 0 12 * * ?');
    expect(scheduled.schedule).toMatchObject({ scheduleType: 'cron', cronExpression: '0 0 12 * * ?' });
    const manual = await cli('connections', 'manual', ids.connection);
    expect(manual.stdout).toBe(`Connection ${ids.connection} now syncs only when asked.\n`);
    expect(await json('connections', 'disable', ids.connection)).toMatchObject({ status: 'inactive', schedule: { scheduleType: 'manual' } });
    const enabled = await cli('connections', 'enable', ids.connection);
    expect(enabled.stdout).toBe(`Connection ${ids.connection} is active.\n`);
    expect(await json('connections', 'rename', ids.connection, 'renamed delete-me')).toMatchObject({ name: 'renamed delete-me', status: 'active' });
  });

  it('deletes in safe mode only what is named for deletion, with --yes, cascades included', async () => {
    const [notNamed, noYes, sourceNotNamed, spare] = await Promise.all([
      cli('connections', 'delete', ids.connection, '--cascade-source', '--cascade-destination', '--yes'),
      cli('connections', 'delete', ids.connection, '--cascade-destination'),
      cli('sources', 'delete', ids.source, '--yes'),
      cli('destinations', 'delete', ids.spare, '--yes'),
    ]);
    expectOneLineError(notNamed, /safe mode: the source .*"team chat".* pass --unsafe to delete it anyway/);
    expectOneLineError(noYes, /refusing to delete connection .* without --yes/);
    expectOneLineError(sourceNotNamed, /safe mode/);
    expect(spare.stdout).toBe(`Deleted destination ${ids.spare}.\n`);
    expect(await workspace.getConnection(ids.connection).checkIsValid()).toBe(true);

    await json('sources', 'rename', ids.source, 'team chat DeleteMe');
    const cascaded = await json('connections', 'delete', ids.connection, '--cascade-source', '--cascade-destination', '--yes');
    expect(cascaded).toEqual({
      deleted: [
        { type: 'connection', id: ids.connection },
        { type: 'source', id: ids.source },
        { type: 'destination', id: ids.destination },
      ],
    });
    const [sources, destinations, missing] = await Promise.all([
      json('sources', 'list'),
      cli('destinations', 'list'),
      cli('connections', 'get', ids.connection),
    ]);
    expect(sources).toEqual([]);
    expect(destinations.stdout).toBe('No destinations.\n');
    expectOneLineError(missing, /connection .* was not found/);
  });

  it('talks to the local server unless told another root: the client secret goes nowhere else', async () => {
    const { PLUGBOARD_CLOUD_API_URL: _root, ...withoutRoot } = env;
    const run = await start(['workspace'], withoutRoot);
    expectOneLineError(run, /http:\/\/127\.0\.0\.1:8080\/v1\//);
    expect(run.stderr).not.toMatch(/plugboard\.dev|airbyte\.com/);
    const help = await start(['--help'], {});
    expect(help.stdout).toContain('http://127.0.0.1:8080/v1');
  });

  it('a destination moved to another path needs its secret again: a SecretRequiredError, and update --secrets', async () => {
    const configuration = { destinationType: 'duckdb', destination_path: '/local/moved.duckdb', schema: 'main', motherduck_api_key: MOTHERDUCK_KEY };
    const deployed = await json('destinations', 'deploy', '--name', 'ducks', '--config', JSON.stringify(configuration));
    const id = deployed.destinationId as string;
    const moved = JSON.stringify({ destination_path: '/local/moved-again.duckdb' });

    const refused = await cli('destinations', 'update', id, '--config', moved);
    expectOneLineError(refused, /needs motherduck_api_key given again.*destination_path changed.*--secrets/);
    const library = workspace.getDestination(id).updateConfig({ destination_path: '/local/moved-again.duckdb' });
    await expect(library).rejects.toBeInstanceOf(SecretRequiredError);
    await expect(library).rejects.toMatchObject({ status: 400, fields: ['motherduck_api_key'] });

    const secrets = join(dir, 'secrets.json');
    writeFileSync(secrets, JSON.stringify({ motherduck_api_key: MOTHERDUCK_KEY }));
    const updated = await json('destinations', 'update', id, '--config', moved, '--secrets', `@${secrets}`);
    expect(updated.configuration).toMatchObject({ destination_path: '/local/moved-again.duckdb', motherduck_api_key: '**********' });
  });

  it('never prints a credential', () => {
    const all = printed.join('\n');
    expect(printed.length).toBeGreaterThan(50);
    for (const secret of [CHAT_TOKEN, fx.clientSecret, bearerToken, MOTHERDUCK_KEY]) expect(all.includes(secret)).toBe(false);
  });
});
