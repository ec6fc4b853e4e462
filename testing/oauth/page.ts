/** What a provider's consent page says; the markup (and its Allow/Deny form) is shared. */
export interface ConsentContent {
  title: string;
  /** E.g. "<App> is requesting permission to access the <team> workspace". */
  heading: string;
  /** Who is signed in, or where the grant applies. */
  account: string;
  /** Sections of requested scopes, e.g. bot scopes and user scopes. */
  scopes: Array<{ label: string; scopes: string[] }>;
  /** Label of the refusing button ("Cancel", "Deny"). */
  denyLabel: string;
}

export interface ErrorPageContent {
  title: string;
  heading: string;
  detail: string;
}

const STYLE =
  'body{font-family:system-ui,sans-serif;max-width:36rem;margin:3rem auto;padding:0 1rem;color:#1d1c1d}' +
  'button{font:inherit;padding:.5rem 1.25rem;margin-right:.5rem;border-radius:4px;border:1px solid #888;cursor:pointer}' +
  'button[value=allow]{background:#1a73e8;color:#fff;border-color:#1a73e8}';

/**
 * The consent page: a form posting back to `action` with the authorization request's parameters in
 * hidden inputs, and one submit button per decision (`decision=allow` / `decision=deny`).
 */
export function consentPage(content: ConsentContent, action: string, params: URLSearchParams): string {
  const hidden = [...params].map(([name, value]) => `<input type="hidden" name="${escapeHtml(name)}" value="${escapeHtml(value)}">`).join('\n');
  const scopes = content.scopes
    .filter((section) => section.scopes.length > 0)
    .map((section) => `<h2>${escapeHtml(section.label)}</h2>\n<ul>\n${section.scopes.map((scope) => `<li>${escapeHtml(scope)}</li>`).join('\n')}\n</ul>`)
    .join('\n');
  return page(
    content.title,
    `<h1>${escapeHtml(content.heading)}</h1>
<p>${escapeHtml(content.account)}</p>
${scopes}
<form method="post" action="${escapeHtml(action)}">
${hidden}
<button name="decision" value="deny">${escapeHtml(content.denyLabel)}</button>
<button name="decision" value="allow">Allow</button>
</form>`,
  );
}

/** A refused authorization request: shown to the user, never redirected (the redirect_uri is not trusted). */
export function errorPage(content: ErrorPageContent): string {
  return page(content.title, `<h1>${escapeHtml(content.heading)}</h1>\n<p>${escapeHtml(content.detail)}</p>`);
}

function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>${STYLE}</style>
</head>
<body>
<main>
${body}
</main>
</body>
</html>
`;
}

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
