/**
 * Scaffolds a connector package: a definition with one entity (list, get, create), its params, record
 * and meta schemas, generated types, a sandbox of the upstream, a test running the connector kit, and a
 * README. It loads and passes its tests as generated; then the author swaps in the real API's details.
 *
 *   npm run new-connector -- <type> [--entity <name>] [--dir <path>]
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Command } from 'commander';
import { Runtime } from '../core/index.ts';
import type { ConnectorDefinition } from '../core/sdk/index.ts';
import { renderConnectorTypes, typesMapName } from './connector-types.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const TEMPLATE = fileURLToPath(new URL('./connector-template/', import.meta.url));
/** A connector type names an environment variable (PLUGBOARD_<TYPE>_BASE_URL) and a URL segment: lowercase, digits, - and _. */
const NAME = /^[a-z][a-z0-9_-]*$/;

const program = new Command()
  .argument('<type>', 'connector type id, e.g. issue-tracker')
  .option('--entity <name>', 'the first entity, plural (e.g. issues)', 'items')
  .option('--dir <path>', 'where to write the package (default: ./<type> from where npm was run)')
  .parse();
const [type] = program.args as [string];
const options = program.opts<{ entity: string; dir?: string }>();

function fail(message: string): never {
  console.error(`new-connector: ${message}`);
  process.exit(1);
}

if (!NAME.test(type)) fail(`type "${type}" must be lowercase letters, digits, - or _, starting with a letter (e.g. issue-tracker)`);
if (!NAME.test(options.entity)) fail(`entity "${options.entity}" must be lowercase letters, digits, - or _, starting with a letter (e.g. issues)`);
const base = process.env.INIT_CWD ?? process.cwd();
const target = resolve(base, options.dir ?? type);
if (existsSync(target) && readdirSync(target).length > 0) fail(`${target} exists and is not empty; choose another --dir`);

const capitalized = (name: string) =>
  name
    .split(/[-_]/)
    .filter(Boolean)
    .map((word) => word[0]!.toUpperCase() + word.slice(1));
const pascal = (name: string) => capitalized(name).join('');
const singular = options.entity.endsWith('s') && options.entity.length > 1 ? options.entity.slice(0, -1) : options.entity;
const ourPackage = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as Record<string, Record<string, string>>;
const placeholders: Record<string, string> = {
  __PACKAGE_NAME__: `plugboard-connector-${type}`,
  __TYPE_PASCAL__: pascal(type),
  __TYPE__: type,
  __TYPES_MAP__: typesMapName(type),
  __DISPLAY_NAME__: capitalized(type).join(' '),
  __ENTITY_PASCAL__: pascal(options.entity),
  __ENTITY__: options.entity,
  __SINGULAR_PASCAL__: pascal(singular),
  __SINGULAR__: singular,
  __RECORD_FILE__: singular,
  __BASE_URL_VARIABLE__: `PLUGBOARD_${type.toUpperCase().replace(/[^A-Z0-9]/g, '_')}_BASE_URL`,
  __PLUGBOARD_PATH__: relative(target, ROOT) || '.',
  __TSX_VERSION__: ourPackage.dependencies!.tsx!,
  __TYPESCRIPT_VERSION__: ourPackage.devDependencies!.typescript!,
  __VITEST_VERSION__: ourPackage.devDependencies!.vitest!,
};
const fill = (text: string) => text.replace(/__[A-Z_]+?__/g, (name) => placeholders[name] ?? name);

/** Copies the template tree with names and contents filled in; `gitignore.tmpl` becomes `.gitignore`. */
function copyTemplate(from: string, to: string): string[] {
  mkdirSync(to, { recursive: true });
  const written: string[] = [];
  for (const name of readdirSync(from)) {
    const source = join(from, name);
    if (statSync(source).isDirectory()) {
      written.push(...copyTemplate(source, join(to, name)));
      continue;
    }
    const targetName = name === 'gitignore.tmpl' ? '.gitignore' : fill(name.replace(/\.tmpl$/, ''));
    writeFileSync(join(to, targetName), fill(readFileSync(source, 'utf8')));
    written.push(join(to, targetName));
  }
  return written;
}

const written = copyTemplate(TEMPLATE, target);
// What `npm install` does for the `file:` dependency, so the package loads and type-checks at once.
mkdirSync(join(target, 'node_modules'), { recursive: true });
if (!existsSync(join(target, 'node_modules', 'plugboard'))) symlinkSync(ROOT, join(target, 'node_modules', 'plugboard'), 'dir');

const manifest = join(target, 'index.ts');
const definition = (await import(pathToFileURL(manifest).href)).default as ConnectorDefinition;
writeFileSync(join(target, 'types.generated.ts'), await renderConnectorTypes(definition));
written.push(join(target, 'types.generated.ts'));
// Loaded as the hosted server would: a definition that does not load is a scaffold bug, said now.
await new Runtime().loadConnector(manifest);

console.log(`Scaffolded connector "${type}" in ${target}:`);
for (const file of written.sort()) console.log(`  ${relative(target, file)}`);
console.log(`
Next:
  cd ${relative(process.cwd(), target) || '.'} && npm install && npm test
  PLUGBOARD_CONNECTORS=${manifest} ${placeholders.__BASE_URL_VARIABLE__}=<upstream API root> npm start   (in ${ROOT})`);
