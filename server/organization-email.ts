import { fullFormats } from 'ajv-formats/dist/formats.js';
import { ConfigurationError } from '../core/configuration-error.ts';

const EMAIL = fullFormats.email as RegExp;

/**
 * The contact address the public API's organizations answer (its `email` is required; organizations
 * keep none of their own): PLUGBOARD_ORGANIZATION_EMAIL, else `admin@` the public URL's host when
 * that is a domain name, else `admin@plugboard.invalid` (a reserved name that reaches nobody).
 */
export function organizationEmailSetting(env: NodeJS.ProcessEnv, publicUrl: string): string {
  const configured = env.PLUGBOARD_ORGANIZATION_EMAIL?.trim();
  if (configured) {
    if (!EMAIL.test(configured)) throw new ConfigurationError(`PLUGBOARD_ORGANIZATION_EMAIL must be an email address, got ${JSON.stringify(configured)}`);
    return configured;
  }
  const host = new URL(publicUrl).hostname;
  // An IP address or a name without a dot (localhost) makes no address a client would take.
  const domain = /[a-z]/i.test(host) && host.includes('.') && !host.startsWith('[') ? host : 'plugboard.invalid';
  const address = `admin@${domain}`;
  return EMAIL.test(address) ? address : 'admin@plugboard.invalid';
}
