/**
 * Slack's Web API spec as real clients use it: the `token` parameters go (clients send
 * `Authorization: Bearer`, which the spec does not model), and every GET-only method gets a
 * form-POST twin, since Slack takes any method's arguments as a form body too.
 */

interface SwaggerParameter {
  name: string;
  in: string;
  [key: string]: unknown;
}

interface SwaggerOperation {
  operationId?: string;
  consumes?: string[];
  parameters?: SwaggerParameter[];
  [key: string]: unknown;
}

export interface SlackSwagger {
  swagger: string;
  paths: Record<string, Record<string, SwaggerOperation>>;
  [key: string]: unknown;
}

export function slackWithoutToken(original: SlackSwagger): SlackSwagger {
  const spec = structuredClone(original);
  for (const item of Object.values(spec.paths)) {
    for (const operation of Object.values(item)) {
      if (operation.parameters) operation.parameters = operation.parameters.filter((p) => p.name !== 'token');
    }
    const get = item.get;
    if (!get || item.post) continue;
    const post: SwaggerOperation = { ...structuredClone(get), consumes: ['application/x-www-form-urlencoded'], operationId: `${get.operationId}_post` };
    if (get.parameters) post.parameters = get.parameters.map((p) => (p.in === 'query' ? { ...p, in: 'formData' } : p));
    item.post = post;
  }
  return spec;
}
