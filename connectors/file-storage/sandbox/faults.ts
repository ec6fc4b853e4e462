import type { DriveFault } from './types.ts';

/**
 * Injected failures. A status fault answers the next `count` requests whose path starts with
 * `fault.path` with that status. A media fault applies to the next `count` media or export
 * responses on such paths: the response keeps its own status and headers, and after that many body
 * bytes the connection drops (truncateAfterBytes) or goes silent while staying open
 * (stallAfterBytes). Faults are consumed first in, first out.
 */

interface Pending {
  fault: DriveFault;
  remaining: number;
}

export class FaultBook {
  private readonly pending: Pending[] = [];

  add(fault: DriveFault): void {
    const problem = checkFault(fault);
    if (problem) throw new RangeError(`invalid fault: ${problem}`);
    this.pending.push({ fault: { ...fault }, remaining: fault.count ?? 1 });
  }

  /** The status fault for this path, if any (consumes one use). */
  takeStatus(path: string): DriveFault | undefined {
    return this.take(path, false);
  }

  /** The truncation or stall fault for this media response, if any (consumes one use). */
  takeMedia(path: string): DriveFault | undefined {
    return this.take(path, true);
  }

  private take(path: string, media: boolean): DriveFault | undefined {
    const i = this.pending.findIndex((p) => isMediaFault(p.fault) === media && path.startsWith(p.fault.path));
    if (i < 0) return undefined;
    const entry = this.pending[i] as Pending;
    entry.remaining--;
    if (entry.remaining <= 0) this.pending.splice(i, 1);
    return entry.fault;
  }
}

function isMediaFault(fault: DriveFault): boolean {
  return fault.truncateAfterBytes !== undefined || fault.stallAfterBytes !== undefined;
}

function isInt(v: unknown): v is number {
  return typeof v === 'number' && Number.isInteger(v);
}

/** Why a fault description is unusable (also validates POST /_sandbox/faults bodies). */
export function checkFault(value: unknown): string | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return 'fault must be an object';
  const f = value as Record<string, unknown>;
  if (typeof f.path !== 'string' || !f.path.startsWith('/')) return 'path must be a string starting with /';
  if (f.truncateAfterBytes !== undefined && f.stallAfterBytes !== undefined) return 'give truncateAfterBytes or stallAfterBytes, not both';
  const mediaKey = f.truncateAfterBytes !== undefined ? 'truncateAfterBytes' : f.stallAfterBytes !== undefined ? 'stallAfterBytes' : undefined;
  if (mediaKey !== undefined) {
    const bytes = f[mediaKey];
    if (!isInt(bytes) || bytes < 0) return `${mediaKey} must be a non-negative integer`;
    if (f.status !== 200 && f.status !== 206) return 'a media fault keeps the response status: status must be 200 or 206';
  } else if (!isInt(f.status) || f.status < 400 || f.status > 599) {
    return 'status must be an integer HTTP error status (400-599)';
  }
  if (f.count !== undefined && (!isInt(f.count) || f.count < 1)) return 'count must be a positive integer';
  if (f.retryAfter !== undefined && (typeof f.retryAfter !== 'number' || !Number.isFinite(f.retryAfter) || f.retryAfter < 0)) {
    return 'retryAfter must be a non-negative number of seconds';
  }
  if (f.reason !== undefined && typeof f.reason !== 'string') return 'reason must be a string';
  if (f.message !== undefined && typeof f.message !== 'string') return 'message must be a string';
  return undefined;
}
