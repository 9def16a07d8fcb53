/**
 * ApiView is a view as the service returns it, in any domain. Columns, filters and
 * sort are domain-specific JSON; their exact shapes live in `schemas/`.
 */
export interface ApiView {
  viewId: string;
  name: string;
  visibility: 'Public' | 'Private';
  icon?: string;
  isDefault: boolean;
  /** The owner's user id, or `#global` for built-in default views. */
  ownerId: string;
  columns: JsonObject[];
  filters: JsonObject;
  sort: JsonObject[];
}

/** ViewCreateBody is the POST body of `/v1/<domain>/views`: a PATCH body's attributes with a required name and an owner. */
export interface ViewCreateBody extends Omit<ViewPatchBody, 'name' | 'icon'> {
  creatorEmail: string;
  name: string;
  icon?: string;
}

/** ViewPatchBody is the PATCH body of `/v1/<domain>/views/{viewId}`; `icon: null` removes the icon. */
export interface ViewPatchBody {
  name?: string;
  icon?: string | null;
  columns?: JsonObject[];
  filters?: JsonObject;
  sort?: JsonObject[];
}

/** ApiUser is `result.user` and an entry of `result.users`. */
export interface ApiUser {
  id: string;
  email: string;
  name: string;
  license: 'None' | 'Lite' | 'Full';
  role: 'Owner' | 'Admin' | 'Member';
  state: 'Active' | 'Invited' | 'Deactivated';
  isDesktopAppInstalled: boolean;
  isMobileAppInstalled: boolean;
}

/** ApiWorkspace is `result.workspace` of `GET /v1/workspaces/mine`. */
export interface ApiWorkspace {
  id: string;
  name: string;
  createdAt: string;
  membersCount: number;
  recordingsCount: number;
}

/** ApiAdminAutomation is one entry of `GET /v1/admin-automations`, highest priority first. */
export interface ApiAdminAutomation {
  adminAutomationId: string;
  name: string;
  color: string;
  disallowUserOverride: boolean;
  filters: JsonObject[];
  actions: {
    autoRecord?: { onlyHosted: boolean; toBeRecorded: boolean };
    autoShare?: { autoShare: string; publicLayout: string; publicLinkEnabled: boolean; publish: string };
    moveToFolder?: { folderId: string };
    updateOverview?: { sectionIds: string[] };
  };
}

/** ApiErrorType lists the `error.type` values of the settled contract. */
export type ApiErrorType =
  | 'validation_error'
  | 'unauthorized'
  | 'forbidden'
  | 'not_found'
  | 'rate_limited'
  | 'internal_error';

/** Pagination is `result.pagination` of paginated lists; `nextCursor` is absent on the last page. */
export interface Pagination {
  nextCursor?: string;
  totalCount: number;
}

export type JsonValue = null | boolean | number | string | JsonValue[] | JsonObject;

export interface JsonObject {
  [key: string]: JsonValue;
}

/** isJsonObject tells a JSON object from arrays, null and scalars. */
export function isJsonObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
