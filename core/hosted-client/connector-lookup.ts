import { NotFoundError } from '../errors.ts';
import { expectOk, type HostedSession } from './hosted-session.ts';
import { SharedValue } from './shared-value.ts';

/**
 * The id of the external user's connector of one type, looked up once and shared by concurrent callers.
 * It is kept until the server says it no longer fits (`discard`): a connector deleted and made again
 * has a new id.
 */
export class ConnectorLookup {
  private readonly id = new SharedValue<string>();

  constructor(
    private readonly session: HostedSession,
    private readonly connectorType: string,
  ) {}

  get(token: string): Promise<string> {
    return this.id.get(async () => ({ value: await this.find(token), validUntil: Number.POSITIVE_INFINITY }));
  }

  discard(id: string): void {
    this.id.discard(id);
  }

  private async find(token: string): Promise<string> {
    const { config } = this.session;
    const response = await this.session.http.get('api/v1/integrations/connectors', {
      headers: { authorization: `Bearer ${token}` },
      searchParams: { external_user_id: config.external_user_id, connector_type: this.connectorType },
    });
    const { data } = expectOk(response) as { data: Array<{ id: string }> };
    if (!data[0]) {
      throw new NotFoundError(
        `No ${this.connectorType} connector for external user "${config.external_user_id}" in workspace "${this.session.workspaceName}"`,
        'connector_not_found',
      );
    }
    return data[0].id;
  }
}
