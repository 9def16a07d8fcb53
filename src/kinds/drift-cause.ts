/**
 * The causes drift is grouped by (README, "Drift: who, what, when"): what happened to a
 * target in the app, told from the change alone (before is live, after is what the
 * manifests ask). Each kind names its changes' cause (`DriftLabels.driftCause`); a kind with a
 * cause of its own adds it here, with its place in the order plans show them.
 */

/**
 * DriftCause is why a target with an origin differs: a member's tabs `reordered` (the
 * same tabs), `added` (tabs the manifests do not list), `removed` (listed tabs gone),
 * `added-and-removed`; a view's attributes `edited` or only its name (`renamed`); a
 * declared view `deleted` in the app (planned as a create); a member's tab that went
 * with it (`lost-with-view`: the service unpins a deleted view everywhere, so the member
 * removed nothing); an undeclared view
 * `created` in the app (pruned); an admin automation changed in the settings
 * (`automation`); a member newly reached by a group (`membership`: joined, or a role
 * changed).
 */
export type DriftCause =
  | 'reordered'
  | 'added'
  | 'removed'
  | 'added-and-removed'
  | 'edited'
  | 'renamed'
  | 'deleted'
  | 'lost-with-view'
  | 'created'
  | 'automation'
  | 'membership';

/**
 * DriftPlan is what the rest of the plan tells a kind about one change's cause: the
 * views deleted in the app that the plan creates again (`createdKey`), which a member's
 * list lost with them.
 */
export interface DriftPlan {
  recreated: ReadonlySet<string>;
}

/** DRIFT_CAUSES lists the causes in the order plans show them: the members' tabs first, then views, then membership. */
export const DRIFT_CAUSES: readonly DriftCause[] = [
  'reordered',
  'added',
  'removed',
  'added-and-removed',
  'edited',
  'renamed',
  'deleted',
  'lost-with-view',
  'created',
  'automation',
  'membership',
];
