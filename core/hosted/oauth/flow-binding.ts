import { createHash, randomBytes } from 'node:crypto';

/** Which way a consent was asked for: the public cloud API (`initiateOAuth`), or the embedded widget. */
export type OAuthFlowKind = 'public_api' | 'embedded';

/**
 * What a state and the secret it becomes are bound to: the flow that asked, the workspace (and its
 * organization) the source will be in, and the source type (a public API `sourceType`, or for the
 * widget the template's connector type). A secret serves only a source made the same way for the same.
 */
export interface FlowBinding {
  flow: OAuthFlowKind;
  organizationId: string;
  workspaceId: string;
  sourceType: string;
}

/** A fresh bearer value (a state, a secret id): 32 random bytes, base64url. */
export function randomToken(): string {
  return randomBytes(32).toString('base64url');
}

/** How a bearer value is kept: its SHA-256, so a copy of the table gives no usable state or secret id. */
export function hashOf(value: string): string {
  return createHash('sha256').update(value).digest('base64url');
}

/** PostgreSQL answers a BIGINT as a string. */
export function epochMs(value: number | string): number {
  return Number(value);
}
