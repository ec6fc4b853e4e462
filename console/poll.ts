import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { ApiError } from './api.ts';
import { type Reader, readOne, watch } from './shared-poller.ts';

export interface Polled<T> {
  data: T | undefined;
  error: ApiError | undefined;
  /** Reads again now (after a change the user made). */
  reload: () => void;
}

/**
 * A read kept fresh: again every `everyMs` by one visible tab of the console, which shares each
 * answer with the others (shared-poller.ts), each read with If-None-Match, answered 304 when nothing
 * changed. `everyMs` 0 reads once (when the tab is visible); `path` undefined reads nothing. What a
 * former path answered is not given as the new one's. `read` may read a list's every page (all-pages.ts).
 */
export function usePoll<T>(path: string | undefined, everyMs = 0, read: Reader = readOne): Polled<T> {
  const [answer, setAnswer] = useState<{ path: string; data?: T; error?: ApiError }>();
  const [generation, setGeneration] = useState(0);
  const readNow = useRef<() => void>();

  useEffect(() => {
    if (!path) return;
    const told = (data: unknown, error: ApiError | undefined) =>
      setAnswer((before) => ({ path, data: error ? (before?.path === path ? before.data : undefined) : (data as T), error }));
    if (everyMs > 0) {
      const watching = watch(path, everyMs, told, read);
      readNow.current = watching.readNow;
      return watching.stop;
    }
    let stopped = false;
    const readOnce = () => {
      if (document.visibilityState !== 'visible') return;
      document.removeEventListener('visibilitychange', readOnce);
      read(path).then(
        (data) => !stopped && told(data, undefined),
        (failure) =>
          !stopped && told(undefined, failure instanceof ApiError ? failure : new ApiError(0, 'The server could not be reached. Check your connection.')),
      );
    };
    // A hidden tab asks nothing: its first read waits until it is shown.
    document.addEventListener('visibilitychange', readOnce);
    readOnce();
    readNow.current = () => setGeneration((n) => n + 1);
    return () => {
      stopped = true;
      document.removeEventListener('visibilitychange', readOnce);
    };
  }, [path, everyMs, read, generation]);

  const reload = useCallback(() => readNow.current?.(), []);
  const current = answer?.path === path ? answer : undefined;
  return { data: current?.data, error: current?.error, reload };
}
