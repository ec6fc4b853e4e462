import { ConfigurationError } from '../configuration-error.ts';

/**
 * The deployment's keys are set up so that this instance would fail requests later (a data key missing,
 * or not the one shared with the other instances): raised at start, so the instance refuses to start
 * instead of answering 500s. The message names settings and key ids, never key material.
 */
export class KeyConfigurationError extends ConfigurationError {
  constructor(message: string) {
    super(message);
    this.name = 'KeyConfigurationError';
  }
}
