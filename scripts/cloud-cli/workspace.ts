import { Command } from 'commander';
import { isJson, printFields, printJson, workspaceOf } from './common.ts';

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
