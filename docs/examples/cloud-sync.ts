import { CloudWorkspace, JobStatus } from 'plugboard/cloud';

// PLUGBOARD_CLOUD_CLIENT_ID, _CLIENT_SECRET (or _BEARER_TOKEN), _WORKSPACE_ID, _API_URL, _LOCAL_ROOT; SLACK_API_TOKEN
const workspace = CloudWorkspace.fromEnv();
await workspace.connect();

// Made on the first run, found by name on the next ones.
const [foundSource] = await workspace.listSources({ name: 'team chat' });
const source =
  foundSource ??
  (await workspace.deploySource('team chat', {
    sourceType: 'slack',
    credentials: { option_title: 'API Token Credentials', api_token: process.env.SLACK_API_TOKEN ?? '' },
    start_date: '2026-01-01T00:00:00Z',
    lookback_window: 7,
    join_channels: false,
  }));
const [foundDestination] = await workspace.listDestinations({ name: 'chat tables' });
const destination = foundDestination ?? (await workspace.deployDestination('chat tables', { destinationType: 'sqlite' }));
const [foundConnection] = await workspace.listConnections({ name: 'chat to tables' });
const connection =
  foundConnection ??
  (await workspace.deployConnection('chat to tables', {
    source,
    destination,
    selectedStreams: ['users', 'channels'],
    tablePrefix: 'chat_',
  }));

const result = await connection.runSync({ wait: true, waitTimeout: 300 });
console.log(`job ${result.jobId}: ${await result.getJobStatus()}, ${await result.recordsSynced()} records`);
if ((await result.getJobStatus()) !== JobStatus.SUCCEEDED) process.exit(1);

// The synced rows, typed and streamed from the destination's table.
let admins = 0;
for await (const user of await result.getDataset<{ name: string; is_admin: boolean }>('users')) if (user.is_admin) admins++;
console.log(`${await result.getSqlTableName('users')}: ${admins} admins`);
const channels = await (await result.getSqlTable('channels')).select(['id', 'name']).orderBy('name').execute();
console.log(`channels: ${channels.map((channel) => channel.name).join(', ')}`);
await result.close();

await connection.setSchedule('0 0 * * * ?'); // hourly, Quartz syntax as in Airbyte
