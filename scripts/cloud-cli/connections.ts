import { Command } from 'commander';
import { type ApiConnection, type ApiConnectionSchedule, type CloudConnection, isNamedForDeletion } from '../../core/cloud-client/index.ts';
import { CliError, confirmDeletion, formatTime, isJson, list, printFields, printJson, printTable, println, workspaceOf } from './common.ts';

export function formatSchedule(schedule: ApiConnectionSchedule | undefined): string {
  if (!schedule) return '';
  if (schedule.scheduleType === 'cron') return `cron ${schedule.cronExpression ?? ''}`.trim();
  if (schedule.scheduleType === 'basic') return `every ${schedule.basicTiming ?? '?'}`;
  return schedule.scheduleType;
}

const streamsOf = (info: ApiConnection) => (info.configurations.streams ?? []).map((stream) => stream.name);

/** A change to a connection: applied, then the connection shown (JSON) or `done` said. */
function change(
  group: Command,
  name: string,
  description: string,
  args: string[],
  apply: (connection: CloudConnection, values: string[]) => Promise<unknown>,
  done: (info: ApiConnection) => string,
): void {
  const command = group.command(name).description(description).argument('<connection>', "the connection's id");
  for (const arg of args) command.argument(arg);
  command.action(async (...params: unknown[]) => {
    const self = params.at(-1) as Command;
    const [connectionId, ...values] = params.slice(0, 1 + args.length) as string[];
    const connection = workspaceOf(self).getConnection(connectionId!);
    await apply(connection, values);
    const info = await connection.info();
    if (isJson(self)) return printJson(info);
    println(done(info));
  });
}

/** `cloud connections ...` */
export function connectionsCommand(): Command {
  const group = new Command('connections').description("The workspace's connections: list, show, create, change, delete");

  group
    .command('list')
    .description("List the workspace's connections")
    .option('--name <name>', 'only those with exactly this name')
    .action(async (options: { name?: string }, command: Command) => {
      const connections = await workspaceOf(command).listConnections(options.name === undefined ? {} : { name: options.name });
      const infos = await Promise.all(connections.map((connection) => connection.info()));
      if (isJson(command)) return printJson(infos);
      printTable(
        ['ID', 'NAME', 'STATUS', 'SCHEDULE', 'STREAMS', 'SOURCE', 'DESTINATION'],
        infos.map((info) => [
          info.connectionId,
          info.name,
          info.status,
          formatSchedule(info.schedule),
          streamsOf(info).join(','),
          info.sourceId,
          info.destinationId,
        ]),
        'No connections.',
      );
    });

  group
    .command('get')
    .description('Show a connection')
    .argument('<connection>', "the connection's id")
    .action(async (connectionId: string, _options: unknown, command: Command) => {
      const connection = workspaceOf(command).getConnection(connectionId);
      const info = await connection.info();
      if (isJson(command)) return printJson(info);
      printFields([
        ['connection', info.connectionId],
        ['name', info.name],
        ['status', info.status],
        ['schedule', formatSchedule(info.schedule)],
        ['source', info.sourceId],
        ['destination', info.destinationId],
        ['streams', streamsOf(info).join(', ')],
        ['table prefix', info.prefix ?? ''],
        ['created', formatTime(info.createdAt)],
        ['URL', connection.connectionUrl],
      ]);
    });

  group
    .command('create')
    .description('Create a connection from a source to a destination')
    .requiredOption('--name <name>', "the connection's name")
    .requiredOption('--source <id>', "the source's id")
    .requiredOption('--destination <id>', "the destination's id")
    .requiredOption('--streams <names>', 'the streams to sync, comma-separated, each in its default mode')
    .option('--prefix <prefix>', "prepended to every table's name")
    .action(async (options: { name: string; source: string; destination: string; streams: string; prefix?: string }, command: Command) => {
      if (options.name.trim() === '') throw new CliError('--name must not be empty');
      const selectedStreams = list(options.streams);
      if (selectedStreams.length === 0) throw new CliError('--streams must name at least one stream');
      const connection = await workspaceOf(command).deployConnection(options.name, {
        source: options.source,
        destination: options.destination,
        selectedStreams,
        ...(options.prefix === undefined ? {} : { tablePrefix: options.prefix }),
      });
      const info = await connection.info();
      if (isJson(command)) return printJson(info);
      println(`Created connection ${info.connectionId} (${JSON.stringify(info.name)}: ${streamsOf(info).join(', ')}).`);
    });

  change(
    group,
    'rename',
    'Rename a connection',
    ['<name>'],
    async (connection, [name]) => {
      if (!name?.trim()) throw new CliError('the new name must not be empty');
      await connection.rename(name);
    },
    (info) => `Renamed connection ${info.connectionId} to ${JSON.stringify(info.name)}.`,
  );

  group
    .command('streams')
    .description('Show the streams a connection syncs, or replace them (streams left out stop syncing)')
    .argument('<connection>', "the connection's id")
    .argument('[streams]', 'the streams to sync from now on, comma-separated')
    .action(async (connectionId: string, streams: string | undefined, _options: unknown, command: Command) => {
      const connection = workspaceOf(command).getConnection(connectionId);
      if (streams !== undefined) {
        const names = list(streams);
        if (names.length === 0) throw new CliError('name at least one stream');
        await connection.setSelectedStreams(names);
      }
      const names = await connection.streamNames();
      if (isJson(command)) return printJson(names);
      for (const name of names) println(name);
    });

  change(
    group,
    'prefix',
    "Set the prefix of the connection's table names ('' for none)",
    ['<prefix>'],
    (connection, [prefix]) => connection.setTablePrefix(prefix ?? ''),
    (info) => `Connection ${info.connectionId} now writes tables prefixed ${JSON.stringify(info.prefix ?? '')}.`,
  );
  change(
    group,
    'schedule',
    'Sync on a cron schedule (Quartz, seconds first, or 5 fields)',
    ['<cron>'],
    (connection, [cron]) => connection.setSchedule(cron!),
    (info) => `Connection ${info.connectionId} now syncs on ${formatSchedule(info.schedule)}.`,
  );
  change(
    group,
    'manual',
    'No automatic syncs: sync only when asked (`cloud sync`)',
    [],
    (connection) => connection.setManualSchedule(),
    (info) => `Connection ${info.connectionId} now syncs only when asked.`,
  );
  change(
    group,
    'enable',
    'Make a connection active',
    [],
    (connection) => connection.setEnabled(true),
    (info) => `Connection ${info.connectionId} is ${info.status}.`,
  );
  change(
    group,
    'disable',
    'Make a connection inactive: no scheduled syncs',
    [],
    (connection) => connection.setEnabled(false),
    (info) => `Connection ${info.connectionId} is ${info.status}.`,
  );

  group
    .command('delete')
    .description('Permanently delete a connection and, if asked, its source and destination. Safe mode: only names containing "delete-me" or "deleteme"')
    .argument('<connection>', "the connection's id")
    .option('--cascade-source', "delete the connection's source too")
    .option('--cascade-destination', "delete the connection's destination too")
    .option('--yes', 'do not ask for confirmation (needed without a terminal)')
    .option('--unsafe', 'turn safe mode off: delete whatever the names')
    .action(
      async (connectionId: string, options: { cascadeSource?: boolean; cascadeDestination?: boolean; yes?: boolean; unsafe?: boolean }, command: Command) => {
        const workspace = workspaceOf(command);
        const connection = workspace.getConnection(connectionId);
        const info = await connection.info();
        const targets: Array<{ kind: string; id: string; name: string }> = [{ kind: 'connection', id: info.connectionId, name: info.name }];
        if (options.cascadeSource) targets.push({ kind: 'source', id: info.sourceId, name: await workspace.getSource(info.sourceId).name() });
        if (options.cascadeDestination) {
          targets.push({ kind: 'destination', id: info.destinationId, name: await workspace.getDestination(info.destinationId).name() });
        }
        // What safe mode refuses is refused before anything is asked.
        if (options.unsafe || targets.every((target) => isNamedForDeletion(target.name))) {
          await confirmDeletion(targets.map((target) => `${target.kind} ${target.id} (${JSON.stringify(target.name)})`).join(', '), options.yes);
        }
        await connection.permanentlyDelete({
          cascadeDeleteSource: options.cascadeSource === true,
          cascadeDeleteDestination: options.cascadeDestination === true,
          safeMode: !options.unsafe,
        });
        if (isJson(command)) return printJson({ deleted: targets.map(({ kind, id }) => ({ type: kind, id })) });
        for (const target of targets) println(`Deleted ${target.kind} ${target.id}.`);
      },
    );

  return group;
}
