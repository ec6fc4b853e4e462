/**
 * Leadership of one named job among the console's tabs: `lead` runs in one tab at a time, the others
 * queue behind it (the Web Locks API: a lock is freed as soon as its tab closes or crashes, so the
 * next tab takes over at once). Aborting `signal` leaves the queue, or ends a leadership whose `lead`
 * honours it. Where the browser has no Web Locks (a page not served over HTTPS nor from localhost),
 * every tab leads its own.
 */
export function campaign(name: string, signal: AbortSignal, lead: () => Promise<void>): void {
  if (!navigator.locks) {
    void lead();
    return;
  }
  navigator.locks.request(`plugboard-console ${name}`, { signal }, lead).catch((failure: unknown) => {
    // Left the queue before being granted: nothing to do.
    if ((failure as Error).name !== 'AbortError') throw failure;
  });
}
