import type { ErrorObject } from 'ajv';
import { UpstreamError } from '../errors.ts';
import type { CompiledAction } from '../plugins/compiled-connector.ts';

export const RECORD_VALIDATION_MODES = ['off', 'warn', 'throw'] as const;

/**
 * What a runtime does with mapped records that do not match the action's record schema: nothing
 * (`off`, no validation at all), a process warning (`warn`), or a 502 (`throw`, for a connector's tests).
 */
export type RecordValidation = (typeof RECORD_VALIDATION_MODES)[number];

/** Records named in one detail; a page of a thousand broken records needs no thousand lines. */
const MAX_RECORDS_DESCRIBED = 5;

/** Validates the result's records (a list's each element) against the record schema, as `mode` says. */
export function checkRecords(action: CompiledAction, result: unknown, mode: RecordValidation): void {
  if (mode === 'off') return;
  const detail = recordsProblem(action, result);
  if (detail === null) return;
  if (mode === 'throw') throw new UpstreamError(detail, 'upstream_record_invalid');
  process.emitWarning(detail, { code: 'PLUGBOARD_RECORD_INVALID' });
}

/**
 * One schema failure. A null where the schema wants another type is what a field the upstream
 * omitted becomes (every record carries each field of its schema): say so, and how to declare it.
 */
function describeError(error: ErrorObject): string {
  if (error.keyword === 'type' && error.data === null && error.instancePath !== '') {
    const field = error.instancePath.slice(1).replace(/\//g, '.');
    return `${field} is null: the upstream omitted it (records carry every field of the schema, null when omitted); if it is optional, declare it nullable ("type": ${JSON.stringify([...String(error.params.type).split(','), 'null'])})`;
  }
  return `${error.schemaPath} ${error.message ?? 'fails'}`;
}

/**
 * Names the records that fail and the schema paths and messages they fail on, never a value: records
 * may hold private data, and this detail goes to logs and callers.
 */
function recordsProblem(action: CompiledAction, result: unknown): string | null {
  const { validateRecord, definition } = action;
  const failures: string[] = [];
  const records = Array.isArray(result) ? result : [result];
  records.forEach((record, index) => {
    if (validateRecord(record)) return;
    const reasons = [...new Set((validateRecord.errors ?? []).map(describeError))];
    failures.push(`${Array.isArray(result) ? `record ${index}` : 'the record'} (${reasons.join('; ')})`);
  });
  if (failures.length === 0) return null;
  const more = failures.length > MAX_RECORDS_DESCRIBED ? `, and ${failures.length - MAX_RECORDS_DESCRIBED} more records` : '';
  return `${definition.entity}.${definition.action}: upstream records do not match the record schema: ${failures.slice(0, MAX_RECORDS_DESCRIBED).join(', ')}${more}`;
}
