import { invalidField } from '../../errors.ts';
import type { EgressPolicy } from '../../security/egress/egress-policy.ts';
import { SECRET_MASK } from '../cloud-api/configuration-secrets.ts';
import type { PublicNotifications } from '../types.generated.ts';
import { WORKSPACE_EVENTS } from './workspace-messages.ts';

type Loc = Array<string | number>;

/**
 * A webhook URL as answers show it: scheme and host, the rest masked. The path of a Slack incoming
 * webhook is its credential (anyone holding it may post), and other receivers put tokens there too.
 */
export function maskedUrl(url: string): string {
  const parsed = URL.canParse(url) ? new URL(url) : undefined;
  return parsed ? `${parsed.protocol}//${parsed.host}/${SECRET_MASK}` : SECRET_MASK;
}

/** Scheme and host alone: what a delivery log names. */
export function urlOrigin(url: string): string {
  const { protocol, host } = new URL(url);
  return `${protocol}//${host}`;
}

/**
 * A URL a webhook may be sent to: absolute http(s) (else a 422 at `loc`), and not refused by the egress
 * policy (a 400 `egress_refused`), judged now as far as it can be; each delivery is judged again as it connects.
 */
export async function checkWebhookUrl(url: string, egress: EgressPolicy, loc: Loc): Promise<void> {
  const parsed = URL.canParse(url) ? new URL(url) : undefined;
  if (!parsed || (parsed.protocol !== 'https:' && parsed.protocol !== 'http:')) {
    throw invalidField(loc, 'a webhook URL must be an absolute http:// or https:// URL', 'value_error.url');
  }
  await egress.checkUrl(url, loc.slice(1).join('.'));
}

/** The settings as answers show them: every webhook URL masked. */
export function maskedNotifications(settings: PublicNotifications): PublicNotifications {
  return mapWebhooks(settings, (url) => maskedUrl(url));
}

/**
 * The webhook side of a workspace's `notifications` as given to a create or update: each URL checked
 * (checkWebhookUrl), and a masked URL sent back (a client writing back what it read) replaced by the
 * stored one of the same event; a mask with nothing behind it is refused rather than stored.
 */
export class WorkspaceWebhookSettings {
  constructor(private readonly egress: EgressPolicy) {}

  async accept(given: PublicNotifications, stored: object | null | undefined, loc: Loc = ['body', 'notifications']): Promise<PublicNotifications> {
    const storedSettings = (stored ?? {}) as PublicNotifications;
    const restored = mapWebhooks(given, (url, event) => {
      if (!url.includes(SECRET_MASK)) return url;
      const kept = storedSettings[event]?.webhook?.url;
      if (kept !== undefined && maskedUrl(kept) === url) return kept;
      throw invalidField(
        [...loc, event, 'webhook', 'url'],
        `${SECRET_MASK} stands for a stored URL, and none is stored here: send the URL itself`,
        'value_error.masked_secret',
      );
    });
    for (const event of WORKSPACE_EVENTS) {
      const url = restored[event]?.webhook?.url;
      // Airbyte's clients send `url: ""` with the webhook off.
      if (url !== undefined && url !== '') await checkWebhookUrl(url, this.egress, [...loc, event, 'webhook', 'url']);
    }
    return restored;
  }
}

function mapWebhooks(settings: PublicNotifications, map: (url: string, event: (typeof WORKSPACE_EVENTS)[number]) => string): PublicNotifications {
  const copy: PublicNotifications = { ...settings };
  for (const event of WORKSPACE_EVENTS) {
    const entry = settings[event];
    const url = entry?.webhook?.url;
    if (!entry || url === undefined || url === '') continue;
    copy[event] = { ...entry, webhook: { ...entry.webhook, url: map(url, event) } };
  }
  return copy;
}
