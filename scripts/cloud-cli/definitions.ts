import { readFileSync } from 'node:fs';
import { Command } from 'commander';
import type { CustomCloudSourceDefinition, JsonObject } from '../../core/cloud-client/index.ts';
import { CliError, isJson, printFields, printJson, printTable, println, readJsonObject, workspaceOf } from './common.ts';

/** What a definition is shown as (JSON): its id, name, version and manifest. */
const infoOf = (definition: CustomCloudSourceDefinition) => ({
  definitionId: definition.definitionId,
  name: definition.name,
  version: definition.version,
  manifest: definition.manifest,
});

/** A manifest file's text (YAML or JSON), or stdin's for `-`; errors name the file, never quote its text. */
function readManifest(file: string): string {
  try {
    return readFileSync(file === '-' ? 0 : file, 'utf8');
  } catch (error) {
    throw new CliError(`--manifest: cannot read ${file === '-' ? 'stdin' : file}: ${(error as NodeJS.ErrnoException).code ?? 'unreadable'}`);
  }
}

/** `cloud definitions ...`: the workspace's custom declarative source definitions (Airbyte or Plugboard manifests). */
export function definitionsCommand(): Command {
  const group = new Command('definitions').description("The workspace's custom declarative source definitions: list, show, publish a manifest file");

  group
    .command('list')
    .description("List the workspace's declarative source definitions")
    .option('--name <name>', 'only those with exactly this name')
    .action(async (options: { name?: string }, command: Command) => {
      const definitions = await workspaceOf(command).listCustomSourceDefinitions('yaml', options.name === undefined ? {} : { name: options.name });
      if (isJson(command)) return printJson(definitions.map(infoOf));
      printTable(
        ['ID', 'NAME', 'VERSION'],
        definitions.map((definition) => [definition.definitionId, definition.name, String(definition.version ?? '')]),
        'No definitions.',
      );
    });

  group
    .command('get')
    .description('Show a declarative source definition and its manifest')
    .argument('<id>', "the definition's id")
    .action(async (id: string, _options: unknown, command: Command) => {
      const definition = await workspaceOf(command).getCustomSourceDefinition(id, 'yaml');
      if (isJson(command)) return printJson(infoOf(definition));
      printFields([
        ['definition', definition.definitionId],
        ['name', definition.name],
        ['version', String(definition.version ?? '')],
      ]);
      println('manifest:');
      println(JSON.stringify(definition.manifest, null, 2));
    });

  group
    .command('publish')
    .description('Publish a manifest file (an Airbyte declarative manifest, or a Plugboard one): sources can then be deployed with its id')
    .requiredOption('--name <name>', "the definition's name (unique in the workspace unless --allow-duplicate)")
    .requiredOption('--manifest <file>', 'the manifest: a YAML or JSON file, or - to read it from stdin')
    .option('--testing-values <json>', "testing values for the definition's builder project: JSON, @file, or @- (stdin; keeps secrets off the command line)")
    .option('--no-validate', 'send the manifest without loading it here first (the server checks it either way)')
    .option('--allow-duplicate', 'publish even when the name is taken')
    .action(async (options: { name: string; manifest: string; testingValues?: string; validate: boolean; allowDuplicate?: boolean }, command: Command) => {
      if (options.name.trim() === '') throw new CliError('--name must not be empty');
      if (options.manifest === '-' && options.testingValues === '@-') throw new CliError('--manifest and --testing-values cannot both read stdin');
      const manifestYaml = readManifest(options.manifest);
      const testingValues: JsonObject | undefined = options.testingValues === undefined ? undefined : readJsonObject('--testing-values', options.testingValues);
      const definition = await workspaceOf(command).publishCustomSourceDefinition(
        options.name,
        { manifestYaml },
        { unique: !options.allowDuplicate, preValidate: options.validate, ...(testingValues ? { testingValues } : {}) },
      );
      if (isJson(command)) return printJson(infoOf(definition));
      println(`Published definition ${definition.definitionId} (${JSON.stringify(definition.name)}, version ${definition.version}).`);
    });

  return group;
}
