import { readFileSync } from 'node:fs';
import { createInterface } from 'node:readline/promises';
import { type Command, InvalidArgumentError } from 'commander';
import { CloudError, CloudWorkspace, ENV, InputError, type JsonObject, SecretNotFoundError, SecretRequiredError } from '../../core/cloud-client/index.ts';

/** Options of `plugboard cloud`, given before or after the subcommand. */
export interface GlobalOptions {
  workspace?: string;
  apiUrl?: string;
  json?: boolean;
}

/**
 * The root the CLI talks to unless --api-url or PLUGBOARD_CLOUD_API_URL names one: the local server
 * (`npm start`). Never an outside host, which would receive the client secret the environment holds.
 */
export const CLI_DEFAULT_API_ROOT = 'http://127.0.0.1:8080/v1';

/** A failure the CLI reports as one line on stderr (exit 1). */
export class CliError extends Error {}

export function globals(command: Command): GlobalOptions {
  return command.optsWithGlobals<GlobalOptions>();
}

/**
 * The workspace the command works on: --workspace or PLUGBOARD_CLOUD_WORKSPACE_ID, credentials from the
 * environment, at --api-url, else PLUGBOARD_CLOUD_API_URL, else the local server.
 */
export function workspaceOf(command: Command): CloudWorkspace {
  const { workspace, apiUrl } = globals(command);
  return CloudWorkspace.fromEnv(workspace || undefined, apiUrl || process.env[ENV.apiUrl] || CLI_DEFAULT_API_ROOT);
}

export function isJson(command: Command): boolean {
  return globals(command).json === true;
}

export function printJson(value: unknown): void {
  process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
}

export function println(line = ''): void {
  process.stdout.write(`${line}\n`);
}

/** Columns padded to their widest cell, two spaces apart. */
export function printTable(headers: string[], rows: string[][], empty: string): void {
  if (rows.length === 0) return println(empty);
  const widths = headers.map((header, i) => Math.max(header.length, ...rows.map((row) => (row[i] ?? '').length)));
  for (const row of [headers, ...rows])
    println(
      row
        .map((cell, i) => cell.padEnd(widths[i]!))
        .join('  ')
        .trimEnd(),
    );
}

/** `name: value` lines, the names aligned. */
export function printFields(fields: Array<[string, string]>): void {
  const width = Math.max(...fields.map(([name]) => name.length)) + 1;
  for (const [name, value] of fields) println(`${`${name}:`.padEnd(width)} ${value}`);
}

export function formatCount(value: number): string {
  return value.toLocaleString('en-US');
}

export function formatBytes(bytes: number): string {
  if (bytes < 1000) return `${bytes} B`;
  const units = ['kB', 'MB', 'GB', 'TB'];
  let value = bytes;
  let unit = -1;
  while (value >= 1000 && unit < units.length - 1) {
    value /= 1000;
    unit++;
  }
  return `${value.toFixed(value < 10 ? 1 : 0)} ${units[unit]}`;
}

export function formatSeconds(seconds: number): string {
  const whole = Math.round(seconds);
  if (whole < 60) return `${whole} s`;
  const minutes = Math.floor(whole / 60);
  if (minutes < 60) return `${minutes} min ${whole % 60} s`;
  return `${Math.floor(minutes / 60)} h ${minutes % 60} min`;
}

/** An ISO 8601 duration (`PT1M3.5S`) as formatSeconds writes it; other text as it is. */
export function formatDuration(duration: string | undefined): string {
  if (!duration) return '';
  const match = /^P(?:(\d+)D)?(?:T(?:(\d+)H)?(?:(\d+)M)?(?:([\d.]+)S)?)?$/.exec(duration);
  if (!match) return duration;
  const [, days = '0', hours = '0', minutes = '0', seconds = '0'] = match;
  return formatSeconds(Number(days) * 86400 + Number(hours) * 3600 + Number(minutes) * 60 + Number(seconds));
}

export function formatTime(value: string | number | Date | undefined): string {
  if (value === undefined || value === '') return '';
  const date = typeof value === 'number' ? new Date(value * 1000) : new Date(value);
  return Number.isNaN(date.getTime()) ? String(value) : date.toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** An option's argument parser: a whole number of at least `min` (a usage error otherwise). */
export function wholeNumber(min: number): (value: string) => number {
  return (value) => {
    const number = Number(value);
    if (value.trim() === '' || !Number.isInteger(number) || number < min) throw new InvalidArgumentError(`Give a whole number of at least ${min}.`);
    return number;
  };
}

/** An option's argument parser: a number of at least 0 (a usage error otherwise). */
export function nonNegativeNumber(value: string): number {
  const number = Number(value);
  if (value.trim() === '' || !Number.isFinite(number) || number < 0) throw new InvalidArgumentError('Give a number of at least 0.');
  return number;
}

/** A comma-separated list, blanks dropped. */
export function list(value: string): string[] {
  return value
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item !== '');
}

/**
 * A JSON object given inline, as `@file`, or as `@-` (stdin, so that secrets stay off the command line).
 * Parse errors never quote the text: it may hold secrets.
 */
export function readJsonObject(option: string, value: string): JsonObject {
  let text = value;
  if (value.startsWith('@')) {
    const file = value.slice(1);
    try {
      text = readFileSync(file === '-' ? 0 : file, 'utf8');
    } catch (error) {
      throw new CliError(`${option}: cannot read ${file === '-' ? 'stdin' : file}: ${(error as NodeJS.ErrnoException).code ?? 'unreadable'}`);
    }
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new CliError(
      `${option} is not valid JSON${value.startsWith('@') ? ` (in ${value.slice(1) === '-' ? 'stdin' : value.slice(1)})` : ''}: give a JSON object, @file or @-`,
    );
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) throw new CliError(`${option} must be a JSON object`);
  return parsed as JsonObject;
}

/** `extra` merged into `base`, objects field by field at any depth (a secret given apart lands beside the other credentials). */
export function mergeObjects(base: JsonObject, extra: JsonObject): JsonObject {
  const merged: JsonObject = { ...base };
  for (const [key, value] of Object.entries(extra)) {
    const before = merged[key];
    const bothObjects = [value, before].every((item) => item !== null && typeof item === 'object' && !Array.isArray(item));
    merged[key] = bothObjects ? mergeObjects(before as JsonObject, value as JsonObject) : value;
  }
  return merged;
}

/** Deleting needs --yes, or a "y" typed on a terminal. */
export async function confirmDeletion(what: string, yes: boolean | undefined): Promise<void> {
  if (yes) return;
  if (!process.stdin.isTTY || !process.stderr.isTTY) throw new CliError(`refusing to delete ${what} without --yes`);
  const prompt = createInterface({ input: process.stdin, output: process.stderr });
  try {
    const answer = await prompt.question(`Permanently delete ${what}? [y/N] `);
    if (!/^y(es)?$/i.test(answer.trim())) throw new CliError('not deleted');
  } finally {
    prompt.close();
  }
}

/** The one line an error is reported as: what went wrong and, for the environment, what to set. */
export function describeError(error: unknown): string {
  if (error instanceof SecretNotFoundError) {
    if (error.secretName === ENV.workspaceId) return `no workspace: pass --workspace or set ${ENV.workspaceId}`;
    if (error.secretName === ENV.clientId) return `no credentials: set ${ENV.bearerToken}, or ${ENV.clientId} and ${ENV.clientSecret}`;
    return `${error.secretName} is not set (client credentials need both ${ENV.clientId} and ${ENV.clientSecret})`;
  }
  if (error instanceof SecretRequiredError) {
    const fields = error.fields.length > 0 ? error.fields.join(', ') : 'the secrets';
    return `${error.message} (give ${fields} again with --secrets '{...}', @file or @-)`;
  }
  if (error instanceof InputError && error.input === 'safeMode') return error.message.replace('pass safeMode: false', 'pass --unsafe');
  if (error instanceof CloudError || error instanceof CliError) return error.message;
  if (error instanceof Error) return error.message;
  return String(error);
}

export function oneLine(text: string): string {
  return text.replace(/\s*\n\s*/g, ' ').trim();
}
