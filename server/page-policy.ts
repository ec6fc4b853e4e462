/**
 * The Content-Security-Policy of the pages the server serves (the widget's, the console's): their own
 * files and API only, nothing inline, plus what each page adds (where forms may go, who may frame it).
 */
export function pagePolicy(...extra: string[]): string {
  return ["default-src 'none'", "script-src 'self'", "style-src 'self'", "connect-src 'self'", "img-src 'self' data:", "base-uri 'none'", ...extra].join('; ');
}
