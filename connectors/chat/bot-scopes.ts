/** The Slack bot token scopes the chat connector's methods need: what its OAuth flow asks for, and what the sandbox grants. */
export const BOT_SCOPES = [
  'channels:history',
  'channels:join',
  'channels:manage',
  'channels:read',
  'chat:write',
  'groups:history',
  'groups:read',
  'groups:write',
  'im:history',
  'im:read',
  'mpim:history',
  'mpim:read',
  'reactions:write',
  'users:read',
  'users:read.email',
];
