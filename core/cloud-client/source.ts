import { CloudActor } from './actor.ts';
import type { ApiSource } from './api-types.ts';
import type { CloudWorkspace } from './workspace.ts';

/** A deployed source. Made without a call (getSource); its data loads on first use. */
export class CloudSource extends CloudActor<ApiSource> {
  constructor(workspace: CloudWorkspace, sourceId: string, info?: ApiSource) {
    super(workspace, 'source', sourceId, info);
  }

  get sourceId(): string {
    return this.connectorId;
  }

  async sourceType(): Promise<string> {
    return (await this.info()).sourceType;
  }

  /** Deletes it (and, server-side, the connections using it); safe mode as for the workspace's method. */
  permanentlyDelete(options: { safeMode?: boolean } = {}): Promise<void> {
    return this.workspace.permanentlyDeleteSource(this, options);
  }
}
