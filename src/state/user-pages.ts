/** USERS_PAGE is how many users one `GET /v1/users` request asks for: the largest page. */
export const USERS_PAGE = 100;

/**
 * userReads is what reading the users costs for a workspace of `members` members: one
 * request per page of USERS_PAGE, and one at least. The workspace counts its active
 * members only; the list also holds invited and deactivated accounts, so a workspace
 * with many of those can take a page more.
 */
export function userReads(members: number): number {
  return Math.max(1, Math.ceil(members / USERS_PAGE));
}
