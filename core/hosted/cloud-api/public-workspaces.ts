import { randomUUID } from 'node:crypto';
import { AccessDeniedError, ConflictError, NotFoundError } from '../../errors.ts';
import { DuplicateKeyError, type Store, type Workspace } from '../../stores/types.ts';
import type { HostedConnectors } from '../hosted-connectors.ts';
import { checkRegionId, DEFAULT_REGION_ID, REGIONS } from '../regions.ts';
import { maskedNotifications, type WorkspaceWebhookSettings } from '../notifications/webhook-urls.ts';
import { readableWorkspaces, requireOrganization } from '../permissions/request-access.ts';
import type { PublicWorkspace, PublicWorkspaceCreateRequest, PublicWorkspaceUpdateRequest } from '../types.generated.ts';
import { workspaceNotFound as notFound, workspaceOf } from './organization-workspaces.ts';
import type { WorkspaceResources } from './workspace-resources.ts';

/** A region's data residency, as the public API names it. */
const RESIDENCY: Record<string, PublicWorkspace['dataResidency']> = { [REGIONS.US]: 'us', [REGIONS.EU]: 'eu' };

export interface PublicPage<T> {
  items: T[];
  /** Whether a page follows this one. */
  more: boolean;
}

/**
 * Workspaces through the public cloud API: the very workspaces the embedded endpoints provision
 * (so a scoped token for a workspace created here finds it, and one made there is listed here), seen
 * by an organization's operator token. Another organization's workspace is not found.
 */
export class PublicWorkspaces {
  /** Checks `notifications` as written (webhook URLs the egress policy allows, masked ones restored); set by the runtime's wiring. */
  notificationSettings?: Pick<WorkspaceWebhookSettings, 'accept'>;

  constructor(
    private readonly store: Store,
    /** Deleting a workspace deletes its connectors through here, so their replicated records go too. */
    private readonly connectors: HostedConnectors,
    /** And its sources, destinations and connections of this API. */
    private readonly resources: WorkspaceResources,
  ) {}

  /** The organization's workspaces the caller may read (those of `ids` when given), a page. */
  async list(organizationId: string, page: { ids?: string[]; limit: number; offset: number }): Promise<PublicPage<PublicWorkspace>> {
    const ids = readableWorkspaces(page.ids);
    if (ids?.length === 0) return { items: [], more: false };
    const rows = await this.store.listWorkspaces(organizationId, { ...page, ...(ids ? { ids } : {}), limit: page.limit + 1 });
    return { items: rows.slice(0, page.limit).map(toPublic), more: rows.length > page.limit };
  }

  async get(organizationId: string, id: string): Promise<PublicWorkspace> {
    return toPublic(await this.find(organizationId, id));
  }

  async create(organizationId: string, input: PublicWorkspaceCreateRequest): Promise<PublicWorkspace> {
    if (input.organizationId !== undefined && input.organizationId.toLowerCase() !== organizationId) throw new AccessDeniedError();
    requireOrganization();
    const regionId = input.regionId === undefined ? DEFAULT_REGION_ID : checkRegionId(input.regionId, ['body', 'regionId']);
    const workspace: Workspace = {
      id: randomUUID(),
      organization_id: organizationId,
      name: input.name,
      region_id: regionId,
      created_at: new Date().toISOString(),
      notifications: input.notifications ? await this.acceptNotifications(input.notifications, null) : null,
    };
    const kept = await this.store.createWorkspaceIfAbsent(workspace);
    if (kept.id !== workspace.id) throw nameTaken(input.name);
    return toPublic(kept);
  }

  async update(organizationId: string, id: string, input: PublicWorkspaceUpdateRequest): Promise<PublicWorkspace> {
    const workspace = await this.find(organizationId, id);
    const changes = {
      ...(input.name !== undefined ? { name: input.name } : {}),
      ...(input.regionId !== undefined ? { region_id: checkRegionId(input.regionId, ['body', 'regionId']) } : {}),
      ...(input.notifications !== undefined ? { notifications: await this.acceptNotifications(input.notifications, workspace.notifications) } : {}),
    };
    const changed = await this.store.updateWorkspace(id, changes).catch((error: unknown) => {
      throw error instanceof DuplicateKeyError ? nameTaken(input.name ?? '') : error;
    });
    if (!changed) throw notFound(id);
    return toPublic({ ...workspace, ...changes });
  }

  /** The workspace and everything in it: its connectors (with what replication stored for them), tokens' origins, this API's resources. */
  async delete(organizationId: string, id: string): Promise<void> {
    await this.find(organizationId, id);
    await this.resources.deleteAll(id.toLowerCase());
    for (const connector of await this.store.listConnectors({ workspace_id: id })) {
      await this.connectors.delete({ organization_id: organizationId }, connector.id).catch((error: unknown) => {
        if (!(error instanceof NotFoundError)) throw error;
      });
    }
    if (!(await this.store.deleteWorkspace(id))) throw notFound(id);
  }

  private acceptNotifications(given: PublicWorkspace['notifications'], stored: Workspace['notifications']): Promise<PublicWorkspace['notifications']> {
    return this.notificationSettings ? this.notificationSettings.accept(given, stored) : Promise.resolve(given);
  }

  private find(organizationId: string, id: string): Promise<Workspace> {
    return workspaceOf(this.store, organizationId, id);
  }
}

function toPublic(workspace: Workspace): PublicWorkspace {
  return {
    workspaceId: workspace.id,
    name: workspace.name,
    dataResidency: RESIDENCY[workspace.region_id] ?? 'us',
    // Stored as the schema admitted it when written; a webhook URL is a credential (a Slack one is), shown as its host.
    notifications: maskedNotifications((workspace.notifications ?? {}) as PublicWorkspace['notifications']),
  };
}

function nameTaken(name: string): ConflictError {
  return new ConflictError(`A workspace named "${name}" already exists in this organization`, 'workspace_exists');
}
