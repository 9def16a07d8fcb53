import { formatLine } from '../domain/source-position.js';
import type { DriftGroup } from '../plan/drift-causes.js';
import type { Action, Change, Plan } from '../plan/types.js';
import { formatCount, plural } from '../text/plural.js';
import { GROUP_THRESHOLD } from './review-entries.js';
import { appliedText, when } from './dates.js';
import { ACTION_NOUNS, byAction } from './format.js';
import { firstNames, type Escape } from './name-list.js';

/**
 * The words of drift, shared by the text and markdown plans (README, "Drift: who, what,
 * when"): a line per cause ("12 members re-ordered their deals tabs in the app"), who
 * (the members, or each view and its owner, listed once), when ("changed between DATE
 * (last read) and now": the service records neither editor nor time), and the way to
 * repair or keep it. Plain text; each renderer escapes it (`escape`).
 */

/** DriftWords are one cause's lines: `title`, `sources` (the manifest lines that ask otherwise, not escaped), `names` (who, each once), `when` and `way` (repair or keep). */
export interface DriftWords {
  title: string;
  sources: string[];
  names: string[];
  when: string;
  way: string;
}

/** SOURCES_SHOWN is how many distinct manifest lines a cause names before counting the rest. */
const SOURCES_SHOWN = 2;

/** NAMES_SHOWN is how many members or views a cause names before counting the rest; every deletion is named. */
export const NAMES_SHOWN = 5;

/**
 * driftWords tells one cause. A change labelled `outside` happened in the app and is
 * said so; a hedged one (`unapplied-or-outside`) says what differs and not how.
 * `remembered` is `remembers(plan)`, read once per plan rendered.
 */
export function driftWords(
  group: DriftGroup,
  remembered: boolean,
  escapeName: Escape,
  strong: Escape = (name) => `"${name}"`,
): DriftWords {
  const time = group.cause === 'membership' ? 'since the members were last seen' : whenOf(group.changes, remembered);
  return {
    title: titleOf(group, escapeName),
    sources: sourcesOf(group.changes),
    names: group.changes.map((change) => nameOf(change, escapeName, strong)),
    when: time,
    way: wayOf(group),
  };
}

/**
 * sourcesOf are the manifest lines a cause's changes trace to, each once (a group
 * document is one line for all its members): the first SOURCES_SHOWN, then `… N more`.
 * Not escaped: each renderer writes them its way.
 */
function sourcesOf(changes: readonly Change[]): string[] {
  const lines = [
    ...new Set(changes.flatMap((change) => (change.source === undefined ? [] : [formatLine(change.source)]))),
  ];
  return firstNames(lines, SOURCES_SHOWN);
}

/**
 * remembers tells whether the plan was made with the sweep memory, as far as it shows: a
 * last applied commit, or a drifted change dated by it. It reads every change: a
 * renderer asks once per plan, not once per cause.
 */
export function remembers(plan: Plan): boolean {
  return plan.drifted?.lastApplied !== undefined || plan.changes.some((change) => change.since !== undefined);
}

function titleOf(group: DriftGroup, escapeName: Escape): string {
  const count = group.changes.length;
  const members = plural(count, 'member');
  const tabs = `${group.scope} tabs`;
  const views = plural(count, group.scope);
  const sure = group.origin === 'outside';
  switch (group.cause) {
    case 'reordered':
      return sure
        ? `${members} re-ordered their ${tabs} in the app`
        : `${tabs} of ${members}: the same tabs in another order`;
    case 'added':
      return sure ? `${members} added ${tabs} in the app` : `${tabs} of ${members}: tabs the manifests do not list`;
    case 'removed':
      return sure
        ? `${members} removed ${tabs} in the app`
        : `${tabs} of ${members}: tabs the manifests list are missing`;
    case 'added-and-removed':
      return sure ? `${members} added and removed ${tabs} in the app` : `${tabs} of ${members}: tabs added and missing`;
    case 'edited':
      return sure ? `${views}: attributes edited in the app` : `${views}: attributes differ`;
    case 'renamed':
      return sure ? `${views} renamed in the app` : `${views}: the name differs`;
    case 'deleted':
      return sure ? `${views} deleted in the app` : `${views} missing from the workspace`;
    case 'lost-with-view':
      return `${members} lost a ${group.scope} tab when its view was deleted in the app (the service unpins a deleted view)`;
    case 'created':
      return sure ? `${views} created in the app, declared by no manifest` : `${views} declared by no manifest`;
    case 'automation':
      return `${plural(count, 'admin automation')} ${count === 1 ? 'differs' : 'differ'} from the manifests`;
    case 'membership': {
      const by = group.group === undefined ? 'a group' : `group "${escapeName(group.group)}"`;
      return `${members} newly reached by ${by} (joined, or a role changed); their ${tabs} are pending`;
    }
  }
}

/** nameOf is who a drifted change is about: the list's member, or the view (`strong`: quoted, or bold) and its owner. */
function nameOf(change: Change, escapeName: Escape, strong: Escape): string {
  switch (change.action) {
    case 'pin':
      return escapeName(change.userEmail);
    case 'update': {
      const owner = change.ownerEmail ?? change.ownerId;
      return `${strong(escapeName(change.name))} (${escapeName(change.id)}${owner === undefined ? '' : `, owner ${escapeName(owner)}`})`;
    }
    case 'create':
      // A view created again names the id it had: the manifest still binds it.
      return change.deletedOutside === undefined
        ? strong(escapeName(change.name))
        : `${strong(escapeName(change.name))} (was ${escapeName(change.deletedOutside.id)})`;
    case 'delete':
      return `${strong(escapeName(change.name))} (${escapeName(change.id)}, owner ${escapeName(change.ownerEmail ?? `${change.ownerId} (not a member)`)})`;
    default:
      return strong(escapeName(change.name));
  }
}

/**
 * whenOf says when the changes happened, as far as anyone can tell: between the
 * memory's last read (a list) or last seen (a view) and now; with the memory but no
 * date, not read before; without the memory, since the last apply or read.
 */
export function whenOf(changes: readonly Change[], remembered: boolean): string {
  const seen = changes.every((change) => change.action === 'pin') ? 'last read' : 'last seen';
  const fresh = changes.filter((change) => change.since !== undefined && change.already !== true);
  const already = changes.filter((change) => change.since !== undefined && change.already === true);
  const unseen = changes.length - fresh.length - already.length;
  if (fresh.length === 0 && already.length === 0) {
    // The memory keeps lists, views and members, never automations: "not seen before" would be untrue.
    if (remembered && changes.every((change) => change.action === 'drift'))
      return 'changed at an unknown time: the memory does not keep automations';
    return remembered
      ? `changed at an unknown time: not ${seen === 'last read' ? 'read' : 'seen'} before`
      : 'changed since it was last applied or read (no memory)';
  }
  const parts: string[] = [];
  // Each part counts its changes when the cause has more than one kind of date.
  const some = (count: number): string => (count === changes.length ? '' : `${formatCount(count)} `);
  if (fresh.length > 0) parts.push(`${some(fresh.length)}changed between ${range(fresh)} (${seen}) and now`);
  if (already.length > 0)
    parts.push(`${some(already.length)}already so when ${seen} ${range(already)}: changed before, not repaired since`);
  if (unseen > 0) parts.push(`${formatCount(unseen)} not ${seen === 'last read' ? 'read' : 'seen'} before`);
  return parts.join('; ');
}

/** range is the earliest and latest `since` of changes: one time, or `A … B`. */
function range(changes: readonly Change[]): string {
  const dates = changes.flatMap((change) => (change.since === undefined ? [] : [change.since])).sort();
  const first = dates[0] ?? '';
  const last = dates[dates.length - 1] ?? '';
  return first === last ? when(first) : `${when(first)} … ${when(last)}`;
}

/** wayOf is how to repair a cause or keep the app's version. */
function wayOf(group: DriftGroup): string {
  switch (group.cause) {
    case 'membership':
      return 'apply --budget writes them, or the next apply';
    case 'automation':
      return 'fix it in the workspace settings; apply cannot';
    case 'lost-with-view':
      return 'apply creates the view again and pins it back';
    case 'deleted':
      return group.changes.length === 1
        ? 'apply creates it again; delete its document to let it go'
        : 'apply creates them again; delete their documents to let them go';
    case 'created':
      return `apply deletes ${group.changes.length === 1 ? 'it' : 'them'} (prune; apply --budget never does); viewctl pull keeps ${group.changes.length === 1 ? 'it' : 'them'}`;
    default:
      return group.origin === 'outside'
        ? 'apply --budget repairs, viewctl pull keeps'
        : "apply sets the manifests' version, viewctl pull keeps the app's";
  }
}

/**
 * namesShown is how many of a cause's names are shown: all of them up to
 * GROUP_THRESHOLD (every change made in the app is named, as it is one by one), and
 * always for deletions, which are never hidden; past it, the first NAMES_SHOWN.
 */
export function namesShown(group: DriftGroup): number {
  const count = group.changes.length;
  return group.cause === 'created' || count <= GROUP_THRESHOLD ? count : NAMES_SHOWN;
}

/** someNames lists a cause's names compactly: those `namesShown` says, then `… N more`. */
export function someNames(group: DriftGroup, names: readonly string[]): string[] {
  return firstNames(names, namesShown(group));
}

/** DRIFT_NOUNS name each action's changes in the drift count: a drifted `drift` change is an automation. */
const DRIFT_NOUNS: Readonly<Record<Action, string>> = { ...ACTION_NOUNS, drift: 'automation' };

/**
 * automationDrifts counts the plan's `drift` changes among the actions: `1 drift`, or
 * `1 automation drift` in a plan that labels origins, whose drift (`driftCount`) also
 * counts lists and views changed in the app. There it is left out when none drifted:
 * "0 automation drifts; 1 of them drift" read as if the one drift were an automation's.
 */
export function automationDrifts(plan: Plan): string | undefined {
  if (plan.drifted === undefined) return plural(plan.summary.drift, 'drift');
  return plan.summary.drift === 0 ? undefined : plural(plan.summary.drift, 'automation drift');
}

/**
 * driftCount is what the plan's counts add about drift: `13 of them drift (1 update,
 * 12 pin lists)` or `no drift`, and how many were merged but not applied yet; undefined for a plan
 * that labels no origins. Drift is counted apart from the actions, never added to them.
 */
export function driftCount(plan: Plan): string | undefined {
  if (plan.drifted === undefined) return undefined;
  const counts = byAction(
    plan.changes.filter((change) => change.origin !== undefined),
    DRIFT_NOUNS,
  );
  // "0 of them drift" after "0 automation drifts" reads as a riddle: say there is none.
  const of =
    plan.drifted.changes === 0
      ? 'no drift'
      : `${formatCount(plan.drifted.changes)} of them drift${counts === '' ? '' : ` (${counts})`}`;
  const unapplied =
    plan.drifted.unapplied === undefined || plan.drifted.unapplied === 0
      ? ''
      : `, ${formatCount(plan.drifted.unapplied)} merged since the last apply and not applied yet`;
  return `${of}${unapplied}`;
}

/**
 * unappliedHeading titles a sweep's changes without an origin when its last applied
 * commit is older than the manifests: merged, not applied yet, not drift.
 */
export function unappliedHeading(plan: Plan): string | undefined {
  const applied = plan.drifted?.lastApplied;
  if (plan.drifted?.unapplied === undefined || applied === undefined) return undefined;
  return `In the manifests since the last apply ${appliedText(applied)}, not applied yet: not drift; a reviewed apply carries them out`;
}
