import type { ContentHeightMessage } from '../protocol.ts';

/**
 * Tells the host the height `content` takes, at once and on every change (a view replaced, an error
 * shown), so its dialog fits the content instead of cropping or padding it. The content's own box is
 * measured, not the document's: that one is never shorter than the frame.
 */
export function reportContentHeight(content: HTMLElement, host: Window, allowedOrigin: string): void {
  let reported = 0;
  new ResizeObserver(() => {
    const height = Math.ceil(content.getBoundingClientRect().height);
    if (height === reported) return;
    reported = height;
    host.postMessage({ plugboardContentHeight: height } satisfies ContentHeightMessage, allowedOrigin);
  }).observe(content);
}
