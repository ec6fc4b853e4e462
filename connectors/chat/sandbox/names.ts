import { SlackError } from './errors.ts';

export const CHANNEL_NAME_MAX = 80;

/**
 * Letters without case (CJK, Arabic...) and lowercase letters of any script, digits, hyphen and
 * underscore: workspaces name channels in their own language. Upper case and punctuation are
 * "special characters" to Slack (invalid_name_specials).
 */
const CHANNEL_NAME_CHARS = /^[\p{Ll}\p{Lo}\p{Lm}\p{Mn}\p{Mc}\p{Nd}_-]+$/u;

/** Channel name rules of conversations.create / conversations.rename; lengths count characters, not UTF-16 units. */
export function validateChannelName(name: string | undefined): string {
  if (name === undefined || name.length === 0) throw new SlackError('invalid_name_required');
  if (characterCount(name) > CHANNEL_NAME_MAX) throw new SlackError('invalid_name_maxlength');
  if (!CHANNEL_NAME_CHARS.test(name)) throw new SlackError('invalid_name_specials');
  if (/^[-_]+$/.test(name)) throw new SlackError('invalid_name_punctuation');
  return name;
}

/** Slack's length limits count characters: an emoji is one, not the two UTF-16 units of `.length`. */
export function characterCount(text: string): number {
  let count = 0;
  for (const _ of text) count++;
  return count;
}
