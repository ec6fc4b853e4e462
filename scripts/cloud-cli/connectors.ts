import { Command } from 'commander';
import {
  type ApiDestination,
  type ApiSource,
  type CloudDestination,
  type CloudSource,
  type CloudWorkspace,
  type ConnectorInput,
  isNamedForDeletion,
  type JsonObject,
} from '../../core/cloud-client/index.ts';
import {
  CliError,
  confirmDeletion,
  formatTime,
  isJson,
  mergeObjects,
  printFields,
  printJson,
  printTable,
  println,
  readJsonObject,
  workspaceOf,
} from './common.ts';

type Kind = 'source' | 'destination';
type Info = ApiSource | ApiDestination;
type Actor = CloudSource | CloudDestination;

/** What differs between sources and destinations; the commands are the same. */
interface KindOps {
  kind: Kind;
  plural: 'sources' | 'destinations';
  idOf(info: Info): string;
  typeOf(info: Info): string;
  list(workspace: CloudWorkspace, name?: string): Promise<Actor[]>;
  get(workspace: CloudWorkspace, id: string): Actor;
  deploy(workspace: CloudWorkspace, name: string, input: ConnectorInput, unique: boolean): Promise<Actor>;
  delete(workspace: CloudWorkspace, id: string, safeMode: boolean): Promise<void>;
}

const SOURCES: KindOps = {
  kind: 'source',
  plural: 'sources',
  idOf: (info) => (info as ApiSource).sourceId,
  typeOf: (info) => (info as ApiSource).sourceType,
  list: (workspace, name) => workspace.listSources(name === undefined ? {} : { name }),
  get: (workspace, id) => workspace.getSource(id),
  deploy: (workspace, name, input, unique) => workspace.deploySource(name, input, { unique }),
  delete: (workspace, id, safeMode) => workspace.permanentlyDeleteSource(id, { safeMode }),
};

const DESTINATIONS: KindOps = {
  kind: 'destination',
  plural: 'destinations',
  idOf: (info) => (info as ApiDestination).destinationId,
  typeOf: (info) => (info as ApiDestination).destinationType,
  list: (workspace, name) => workspace.listDestinations(name === undefined ? {} : { name }),
  get: (workspace, id) => workspace.getDestination(id),
  deploy: (workspace, name, input, unique) => workspace.deployDestination(name, input, { unique }),
  delete: (workspace, id, safeMode) => workspace.permanentlyDeleteDestination(id, { safeMode }),
};

export const sourcesCommand = (): Command => connectorCommand(SOURCES);
export const destinationsCommand = (): Command => connectorCommand(DESTINATIONS);

function connectorCommand(ops: KindOps): Command {
  const { kind, plural } = ops;
  const typeField = `${kind}Type`;
  const group = new Command(plural).description(`The workspace's ${plural}: list, show, deploy, check, rename, update, delete`);

  group
    .command('list')
    .description(`List the workspace's ${plural}`)
    .option('--name <name>', 'only those with exactly this name')
    .action(async (options: { name?: string }, command: Command) => {
      const actors = await ops.list(workspaceOf(command), options.name);
      const infos = await Promise.all(actors.map((actor) => actor.info()));
      if (isJson(command)) return printJson(infos);
      printTable(
        ['ID', 'NAME', 'TYPE', 'CREATED'],
        infos.map((info) => [ops.idOf(info), info.name, ops.typeOf(info), formatTime(info.createdAt)]),
        `No ${plural}.`,
      );
    });

  group
    .command('get')
    .description(`Show a ${kind} and its configuration (secrets masked by the API)`)
    .argument('<id>', `the ${kind}'s id`)
    .action(async (id: string, _options: unknown, command: Command) => {
      const actor = ops.get(workspaceOf(command), id);
      const info = await actor.info();
      if (isJson(command)) return printJson(info);
      printFields([
        [kind, ops.idOf(info)],
        ['name', info.name],
        ['type', ops.typeOf(info)],
        ...(info.definitionId ? ([['definition', info.definitionId]] as Array<[string, string]>) : []),
        ['created', formatTime(info.createdAt)],
        ['URL', actor.connectorUrl],
      ]);
      println('configuration:');
      println(JSON.stringify(info.configuration, null, 2));
    });

  group
    .command('deploy')
    .description(`Deploy a ${kind}: its configuration names its type ("${typeField}")`)
    .requiredOption('--name <name>', `the ${kind}'s name (unique in the workspace unless --allow-duplicate)`)
    .requiredOption('--config <json>', 'the configuration: JSON, @file, or @- to read it from stdin (keeps secrets off the command line)')
    .option('--definition-id <id>', "the connector definition's id, for a type the configuration does not name")
    .option('--allow-duplicate', 'deploy even when the name is taken')
    .action(async (options: { name: string; config: string; definitionId?: string; allowDuplicate?: boolean }, command: Command) => {
      if (options.name.trim() === '') throw new CliError('--name must not be empty');
      const configuration = readJsonObject('--config', options.config);
      const input: ConnectorInput = options.definitionId ? { configuration, definitionId: options.definitionId } : configuration;
      const actor = await ops.deploy(workspaceOf(command), options.name, input, !options.allowDuplicate);
      const info = await actor.info();
      if (isJson(command)) return printJson(info);
      println(`Deployed ${kind} ${ops.idOf(info)} (${JSON.stringify(info.name)}, ${ops.typeOf(info)}).`);
    });

  group
    .command('check')
    .description(`Try the ${kind}'s stored configuration (exit 1 when it fails)`)
    .argument('<id>', `the ${kind}'s id`)
    .action(async (id: string, _options: unknown, command: Command) => {
      const result = await ops.get(workspaceOf(command), id).checkConnection();
      if (isJson(command)) printJson(result);
      else println(`${result.status}${result.message ? `: ${result.message}` : ''}`);
      if (result.status !== 'succeeded') process.exitCode = 1;
    });

  group
    .command('rename')
    .description(`Rename a ${kind}`)
    .argument('<id>', `the ${kind}'s id`)
    .argument('<name>', 'the new name')
    .action(async (id: string, name: string, _options: unknown, command: Command) => {
      if (name.trim() === '') throw new CliError('the new name must not be empty');
      const info = await (await ops.get(workspaceOf(command), id).rename(name)).info();
      if (isJson(command)) return printJson(info);
      println(`Renamed ${kind} ${id} to ${JSON.stringify(info.name)}.`);
    });

  group
    .command('update')
    .description(`Change a ${kind}'s configuration: the fields given are merged into the stored ones`)
    .argument('<id>', `the ${kind}'s id`)
    .requiredOption('--config <json>', 'the fields to change: JSON, @file, or @- (stdin)')
    .option('--secrets <json>', 'secrets given again, merged into --config (a new host, port, database or base URL needs them): JSON, @file or @-')
    .action(async (id: string, options: { config: string; secrets?: string }, command: Command) => {
      if (options.config === '@-' && options.secrets === '@-') throw new CliError('--config and --secrets cannot both read stdin');
      const changes: JsonObject = readJsonObject('--config', options.config);
      const configuration = options.secrets === undefined ? changes : mergeObjects(changes, readJsonObject('--secrets', options.secrets));
      const info = await (await ops.get(workspaceOf(command), id).updateConfig(configuration)).info();
      if (isJson(command)) return printJson(info);
      println(`Updated ${kind} ${id}.`);
    });

  group
    .command('delete')
    .description(`Permanently delete a ${kind} (and, server-side, the connections using it). Safe mode: only names containing "delete-me" or "deleteme"`)
    .argument('<id>', `the ${kind}'s id`)
    .option('--yes', 'do not ask for confirmation (needed without a terminal)')
    .option('--unsafe', 'turn safe mode off: delete whatever the name')
    .action(async (id: string, options: { yes?: boolean; unsafe?: boolean }, command: Command) => {
      const workspace = workspaceOf(command);
      const name = await ops.get(workspace, id).name();
      // What safe mode refuses is refused before anything is asked.
      if (options.unsafe || isNamedForDeletion(name)) await confirmDeletion(`${kind} ${id} (${JSON.stringify(name)})`, options.yes);
      await ops.delete(workspace, id, !options.unsafe);
      if (isJson(command)) return printJson({ deleted: { [`${kind}Id`]: id } });
      println(`Deleted ${kind} ${id}.`);
    });

  return group;
}
