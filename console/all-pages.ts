import { call } from './api.ts';

/** The API's largest page. */
const PAGE = 100;
/** A bound on pages followed (100,000 items), so a server that always says `next` cannot loop the console. */
const MOST_PAGES = 1_000;

interface Page<T> {
  data: T[];
  next?: string;
}

/** The pages last read for each list, and the list they made: answered again as the same object when no page changed (all 304s). */
const lastRead = new Map<string, { pages: unknown[]; all: { data: unknown[] } }>();

/**
 * Every item of a paged list of the public API (`limit`/`offset`, `next` while more follow), read a
 * page after another, each with its own ETag as every read: counts past the first 100 are right.
 */
export async function readAllPages<T>(path: string): Promise<{ data: T[] }> {
  const pages: Array<Page<T>> = [];
  for (let offset = 0; pages.length < MOST_PAGES; offset += PAGE) {
    const page = await call<Page<T>>('GET', `${path}${path.includes('?') ? '&' : '?'}limit=${PAGE}&offset=${offset}`);
    pages.push(page);
    if (!page.next || page.data.length === 0) break;
  }
  const before = lastRead.get(path);
  if (before && before.pages.length === pages.length && pages.every((page, index) => page === before.pages[index])) return before.all as { data: T[] };
  const all = { data: pages.flatMap((page) => page.data) };
  lastRead.set(path, { pages, all });
  return all;
}
