import { useCallback, useEffect, useState } from 'preact/hooks';
import { ApiError, call } from './api.ts';

export interface Polled<T> {
  data: T | undefined;
  error: ApiError | undefined;
  /** Reads again now (after a change the user made). */
  reload: () => void;
}

/**
 * A read kept fresh: again every `everyMs` while the tab is visible (a hidden tab asks nothing, so
 * ten open tabs cost one tab's requests), each with If-None-Match, answered 304 when nothing changed.
 * `everyMs` 0 reads once; `path` undefined reads nothing.
 */
export function usePoll<T>(path: string | undefined, everyMs = 0): Polled<T> {
  const [data, setData] = useState<T>();
  const [error, setError] = useState<ApiError>();
  const [generation, setGeneration] = useState(0);
  const reload = useCallback(() => setGeneration((n) => n + 1), []);

  useEffect(() => {
    if (!path) return;
    let stopped = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const read = async () => {
      timer = undefined;
      if (document.visibilityState !== 'visible') return;
      try {
        const answer = await call<T>('GET', path);
        if (!stopped) {
          setData(answer);
          setError(undefined);
        }
      } catch (failure) {
        if (!stopped)
          setError(failure instanceof ApiError ? failure : new ApiError(0, 'The server could not be reached. Check your connection; the console retries.'));
      }
      if (!stopped && everyMs > 0) timer = setTimeout(read, everyMs);
    };
    const onVisible = () => {
      if (document.visibilityState === 'visible' && timer === undefined && everyMs > 0) void read();
    };
    void read();
    document.addEventListener('visibilitychange', onVisible);
    return () => {
      stopped = true;
      if (timer) clearTimeout(timer);
      document.removeEventListener('visibilitychange', onVisible);
    };
  }, [path, everyMs, generation]);

  return { data, error, reload };
}
