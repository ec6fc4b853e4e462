import type { MethodDef } from './context.ts';

/**
 * auth.test: the sandbox's token is its bot's, so it answers as Slack does for a bot token (with
 * `bot_id`). A refused token never gets here: the server answers not_authed / invalid_auth first.
 */
export const authTest: MethodDef = {
  write: false,
  handle({ store }) {
    const bot = store.botByUserId(store.botUserId)!;
    return {
      ok: true,
      url: `https://${store.team.domain}.slack.com/`,
      team: store.team.name,
      user: bot.name,
      team_id: store.team.id,
      user_id: bot.user_id,
      bot_id: bot.bot_id,
      is_enterprise_install: false,
    };
  },
};
