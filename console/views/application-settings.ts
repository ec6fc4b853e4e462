import type { PermissionType, PublicPermissionList, PublicUserList } from '../../core/hosted/types.generated.ts';
import { ROLES } from '../../core/hosted/permissions/roles.ts';
import { type ApiError, call } from '../api.ts';
import { html } from '../html.ts';
import { useCan } from '../permissions.ts';
import { usePoll } from '../poll.ts';
import { ErrorNote } from '../states.ts';
import { useState } from 'preact/hooks';

/** The types a permission of each scope may be changed to (a workspace's stays a workspace's). */
const TYPES_BY_SCOPE = {
  organization: (Object.keys(ROLES) as PermissionType[]).filter((type) => ROLES[type].scope === 'organization'),
  workspace: (Object.keys(ROLES) as PermissionType[]).filter((type) => ROLES[type].scope === 'workspace' && type !== 'workspace_owner'),
};

/** The organization's applications (its users) and their permissions; an administrator changes a permission's type here. */
export function ApplicationSettings({ organizationId }: { organizationId: string }) {
  const isAdmin = useCan('admin');
  const users = usePoll<PublicUserList>(`/v1/users?organizationId=${organizationId}`);
  const permissions = usePoll<PublicPermissionList>(`/v1/permissions?organizationId=${organizationId}`);
  const [error, setError] = useState<ApiError>();
  const change = async (permissionId: string, permissionType: string) => {
    setError(undefined);
    try {
      await call('PATCH', `/v1/permissions/${permissionId}`, { permissionType });
      permissions.reload();
    } catch (failure) {
      setError(failure as ApiError);
    }
  };
  return html`<section aria-labelledby="applications-heading">
    <h2 id="applications-heading">Applications and permissions</h2>
    <p class="muted">Each application is a user of the organization; what its tokens may do is what its permissions allow. New applications come from <code>npm run admin</code>.</p>
    <${ErrorNote} error=${users.error ?? permissions.error ?? error} />
    <div class="table-wrap"><table>
      <caption class="visually-hidden">Applications and their permissions</caption>
      <thead><tr><th scope="col">Application</th><th scope="col">Permission</th><th scope="col">Scope</th></tr></thead>
      <tbody>
        ${(permissions.data?.data ?? []).map((permission) => {
          const user = users.data?.data.find((one) => one.id === permission.userId);
          const types = permission.scope === 'workspace' ? TYPES_BY_SCOPE.workspace : TYPES_BY_SCOPE.organization;
          const label = `Permission of ${user?.name ?? permission.userId} in ${permission.scope} ${permission.scopeId}`;
          return html`<tr key=${permission.permissionId}>
            <th scope="row">${user?.name ?? permission.userId}</th>
            <td>
              ${
                isAdmin && permission.scope !== 'none'
                  ? html`<select aria-label=${label} value=${permission.permissionType} onChange=${(event: Event) => change(permission.permissionId, (event.target as HTMLSelectElement).value)}>
                      ${types.map((type) => html`<option value=${type}>${type.replaceAll('_', ' ')}</option>`)}
                    </select>`
                  : permission.permissionType.replaceAll('_', ' ')
              }
            </td>
            <td>${permission.scope} <code>${permission.scopeId}</code></td>
          </tr>`;
        })}
      </tbody>
    </table></div>
  </section>`;
}
