import { BadRequestError, ConflictError, NotFoundError, PlugboardError } from '../../errors.ts';

export function permissionNotFound(id: string): NotFoundError {
  return new NotFoundError(`Permission ${id} not found`, 'permission_not_found');
}

export function userNotFound(id: string): NotFoundError {
  return new NotFoundError(`User ${id} not found in the organization`, 'user_not_found');
}

/** 403 naming why: a caller can't grant (or take away) more than it holds. */
export function beyondOwnRole(detail: string): PlugboardError {
  return new PlugboardError(403, detail, 'permission_beyond_own');
}

export function lastOrganizationAdmin(): ConflictError {
  return new ConflictError('The organization must keep an organization_admin: make another user one before this one stops being it', 'last_organization_admin');
}

export function permissionExists(): ConflictError {
  return new ConflictError('The user already has a permission for this workspace or organization: change that one', 'permission_exists');
}

/** A workspace type names its workspace; an organization type none. */
export function scopeMismatch(detail: string): BadRequestError {
  return new BadRequestError(detail, 'permission_scope');
}
