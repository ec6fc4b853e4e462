import { CloudApiError, UnsupportedFeatureError } from './errors.ts';

/** A route the server does not serve (404, 405, 501) means it lacks the feature, not that a resource is missing. */
export async function unsupportedIfAbsent<T>(call: Promise<T>, feature: string, apiRoot: string): Promise<T> {
  try {
    return await call;
  } catch (error) {
    if (error instanceof CloudApiError && [404, 405, 501].includes(error.status)) {
      throw new UnsupportedFeatureError(`${feature} are not supported by the server at ${apiRoot}`, { cause: error });
    }
    throw error;
  }
}
