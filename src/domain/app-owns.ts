/**
 * The view attributes a manifest may leave to the app (README, Manifests: `appOwns`):
 * written when viewctl creates the view, then never compared, repaired or pulled, as
 * Terraform's `ignore_changes` leaves an attribute once set. `name` is identity and
 * never among them (the schemas' `AppOwns` enum says the same).
 */

/** APP_OWNABLE are the attributes `appOwns` may name, in the order the plan names them. */
export const APP_OWNABLE = ['columns', 'filters', 'sort', 'icon'] as const;

/** AppOwnable is one attribute a view may leave to the app. */
export type AppOwnable = (typeof APP_OWNABLE)[number];

/** sortedAppOwns is `attributes` without duplicates, in `APP_OWNABLE` order: one spelling for plans and hashes. */
export function sortedAppOwns(attributes: Iterable<AppOwnable>): AppOwnable[] {
  const given = new Set(attributes);
  return APP_OWNABLE.filter((attribute) => given.has(attribute));
}
