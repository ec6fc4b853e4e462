import type { ApiFailure } from './api.ts';
import type { ConsentOutcome } from './oauth-consent.ts';

/** What the end user is told while the provider's window is open. */
export const waitingFor = (provider: string) => `Waiting for you to finish in the ${provider} window…`;

/**
 * A consent that granted nothing, as the failure the widget shows: a sentence for each way it ends
 * (the server's own refusal when it would not start it), with an error code of its own.
 */
export function consentFailure(outcome: Exclude<ConsentOutcome, { ok: true }>, provider: string): ApiFailure {
  switch (outcome.reason) {
    case 'blocked':
      return failure('popup_blocked', `Your browser blocked the window to sign in to ${provider}. Allow pop-ups for this page, then try again.`);
    case 'closed':
      return failure('popup_closed', `The ${provider} window was closed before you finished, so nothing was connected. Try again when you are ready.`);
    case 'refused':
      return outcome.failure;
    case 'error':
      return outcome.code === 'access_denied'
        ? failure('access_denied', `You declined access in ${provider}, so nothing was connected.`)
        : failure(outcome.code, `Connecting to ${provider} failed with the error ${outcome.code}. Try again.`);
  }
}

function failure(error_code: string, detail: string): ApiFailure {
  return { status: 0, detail, error_code };
}

/** A failure as the end user reads it: the server's detail, but where it speaks to the operator (a missing app: it names API routes). */
export function forEndUser<F extends ApiFailure>(failure: F | undefined, provider: string): F | undefined {
  if (failure?.error_code !== 'oauth_app_not_registered') return failure;
  return { ...failure, detail: `Connecting with ${provider} is not set up in this app yet. Use a token instead, or ask the app's support.` };
}
