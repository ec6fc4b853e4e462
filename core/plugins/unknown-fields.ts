import type { ActionDefinition, ConnectorDefinition, ResponseMapping, TransportSettings, UpstreamCall, UpstreamErrorSettings } from '../sdk/index.ts';
import { isObject } from './value-shapes.ts';

/** Fields of earlier SDK versions, and where what they said is written now. */
const MOVED: Record<string, string> = {
  okField: 'a `transport.errors.failureInBody(body)` function',
  fieldSelector: 'a `hooks.prepareParams` function',
  fileName: 'a `hooks.fileName` function',
  recordFallbacks: 'a `hooks.transformResponse` function',
};

/** The fields the SDK declares at each level of a definition (checked against its types); anything else is a typo or a field that moved. */
const KNOWN = {
  connector: [
    'type',
    'displayName',
    'version',
    'auth',
    'defaultBaseUrl',
    'transport',
    'pagination',
    'replicationConfig',
    'config',
    'actions',
    'check',
    'replicate',
    'syncStreams',
    'icon',
  ] as const satisfies ReadonlyArray<keyof ConnectorDefinition>,
  transport: ['timeoutMs', 'streamIdleTimeoutMs', 'maxRetries', 'maxRetryAfterSeconds', 'errors'] as const satisfies ReadonlyArray<keyof TransportSettings>,
  errors: ['failureInBody', 'codePath', 'messagePath', 'statusByCode', 'detailByCode', 'rateLimitCodes', 'transientCodes'] as const satisfies ReadonlyArray<
    keyof UpstreamErrorSettings
  >,
  action: [
    'entity',
    'action',
    'description',
    'params',
    'record',
    'meta',
    'request',
    'response',
    'idempotent',
    'paginated',
    'hostedOnly',
    'hooks',
    'searchIndex',
  ] as const satisfies ReadonlyArray<keyof ActionDefinition>,
  request: ['method', 'path', 'body', 'headerParams', 'defaults'] as const satisfies ReadonlyArray<keyof UpstreamCall>,
  response: ['records', 'meta'] as const satisfies ReadonlyArray<keyof ResponseMapping>,
};

/**
 * Fields the SDK does not know, at every level of a definition. A field TypeScript would refuse is
 * silently ignored at run time by a plugin built without type checks; saying so at load is kinder.
 */
export function unknownFields(definition: Record<string, unknown>): string[] {
  const problems = unknownIn(definition, KNOWN.connector, '');
  const transport = definition.transport;
  if (isObject(transport)) {
    problems.push(...unknownIn(transport, KNOWN.transport, 'transport.'));
    if (isObject(transport.errors)) problems.push(...unknownIn(transport.errors, KNOWN.errors, 'transport.errors.'));
  }
  if (Array.isArray(definition.actions)) {
    definition.actions.forEach((action: unknown, index) => {
      if (!isObject(action)) return;
      const where = `actions[${index}] (${String(action.entity)}.${String(action.action)}): `;
      problems.push(...unknownIn(action, KNOWN.action, '', where));
      if (isObject(action.request)) problems.push(...unknownIn(action.request, KNOWN.request, 'request.', where));
      if (isObject(action.response)) problems.push(...unknownIn(action.response, KNOWN.response, 'response.', where));
    });
  }
  return problems;
}

function unknownIn(value: Record<string, unknown>, known: readonly string[], path: string, where = ''): string[] {
  return Object.keys(value)
    .filter((key) => !known.includes(key))
    .map((key) => `${where}unknown field \`${path}${key}\`${MOVED[key] ? `: it is now ${MOVED[key]}` : `; known: ${known.join(', ')}`}`);
}
