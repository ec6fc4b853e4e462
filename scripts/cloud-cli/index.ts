import { Command } from 'commander';
import { ENV } from '../../core/cloud-client/index.ts';
import { CLI_DEFAULT_API_ROOT } from './common.ts';
import { connectionsCommand } from './connections.ts';
import { destinationsCommand, sourcesCommand } from './connectors.ts';
import { definitionsCommand } from './definitions.ts';
import { jobsCommand, logsCommand, syncCommand } from './sync.ts';
import { workspaceCommand, workspacesCommand } from './workspace.ts';

/** `plugboard cloud ...`: the public cloud API through plugboard/cloud. */
export function cloudCommand(): Command {
  const cloud = new Command('cloud')
    .description(
      'Workspaces, declarative source definitions, sources, destinations, connections and sync jobs of the public cloud API (Plugboard or any server speaking it)',
    )
    .option('--workspace <id>', `the workspace (default ${ENV.workspaceId})`)
    .option('--api-url <url>', `the public API's root, ending in /v1 (default ${ENV.apiUrl}, else the local server, ${CLI_DEFAULT_API_ROOT})`)
    .option('--json', 'print JSON instead of tables')
    .addHelpText(
      'after',
      `
Credentials come from the environment: ${ENV.bearerToken}, or ${ENV.clientId} and ${ENV.clientSecret}.
Deleting takes --yes (or a "y" on a terminal) and, in safe mode (the default), a name containing "delete-me" or "deleteme".
Errors are one line on stderr and exit 1.`,
    );
  const commands = [
    workspaceCommand(),
    workspacesCommand(),
    definitionsCommand(),
    sourcesCommand(),
    destinationsCommand(),
    connectionsCommand(),
    syncCommand(),
    jobsCommand(),
    logsCommand(),
  ];
  for (const command of commands) {
    cloud.addCommand(command);
  }
  return cloud;
}
