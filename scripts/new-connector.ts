/**
 * Scaffolds a connector package that loads and passes its tests as generated:
 *
 *   npm run new-connector -- <type> [--entity <name>] [--dir <path>]
 *     a definition with one entity (list, get, create), its params, record and meta schemas, generated
 *     types, a sandbox of the upstream, a test running the connector kit, and a README; then the
 *     author swaps in the real API's details.
 *
 *   npm run new-connector -- --from-manifest <manifest.yaml> [--type <type>] [--dir <path>]
 *     an Airbyte declarative manifest as a package: the manifest, an index.ts exporting it with
 *     airbyteManifest(), types generated from its streams, a kit test (offline until given an
 *     upstream), and a README of its configuration and entities.
 */
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Command } from 'commander';
import { ConnectorLoadError, Runtime } from '../core/index.ts';
import { typeFromPath } from '../core/manifests/connector/entity-names.ts';
import type { CompiledConnector } from '../core/plugins/compiled-connector.ts';
import type { ConnectorDefinition, ManifestPackage } from '../core/sdk/index.ts';
import { renderConnectorTypes, typesMapName } from './connector-types.ts';
import { manifestPlaceholders } from './manifest-connector-template/placeholders.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const TEMPLATE = fileURLToPath(new URL('./connector-template/', import.meta.url));
const MANIFEST_TEMPLATE = fileURLToPath(new URL('./manifest-connector-template/', import.meta.url));
/** A connector type names an environment variable (PLUGBOARD_<TYPE>_BASE_URL) and a URL segment: lowercase, digits, - and _. */
const NAME = /^[a-z][a-z0-9_-]*$/;

const program = new Command()
  .argument('[type]', 'connector type id, e.g. issue-tracker')
  .option('--entity <name>', 'the first entity, plural (e.g. issues; default items)')
  .option('--from-manifest <path>', 'an Airbyte declarative manifest (YAML) to make the package of')
  .option('--type <type>', 'the connector type id (with --from-manifest, default: from the manifest folder, source-pokeapi/manifest.yaml → pokeapi)')
  .option('--dir <path>', 'where to write the package (default: ./<type> from where npm was run)')
  .parse();
const options = program.opts<{ entity?: string; fromManifest?: string; type?: string; dir?: string }>();

function fail(message: string): never {
  console.error(`new-connector: ${message}`);
  process.exit(1);
}

const capitalized = (name: string) =>
  name
    .split(/[-_]/)
    .filter(Boolean)
    .map((word) => word[0]!.toUpperCase() + word.slice(1));
const pascal = (name: string) => capitalized(name).join('');

/** Copies the template tree's `.tmpl` files with names and contents filled in; `gitignore.tmpl` becomes `.gitignore`. */
function copyTemplate(from: string, to: string, fill: (text: string) => string): string[] {
  mkdirSync(to, { recursive: true });
  const written: string[] = [];
  for (const name of readdirSync(from)) {
    const source = join(from, name);
    if (statSync(source).isDirectory()) {
      written.push(...copyTemplate(source, join(to, name), fill));
      continue;
    }
    // Beside the templates may sit the code that fills them, which the package does not get.
    if (!name.endsWith('.tmpl')) continue;
    const targetName = name === 'gitignore.tmpl' ? '.gitignore' : fill(name.replace(/\.tmpl$/, ''));
    writeFileSync(join(to, targetName), fill(readFileSync(source, 'utf8')));
    written.push(join(to, targetName));
  }
  return written;
}

/** Placeholders every package fills: its names, where Plugboard is, and the tool versions Plugboard itself uses. */
function commonPlaceholders(type: string, target: string): Record<string, string> {
  const ourPackage = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as Record<string, Record<string, string>>;
  return {
    __PACKAGE_NAME__: `plugboard-connector-${type}`,
    __TYPE_PASCAL__: pascal(type),
    __TYPE__: type,
    __TYPES_MAP__: typesMapName(type),
    __DISPLAY_NAME__: capitalized(type).join(' '),
    __PLUGBOARD_PATH__: relative(target, ROOT) || '.',
    __TSX_VERSION__: ourPackage.dependencies!.tsx!,
    __TYPESCRIPT_VERSION__: ourPackage.devDependencies!.typescript!,
    __VITEST_VERSION__: ourPackage.devDependencies!.vitest!,
  };
}

/** The entity scaffold's own placeholders: the entity's names and the base URL variable. */
function entityPlaceholders(type: string, entity: string): Record<string, string> {
  const singular = entity.endsWith('s') && entity.length > 1 ? entity.slice(0, -1) : entity;
  return {
    __ENTITY_PASCAL__: pascal(entity),
    __ENTITY__: entity,
    __SINGULAR_PASCAL__: pascal(singular),
    __SINGULAR__: singular,
    __RECORD_FILE__: singular,
    __BASE_URL_VARIABLE__: baseUrlVariable(type),
  };
}

function baseUrlVariable(type: string): string {
  return `PLUGBOARD_${type.toUpperCase().replace(/[^A-Z0-9]/g, '_')}_BASE_URL`;
}

/** The manifest's text, or one line saying why there is none. */
function readManifest(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch (error) {
    const { code, message } = error as NodeJS.ErrnoException;
    fail(`cannot read the manifest ${path}: ${code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'it is a folder' : message}`);
  }
}

/** The manifest compiled as the runtime runs it; one that does not load stops the scaffold with each problem at its place. */
function compileManifest(text: string, type: string, path: string): CompiledConnector {
  const runtime = new Runtime();
  try {
    runtime.registerManifest(text, type);
  } catch (error) {
    if (!(error instanceof ConnectorLoadError)) throw error;
    fail(`${path} cannot run as a Plugboard connector; nothing was written:\n  - ${error.problems.join('\n  - ')}`);
  }
  return runtime.plugin(type);
}

/** What to scaffold, from the command line: a package around a manifest, or the entity template. */
interface Plan {
  type: string;
  template: string;
  placeholders: Record<string, string>;
  /** Files written besides the template's. */
  extras: (target: string) => string[];
  next: (target: string, entry: string) => string;
}

function planFromManifest(path: string): Plan {
  if (options.entity !== undefined) fail('--entity does not go with --from-manifest: the entities are the manifest streams');
  const file = resolve(process.env.INIT_CWD ?? process.cwd(), path);
  const text = readManifest(file);
  const type = options.type ?? program.args[0] ?? typeFromPath(file);
  checkName('type', type, 'issue-tracker');
  const connector = compileManifest(text, type, file);
  return {
    type,
    template: MANIFEST_TEMPLATE,
    placeholders: manifestPlaceholders(connector),
    extras: (target) => {
      copyFileSync(file, join(target, 'manifest.yaml'));
      return [join(target, 'manifest.yaml')];
    },
    next: (target) => `
Next:
  cd ${relative(process.cwd(), target) || '.'} && npm install && npm test
  give test/connector.test.ts an upstream (the marked place) for the online checks
  after changing manifest.yaml: npm run gen:types`,
  };
}

function planFromEntity(): Plan {
  const type = options.type ?? program.args[0] ?? fail('give the connector type (e.g. issue-tracker), or --from-manifest <manifest.yaml>');
  const entity = options.entity ?? 'items';
  checkName('type', type, 'issue-tracker');
  checkName('entity', entity, 'issues');
  return {
    type,
    template: TEMPLATE,
    placeholders: entityPlaceholders(type, entity),
    extras: () => [],
    next: (target, entry) => `
Next:
  cd ${relative(process.cwd(), target) || '.'} && npm install && npm test
  PLUGBOARD_CONNECTORS=${entry} ${baseUrlVariable(type)}=<upstream API root> npm start   (in ${ROOT})`,
  };
}

function checkName(what: string, name: string, example: string): void {
  if (!NAME.test(name)) fail(`${what} "${name}" must be lowercase letters, digits, - or _, starting with a letter (e.g. ${example})`);
}

const plan = options.fromManifest !== undefined ? planFromManifest(options.fromManifest) : planFromEntity();
const target = resolve(process.env.INIT_CWD ?? process.cwd(), options.dir ?? plan.type);
if (existsSync(target) && readdirSync(target).length > 0) fail(`${target} exists and is not empty; choose another --dir`);

const placeholders = { ...commonPlaceholders(plan.type, target), ...plan.placeholders };
const fill = (text: string) => text.replace(/__[A-Z_]+?__/g, (name) => placeholders[name] ?? name);
const written = [...copyTemplate(plan.template, target, fill), ...plan.extras(target)];
// What `npm install` does for the `file:` dependency, so the package loads and type-checks at once.
mkdirSync(join(target, 'node_modules'), { recursive: true });
if (!existsSync(join(target, 'node_modules', 'plugboard'))) symlinkSync(ROOT, join(target, 'node_modules', 'plugboard'), 'dir');

const entry = join(target, 'index.ts');
const connector = (await import(pathToFileURL(entry).href)).default as ConnectorDefinition | ManifestPackage;
writeFileSync(join(target, 'types.generated.ts'), await renderConnectorTypes(connector));
written.push(join(target, 'types.generated.ts'));
// Loaded as the hosted server would: a package that does not load is a scaffold bug, said now.
await new Runtime().loadConnector(entry);

console.log(`Scaffolded connector "${plan.type}" in ${target}:`);
for (const file of written.sort()) console.log(`  ${relative(target, file)}`);
console.log(plan.next(target, entry));
