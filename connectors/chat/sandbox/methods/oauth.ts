import type { MethodDef } from './context.ts';

/** oauth.v2.access: exchanges a code, or a refresh token, for tokens; no bearer token, the client authenticates. */
export const oauthV2Access: MethodDef = {
  write: true,
  unauthenticated: true,
  handle: ({ oauth, args, authorization }) => oauth.access(args, authorization),
};

/** auth.revoke: revokes the calling token (`test=true` only says what would happen). */
export const authRevoke: MethodDef = {
  write: false,
  handle: ({ oauth, args, token }) => oauth.revoke(token, args.bool('test', false)),
};
