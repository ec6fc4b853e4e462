import { useEffect, useState } from 'preact/hooks';
import type { ConfigJobInfo } from '../core/hosted/types.generated.ts';
import { type ApiError, call } from './api.ts';

const LIVE_EVERY_MS = 1_000;
export const LIVE = new Set(['pending', 'running', 'incomplete']);

/**
 * A job and its attempts (the config API's jobs/get), read each second until it ends. Each read asks
 * only for the log lines after those already held (`logOffsets`), appended here: a long log is
 * downloaded once, not each second.
 */
export function useJobInfo(jobId: string): { info: ConfigJobInfo | undefined; logs: string[][]; error: ApiError | undefined } {
  const [info, setInfo] = useState<ConfigJobInfo>();
  const [logs, setLogs] = useState<string[][]>([]);
  const [error, setError] = useState<ApiError>();
  useEffect(() => {
    let stopped = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let held: string[][] = [];
    setInfo(undefined);
    setLogs([]);
    const read = async () => {
      try {
        const answer = await call<ConfigJobInfo>('POST', '/api/v1/jobs/get', { id: Number(jobId), logOffsets: held.map((lines) => lines.length) });
        if (stopped) return;
        held = answer.attempts.map(({ logs }, index) => [...(held[index] ?? []), ...(logs?.logLines ?? [])]);
        setInfo(answer);
        setLogs(held);
        setError(undefined);
        if (!LIVE.has(answer.job.status)) return;
      } catch (failure) {
        if (stopped) return;
        setError(failure as ApiError);
      }
      timer = setTimeout(read, LIVE_EVERY_MS);
    };
    void read();
    return () => {
      stopped = true;
      if (timer) clearTimeout(timer);
    };
  }, [jobId]);
  return { info, logs, error };
}
