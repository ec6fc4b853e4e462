import type { SandboxFault } from './types.ts';

interface PendingFault {
  fault: SandboxFault;
  remaining: number;
}

/** Wildcard method name: the fault applies to whichever method is called next. */
export const ANY_METHOD = '*';

/** Injected failures, consumed first-in first-out per method. */
export class FaultQueue {
  private readonly pending: PendingFault[] = [];

  add(fault: SandboxFault): void {
    const problem = checkFault(fault);
    if (problem) throw new RangeError(problem);
    this.pending.push({ fault: { ...fault }, remaining: fault.count ?? 1 });
  }

  /** The fault that applies to this call of `method`, if any; consumes one use of it. */
  take(method: string): SandboxFault | undefined {
    const i = this.pending.findIndex((p) => p.fault.method === method || p.fault.method === ANY_METHOD);
    if (i < 0) return undefined;
    const entry = this.pending[i] as PendingFault;
    entry.remaining--;
    if (entry.remaining <= 0) this.pending.splice(i, 1);
    return entry.fault;
  }
}

/** Why a fault description is unusable, or undefined when it is fine. Also validates HTTP input. */
export function checkFault(value: unknown): string | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return 'fault must be an object';
  const f = value as Record<string, unknown>;
  if (typeof f.method !== 'string' || f.method === '') return 'method must be a non-empty string';
  if (f.error !== undefined && (typeof f.error !== 'string' || !/^[a-z_]+$/.test(f.error)))
    return 'error must be a Slack error code (lowercase and underscores)';
  // Slack reports most failures in a 200 body: a 200 is a fault only when it carries an error code.
  const okStatus = f.error !== undefined && f.status === 200;
  if (typeof f.status !== 'number' || !Number.isInteger(f.status) || (!okStatus && (f.status < 400 || f.status > 599))) {
    return 'status must be an integer HTTP error status (400-599), or 200 with an error code';
  }
  if (f.count !== undefined && (typeof f.count !== 'number' || !Number.isInteger(f.count) || f.count < 1)) {
    return 'count must be a positive integer';
  }
  if (f.retryAfter !== undefined && (typeof f.retryAfter !== 'number' || !Number.isFinite(f.retryAfter) || f.retryAfter < 0)) {
    return 'retryAfter must be a non-negative number of seconds';
  }
  if (f.afterProcessing !== undefined && typeof f.afterProcessing !== 'boolean') return 'afterProcessing must be a boolean';
  return undefined;
}
