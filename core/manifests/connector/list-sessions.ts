import { randomBytes } from 'node:crypto';
import { BadRequestError } from '../../errors.ts';
import type { ReadMessage } from '../read/index.ts';

/** How long a paused read waits for its next page to be asked for. */
const IDLE_MS = 5 * 60_000;
/** Paused reads kept at once (each holds at most one upstream page). */
const MAX_SESSIONS = 256;

/** A stream read paused between two `list` calls: the rest of its messages, and how many records it gave. */
export interface ListSession {
  messages: AsyncGenerator<ReadMessage>;
  /** Records handed out before the pause: a read resumed elsewhere skips them. */
  given: number;
  /** A message read ahead to learn whether more follow. */
  pending?: ReadMessage;
  /** The instance the read belongs to: another one resumes by reading again. */
  owner: object;
  idleTimer?: NodeJS.Timeout;
}

interface Cursor {
  /** The paused read's id. */
  s: string;
  /** Records given before it. */
  n: number;
}

/**
 * Paused manifest reads, so that paging through a stream costs one read, not one per page: a
 * cursor names its paused read. A cursor whose read is gone (expired, another server, a restart)
 * still works: the stream is read again from the start and the records already given are skipped.
 */
export class ListSessions {
  private readonly sessions = new Map<string, ListSession>();

  pause(session: ListSession): string {
    const id = randomBytes(16).toString('base64url');
    if (this.sessions.size >= MAX_SESSIONS) this.close(this.sessions.keys().next().value!);
    session.idleTimer = setTimeout(() => this.close(id), IDLE_MS);
    session.idleTimer.unref();
    this.sessions.set(id, session);
    return Buffer.from(JSON.stringify({ s: id, n: session.given } satisfies Cursor)).toString('base64url');
  }

  /** The paused read a cursor names (taken: a cursor resumes once), or how many records to skip when it is gone. */
  resume(cursor: string, owner: object): { session: ListSession } | { skip: number } {
    const parsed = parseCursor(cursor);
    const session = this.sessions.get(parsed.s);
    if (session && session.owner === owner && session.given === parsed.n) {
      this.sessions.delete(parsed.s);
      clearTimeout(session.idleTimer);
      return { session };
    }
    return { skip: parsed.n };
  }

  private close(id: string): void {
    const session = this.sessions.get(id);
    if (!session) return;
    this.sessions.delete(id);
    clearTimeout(session.idleTimer);
    // Ends the upstream read: its connection and page go.
    void session.messages.return(undefined).catch(() => undefined);
  }
}

function parseCursor(cursor: string): Cursor {
  try {
    const parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as Cursor;
    if (typeof parsed.s === 'string' && Number.isSafeInteger(parsed.n) && parsed.n >= 0) return parsed;
  } catch {
    // Falls through to the error below.
  }
  throw new BadRequestError('The cursor is not one this stream gave (pass `next_cursor` as it was answered)', 'invalid_cursor');
}
