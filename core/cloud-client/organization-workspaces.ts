import type { ApiWorkspace } from './api-types.ts';
import type { CloudClientConfig } from './config.ts';
import { ApiClient } from './http/api-client.ts';

/**
 * The organization's workspaces, which a CloudWorkspace (one workspace's client, as PyAirbyte's)
 * cannot make: the first step of a new install, before there is a workspace id to give.
 */
export class CloudWorkspaces {
  private readonly api: ApiClient;

  constructor(readonly config: CloudClientConfig) {
    this.api = new ApiClient(config);
  }

  /** Creates a workspace of the organization the credentials belong to; a name already taken is a 409 CloudApiError. */
  create(name: string): Promise<ApiWorkspace> {
    return this.api.post<ApiWorkspace>('/workspaces', { name });
  }

  /** Every workspace of the organization, page after page. */
  list(): Promise<ApiWorkspace[]> {
    return this.api.getAll<ApiWorkspace>('/workspaces');
  }
}
