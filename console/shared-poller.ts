import { ApiError, call, rememberedRead, rememberRead, signedOut, type ValidationIssue } from './api.ts';
import { campaign } from './tab-leadership.ts';

/** What a read answered, as it crosses between tabs (an ApiError is not cloneable: its parts are). */
export interface Answer {
  data?: unknown;
  error?: { status: number; detail: string | ValidationIssue[] };
}
type Listener = (data: unknown, error: ApiError | undefined) => void;
/** How a path is read: one GET, or a list's every page (all-pages.ts). */
export type Reader = (path: string) => Promise<unknown>;
export const readOne: Reader = (path) => call('GET', path);

/** A path read every `everyMs` for the listeners of this tab; one tab (the leader) reads it for all. */
interface Watched {
  key: string;
  path: string;
  read: Reader;
  everyMs: number;
  listeners: Set<Listener>;
  last?: Answer;
  /** When it was last read, by any tab (epoch ms). */
  readAt: number;
  /** Ends this tab's candidacy or leadership. */
  withdrawal?: AbortController;
}

/** A leader's read as the other tabs hear it; without `answer`, nothing changed since the last one. */
interface Shared {
  key: string;
  answer?: Answer;
  etag?: string;
  readAt: number;
}

const watched = new Map<string, Watched>();
let channel: BroadcastChannel | undefined;

const visible = () => document.visibilityState === 'visible';

function deliver(entry: Watched, answer: Answer): void {
  entry.last = answer;
  const error = answer.error && new ApiError(answer.error.status, answer.error.detail);
  for (const listener of entry.listeners) listener(answer.data, error);
}

/** Reads the path now (If-None-Match with the last ETag, as every read) and tells the other tabs what it answered. */
async function readAndShare(entry: Watched): Promise<void> {
  // A read under way counts as the interval's read: a leader granted meanwhile waits for the next.
  const readAt = Date.now();
  entry.readAt = readAt;
  let answer: Answer;
  try {
    answer = { data: await entry.read(entry.path) };
  } catch (failure) {
    const error = failure instanceof ApiError ? failure : new ApiError(0, 'The server could not be reached. Check your connection; the console retries.');
    answer = { error: { status: error.status, detail: error.detail } };
  }
  // A read that changed nothing (a 304, or every page of a list a 304) answers the object it answered last: told as such, not sent again.
  if (answer.data !== undefined && answer.data === entry.last?.data) {
    openChannel().postMessage({ key: entry.key, readAt } satisfies Shared);
    return;
  }
  deliver(entry, answer);
  const message: Shared = { key: entry.key, answer, etag: answer.error ? undefined : rememberedRead(entry.path)?.etag, readAt };
  openChannel().postMessage(message);
}

/** Another tab's read: kept with its ETag (so this tab's own next read may be a 304) and given to the listeners unless unchanged. */
function heard({ key, answer, etag, readAt }: Shared): void {
  const entry = watched.get(key);
  if (!entry) return;
  entry.readAt = Math.max(entry.readAt, readAt);
  if (!answer) return;
  if (answer.error?.status === 401) signedOut.dispatchEvent(new Event('signed-out'));
  if (etag && rememberedRead(entry.path)?.etag === etag && entry.last?.data !== undefined) return;
  if (etag && answer.data !== undefined) rememberRead(entry.path, etag, answer.data);
  deliver(entry, answer);
}

function openChannel(): BroadcastChannel {
  if (!channel) {
    channel = new BroadcastChannel('plugboard-console-poll');
    channel.onmessage = (event: MessageEvent<Shared>) => heard(event.data);
    document.addEventListener('visibilitychange', onVisibility);
  }
  return channel;
}

/** Resolves after `ms`, or at once when `signal` aborts. */
function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        resolve();
      },
      { once: true },
    );
  });
}

/** Leading: read every `everyMs`, the first read when the interval its predecessor started is over. */
async function lead(entry: Watched, signal: AbortSignal): Promise<void> {
  await pause(Math.max(0, entry.readAt + entry.everyMs - Date.now()), signal);
  while (!signal.aborted) {
    await readAndShare(entry);
    await pause(entry.everyMs, signal);
  }
}

/** A visible tab stands for leadership; a hidden one leaves it (and the queue), so a visible tab reads for all. */
function stand(entry: Watched): void {
  if (entry.withdrawal || !visible()) return;
  const withdrawal = new AbortController();
  entry.withdrawal = withdrawal;
  campaign(`poll ${entry.key}`, withdrawal.signal, () => lead(entry, withdrawal.signal));
}

function withdraw(entry: Watched): void {
  entry.withdrawal?.abort();
  entry.withdrawal = undefined;
}

function onVisibility(): void {
  for (const entry of watched.values()) {
    if (!visible()) {
      withdraw(entry);
      continue;
    }
    // Shown again: read at once if no tab read it meanwhile, then stand again.
    if (Date.now() - entry.readAt >= entry.everyMs) void readAndShare(entry);
    stand(entry);
  }
}

/**
 * Keeps `listener` told of `path`, read every `everyMs` by one visible tab of the console for all of
 * them: ten open tabs cost one tab's requests. This tab reads it once at first (when visible), then
 * hears the leader's reads. Returns what stops it and what reads it again now (after a change).
 */
export function watch(path: string, everyMs: number, listener: Listener, read: Reader = readOne): { stop: () => void; readNow: () => void } {
  // One GET and a list's every page are two resources of the same path.
  const key = `${everyMs} ${read === readOne ? 'one' : 'pages'} ${path}`;
  let entry = watched.get(key);
  const first = !entry;
  if (!entry) {
    entry = { key, path, read, everyMs, listeners: new Set(), readAt: 0 };
    watched.set(key, entry);
    openChannel();
  }
  const own = entry;
  own.listeners.add(listener);
  if (!first && own.last) listener(own.last.data, own.last.error && new ApiError(own.last.error.status, own.last.error.detail));
  if (first && visible()) void readAndShare(own);
  stand(own);
  return {
    stop() {
      own.listeners.delete(listener);
      if (own.listeners.size > 0) return;
      withdraw(own);
      watched.delete(key);
    },
    readNow: () => void readAndShare(own),
  };
}
