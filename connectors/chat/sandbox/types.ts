import type { OAuthSandboxOptions } from '../../../testing/oauth/index.ts';

/**
 * Public types of the Slack sandbox, plus the wire shapes it emits. Wire shapes follow the Slack Web
 * API (objs_user, objs_conversation, objs_message in slack_web_openapi_v2); optional members are the
 * ones real Slack leaves out in some cases (deleted users, system messages, IMs).
 */

export interface SlackSandboxOptions extends OAuthSandboxOptions {
  /**
   * The static credential, as `Authorization: Bearer <token>`: valid forever, like a pasted bot token.
   * Tokens issued by OAuth (`tokenTtlSeconds`, default 43200; `oauthClient`) are accepted on top.
   */
  token: string;
  /** Default 0: an ephemeral port. */
  port?: number;
  /** Default 127.0.0.1. */
  host?: string;
  /** Default 1. Same seed and sizes give identical data. */
  seed?: number;
  /**
   * Wall clock of the effects of API calls (new message ts, topic times) and of OAuth code and token
   * lifetimes, in milliseconds. Default Date.now; a fixed clock makes two sandboxes answer the same
   * writes identically.
   */
  clock?: () => number;
  /** Milliseconds each API method waits before answering (default 0): a real network's round trip, for runs that must last. */
  latencyMs?: number;
  /** Members returned by users.list (bot user and Slackbot included). Default 50. */
  users?: number;
  /** Public plus private channels (IMs and one MPIM come on top). Default 20. */
  channels?: number;
  /** Top-level messages per channel, thread replies come on top. Default 60. */
  messagesPerChannel?: number;
  /**
   * Default true: every request is kept in `requests`, for tests to inspect. A long-running sandbox
   * (the CLI) turns it off, or the log would grow with every request it ever answers.
   */
  recordRequests?: boolean;
}

export type ArgForm = 'query' | 'form' | 'json';

export interface SandboxRequestLogEntry {
  method: string;
  httpMethod: string;
  contentType: string | null;
  args: Record<string, string | number | boolean | unknown>;
  argForm: ArgForm;
}

export interface SandboxFault {
  method: string;
  status: number;
  /** Default 1. */
  count?: number;
  /** Seconds; sets the Retry-After header. */
  retryAfter?: number;
  /** Perform the real effect first, then answer with the fault status (an ambiguous failure). */
  afterProcessing?: boolean;
  /** Answer `{ok: false, error}` with this code, as Slack reports its own failures (with `status` 200, usually). */
  error?: string;
}

export type ConversationType = 'public_channel' | 'private_channel' | 'mpim' | 'im';

export interface TopicValue {
  value: string;
  creator: string;
  last_set: number;
}

export interface SlackUserProfile {
  title: string;
  phone: string;
  skype: string;
  real_name: string;
  real_name_normalized: string;
  display_name: string;
  display_name_normalized: string;
  fields: Record<string, unknown> | null;
  status_text: string;
  status_emoji: string;
  status_emoji_display_info: unknown[];
  status_expiration: number;
  avatar_hash: string;
  email?: string;
  first_name: string;
  last_name: string;
  image_24: string;
  image_32: string;
  image_48: string;
  image_72: string;
  image_192: string;
  image_512: string;
  status_text_canonical: string;
  team: string;
  bot_id?: string;
  api_app_id?: string;
  always_active?: boolean;
}

/** A users.list member. Deleted users lack the role, colour and time-zone fields, as in real Slack. */
export interface SlackUser {
  id: string;
  team_id: string;
  name: string;
  deleted: boolean;
  color?: string;
  real_name?: string;
  tz?: string;
  tz_label?: string;
  tz_offset?: number;
  profile: SlackUserProfile;
  is_admin?: boolean;
  is_owner?: boolean;
  is_primary_owner?: boolean;
  is_restricted?: boolean;
  is_ultra_restricted?: boolean;
  is_bot: boolean;
  is_app_user: boolean;
  updated: number;
  is_email_confirmed?: boolean;
  who_can_share_contact_card?: string;
}

/** In-memory conversation state; the wire object is derived from it per request (is_member etc.). */
export interface SandboxChannel {
  id: string;
  kind: ConversationType;
  name: string;
  created: number;
  creator: string;
  is_archived: boolean;
  is_general: boolean;
  members: Set<string>;
  topic: TopicValue;
  purpose: TopicValue;
  previous_names: string[];
  /** Milliseconds, as Slack reports it. */
  updated: number;
  /** IM only: the other party. */
  user?: string;
  properties?: Record<string, unknown>;
}

export interface SlackReaction {
  name: string;
  users: string[];
  count: number;
}

export interface SlackAttachment {
  id: number;
  fallback?: string;
  color?: string;
  pretext?: string;
  title?: string;
  title_link?: string;
  text?: string;
  footer?: string;
  ts?: number | string;
  [key: string]: unknown;
}

/**
 * A stored message. Field names match the wire so tests can read them directly; `micros` is the ts
 * as an integer (seconds * 1e6 + microseconds) for ordering and range queries.
 */
export interface SandboxMessage {
  channel: string;
  ts: string;
  micros: number;
  type: 'message';
  subtype?: string;
  user: string;
  text: string;
  team?: string;
  client_msg_id?: string;
  blocks?: unknown[];
  attachments?: SlackAttachment[];
  bot_id?: string;
  app_id?: string;
  edited?: { user: string; ts: string };
  /** Set on thread replies (the parent's ts) and on parents once they have replies (their own ts). */
  thread_ts?: string;
  parent_user_id?: string;
  reply_count?: number;
  reply_users?: string[];
  reply_users_count?: number;
  latest_reply?: string;
  is_locked?: boolean;
  subscribed?: boolean;
  reactions?: SlackReaction[];
  /** Extra fields of system messages (channel_topic, channel_purpose, channel_name). */
  topic?: string;
  purpose?: string;
  name?: string;
  old_name?: string;
}

export interface SandboxTeam {
  id: string;
  name: string;
  domain: string;
}

export interface SandboxBotInfo {
  user_id: string;
  bot_id: string;
  app_id: string;
  name: string;
  updated: number;
}

export interface SandboxData {
  readonly team: SandboxTeam;
  /** users.list order (sorted by id). */
  readonly users: readonly SlackUser[];
  /** Every conversation including ones the bot cannot see, sorted by id (conversations.list order). */
  readonly channels: readonly SandboxChannel[];
  /** Per conversation id: every message including thread replies, oldest first. */
  readonly messages: ReadonlyMap<string, readonly SandboxMessage[]>;
}
