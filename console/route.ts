import { useEffect, useState } from 'preact/hooks';

/** The view the address names, after its `#`: `/`, `/workspaces/<id>`, `/jobs/<id>`... (links work without the server knowing them). */
export function useRoute(): string[] {
  const parts = () => location.hash.replace(/^#\/?/, '').split('/').filter(Boolean).map(decodeURIComponent);
  const [route, setRoute] = useState(parts);
  useEffect(() => {
    const onChange = () => {
      setRoute(parts());
      // A new view: focus its heading, so keyboard and screen-reader users start there.
      requestAnimationFrame(() => document.querySelector<HTMLElement>('main h1')?.focus());
    };
    window.addEventListener('hashchange', onChange);
    return () => window.removeEventListener('hashchange', onChange);
  }, []);
  return route;
}

export const href = (...parts: Array<string | number>) => `#/${parts.map((part) => encodeURIComponent(String(part))).join('/')}`;
