import { SlackError } from './errors.ts';

export const CHANNEL_NAME_MAX = 80;

/**
 * Channel name rules of conversations.create / conversations.rename. Slack also admits some non-ASCII
 * letters; the sandbox keeps to ASCII lowercase letters, digits, hyphen and underscore.
 */
export function validateChannelName(name: string | undefined): string {
  if (name === undefined || name.length === 0) throw new SlackError('invalid_name_required');
  if (name.length > CHANNEL_NAME_MAX) throw new SlackError('invalid_name_maxlength');
  if (!/^[a-z0-9_-]+$/.test(name)) throw new SlackError('invalid_name_specials');
  if (/^[-_]+$/.test(name)) throw new SlackError('invalid_name_punctuation');
  return name;
}
