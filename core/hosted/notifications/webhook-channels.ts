/**
 * How a message is put for the receiver behind a URL. Airbyte sends every webhook the same Slack-shaped
 * body (Slack, custom URLs, Airbyte Embedded), except Google Chat, which refuses `blocks` and `data`
 * and gets the text alone (SlackNotificationClient.sanitizePayloadForWebhook).
 */
export interface WebhookChannel {
  accepts(url: URL): boolean;
  body(message: { text: string }): unknown;
}

const GOOGLE_CHAT: WebhookChannel = {
  accepts: (url) => url.hostname.toLowerCase() === 'chat.googleapis.com',
  body: (message) => ({ text: message.text }),
};

/** Slack incoming webhooks and every other receiver: the whole message (Slack ignores the keys it does not know). */
const SLACK_SHAPED: WebhookChannel = {
  accepts: () => true,
  body: (message) => message,
};

const CHANNELS: readonly WebhookChannel[] = [GOOGLE_CHAT, SLACK_SHAPED];

/** The exact bytes sent (and signed) to `url` for `message`. */
export function webhookBody(url: string, message: { text: string }): string {
  const target = new URL(url);
  return JSON.stringify(CHANNELS.find((channel) => channel.accepts(target))!.body(message));
}
