import { authTest } from './auth.ts';
import { chatPostMessage, chatUpdate } from './chat.ts';
import type { MethodDef } from './context.ts';
import {
  conversationsCreate,
  conversationsInfo,
  conversationsJoin,
  conversationsList,
  conversationsRename,
  conversationsSetPurpose,
  conversationsSetTopic,
} from './conversations.ts';
import { conversationsHistory, conversationsReplies } from './history.ts';
import { authRevoke, oauthV2Access } from './oauth.ts';
import { reactionsAdd } from './reactions.ts';
import { usersInfo, usersList } from './users.ts';

export type { MethodContext, MethodDef } from './context.ts';

/** The Web API methods the sandbox emulates, by Slack method name. */
export const METHODS: Readonly<Record<string, MethodDef>> = {
  'auth.test': authTest,
  'auth.revoke': authRevoke,
  'oauth.v2.access': oauthV2Access,
  'users.list': usersList,
  'users.info': usersInfo,
  'conversations.list': conversationsList,
  'conversations.info': conversationsInfo,
  'conversations.create': conversationsCreate,
  'conversations.join': conversationsJoin,
  'conversations.rename': conversationsRename,
  'conversations.history': conversationsHistory,
  'conversations.replies': conversationsReplies,
  'conversations.setTopic': conversationsSetTopic,
  'conversations.setPurpose': conversationsSetPurpose,
  'chat.postMessage': chatPostMessage,
  'chat.update': chatUpdate,
  'reactions.add': reactionsAdd,
};
