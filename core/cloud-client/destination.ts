import { CloudActor } from './actor.ts';
import type { ApiDestination } from './api-types.ts';
import type { CloudWorkspace } from './workspace.ts';

/** A deployed destination. Made without a call (getDestination); its data loads on first use. */
export class CloudDestination extends CloudActor<ApiDestination> {
  constructor(workspace: CloudWorkspace, destinationId: string, info?: ApiDestination) {
    super(workspace, 'destination', destinationId, info);
  }

  get destinationId(): string {
    return this.connectorId;
  }

  async destinationType(): Promise<string> {
    return (await this.info()).destinationType;
  }

  /** Deletes it (and, server-side, its connections); safe mode as for the workspace's method. */
  permanentlyDelete(options: { safeMode?: boolean } = {}): Promise<void> {
    return this.workspace.permanentlyDeleteDestination(this, options);
  }
}
