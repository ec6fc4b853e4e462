import { isObject } from '../../plugins/value-shapes.ts';
import type { ConnectorDefinition } from '../../sdk/index.ts';
import { readPath } from '../../transport/object-path.ts';
import type { Manifest } from './declarative-manifest.ts';

/**
 * `transport.errors.failureInBody` as data: a success body reports a failure when the value at `path`
 * is `equals` (Slack's `{path: "ok", equals: false}`), which a connector in code writes as a function.
 */
export interface FailureInBodyRule {
  path: string;
  equals: string | number | boolean | null;
}

export function isFailureInBodyRule(value: unknown): value is FailureInBodyRule {
  return (
    isObject(value) &&
    Object.keys(value).every((key) => key === 'path' || key === 'equals') &&
    typeof value.path === 'string' &&
    (value.equals === null || ['string', 'number', 'boolean'].includes(typeof value.equals))
  );
}

/**
 * The connector definition a manifest runs as: its data, `failureInBody` rule turned into the function
 * the transport calls, and its type `connectorType` (default: the manifest's own). A rule that is not
 * one is left out, for the manifest checks to name.
 */
export function runnableDefinition(manifest: Manifest, connectorType: unknown = manifest.type): ConnectorDefinition {
  const transport = manifest.transport;
  if (!isObject(transport) || !isObject(transport.errors) || transport.errors.failureInBody === undefined) {
    return { ...manifest, type: connectorType } as unknown as ConnectorDefinition;
  }
  const { failureInBody: rule, ...errors } = transport.errors;
  const failureInBody = isFailureInBodyRule(rule) ? { failureInBody: (body: unknown) => readPath(body, rule.path) === rule.equals } : {};
  return { ...manifest, type: connectorType, transport: { ...transport, errors: { ...errors, ...failureInBody } } } as unknown as ConnectorDefinition;
}
