/**
 * Slack's Block Kit pieces that Airbyte's notifications are made of (airbyte-notification slack/*.kt):
 * every webhook gets them, whatever its host, so a Slack incoming webhook shows them as a message.
 */
export type Block = { type: 'section'; text: Mrkdwn; fields?: Mrkdwn[] } | { type: 'section'; fields: Mrkdwn[]; text?: Mrkdwn } | { type: 'divider' };

export interface Mrkdwn {
  type: 'mrkdwn';
  text: string;
}

/** What a webhook is sent: the legacy text, the blocks, and for a sync's end its summary. */
export interface SlackMessage {
  text: string;
  blocks: Block[];
}

/** Slack refuses a section text over 3000 characters and a field over 2000 (Block Kit's limits). */
const SECTION_LIMIT = 3000;
const FIELD_LIMIT = 2000;

export function section(text: string): Block {
  return { type: 'section', text: mrkdwn(text, SECTION_LIMIT) };
}

/** A section of label-value fields; Slack shows at most ten. */
export function fields(...texts: string[]): Block {
  return { type: 'section', fields: texts.slice(0, 10).map((text) => mrkdwn(text, FIELD_LIMIT)) };
}

export const DIVIDER: Block = { type: 'divider' };

/** `<url|name>`, the name escaped as Slack asks (Airbyte writes `$amp;` for `&`, a typo not kept here). */
export function link(url: string, name: string): string {
  return `<${url}|${escapeMrkdwn(name)}>`;
}

export function escapeMrkdwn(text: string): string {
  return text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');
}

/** Text cut to what Slack takes, ending in an ellipsis when cut, so a long error never makes Slack refuse the whole message. */
export function clipped(text: string, limit: number): string {
  return text.length <= limit ? text : `${text.slice(0, limit - 1)}…`;
}

function mrkdwn(text: string, limit: number): Mrkdwn {
  return { type: 'mrkdwn', text: clipped(text, limit) };
}
