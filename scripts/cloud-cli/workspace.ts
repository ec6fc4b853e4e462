import { Command } from 'commander';
import { CloudClientConfig, CloudWorkspaces, ENV } from '../../core/cloud-client/index.ts';
import { CLI_DEFAULT_API_ROOT, globals, isJson, printFields, printJson, printTable } from './common.ts';
import { workspaceOf } from './common.ts';

/** `cloud workspace`: checks the credentials reach the workspace and shows it. */
export function workspaceCommand(): Command {
  return new Command('workspace')
    .description('Check that the credentials reach the workspace; show its id, name, URL and organization')
    .action(async (_options: unknown, command: Command) => {
      const workspace = workspaceOf(command);
      const info = await workspace.connect();
      const organization = await workspace.getOrganization({ raiseOnError: false });
      if (isJson(command)) {
        return printJson({ ...info, apiRoot: workspace.apiRoot, workspaceUrl: workspace.workspaceUrl, organization });
      }
      printFields([
        ['workspace', info.workspaceId],
        ['name', info.name],
        ...(info.dataResidency ? ([['data residency', info.dataResidency]] as Array<[string, string]>) : []),
        ['API', workspace.apiRoot],
        ['URL', workspace.workspaceUrl],
        ['organization', organization ? `${organization.organizationName} (${organization.organizationId})` : 'unknown (the config API did not answer)'],
      ]);
    });
}

/** `cloud workspaces create|list`: the organization's workspaces, before there is a workspace id to give. */
export function workspacesCommand(): Command {
  const workspaces = new Command('workspaces').description("Create and list the organization's workspaces");
  const client = (command: Command) =>
    new CloudWorkspaces(CloudClientConfig.fromEnv(globals(command).apiUrl || process.env[ENV.apiUrl] || CLI_DEFAULT_API_ROOT));
  workspaces
    .command('create <name>')
    .description(`Create a workspace; its id is what ${ENV.workspaceId} or --workspace take`)
    .action(async (name: string, _options: unknown, command: Command) => {
      const created = await client(command).create(name);
      if (isJson(command)) return printJson(created);
      printFields([
        ['workspace', created.workspaceId],
        ['name', created.name],
      ]);
    });
  workspaces
    .command('list')
    .description("List the organization's workspaces")
    .action(async (_options: unknown, command: Command) => {
      const found = await client(command).list();
      if (isJson(command)) return printJson(found);
      printTable(
        ['WORKSPACE', 'NAME'],
        found.map((workspace) => [workspace.workspaceId, workspace.name]),
        'No workspaces.',
      );
    });
  return workspaces;
}
