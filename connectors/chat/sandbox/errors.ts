/** A Slack API failure: answered as HTTP 200 `{"ok":false,"error":code}`, like the real service. */
export class SlackError extends Error {
  constructor(readonly code: string) {
    super(code);
    this.name = 'SlackError';
  }
}
