import { stringify } from 'yaml';
import { structuredPatch } from 'diff';
import type { JsonValue } from '../domain/api-types.js';
import type { Action, Change, ChangeOrigin, CreateChange, DeleteChange, Plan, UpdateChange } from '../plan/types.js';
import { applySeconds } from '../plan/requests.js';
import { formatCount, plural } from '../text/plural.js';
import { safeText } from '../text/safe-text.js';
import { dayOf, sinceLastApply } from './dates.js';
import type { RenderOptions } from './options.js';

/**
 * Formatting shared by the text and markdown renderers. Every name, email, path and
 * message in it is user or service data, made safe by `safeText` (src/text/safe-text.ts).
 */

/** applyEstimate says how long apply takes at the per-endpoint rate: `about 2 s`, `under 1 s`. */
export function applyEstimate(plan: Plan, rate: number): string {
  const seconds = applySeconds(plan, rate);
  if (seconds < 1) return 'under 1 s';
  if (seconds < 120) return `about ${Math.ceil(seconds)} s`;
  return `about ${Math.ceil(seconds / 60)} min`;
}

/**
 * applyCost is what applying the plan costs: in `apply` (the plan's figures are the
 * run's own, its re-reads done and counted) the writes and the reads that verify them;
 * otherwise what `apply --plan` of the plan's file costs, the re-reads it makes first
 * (`requests.recheck`; absent in plans of earlier builds) included.
 */
export function applyCost(plan: Plan, context: RenderOptions['context']): { total: number; recheck: number } {
  const recheck = context === 'apply' ? 0 : (plan.requests.recheck ?? 0);
  return { total: plan.requests.applyNeeds + recheck, recheck };
}

/**
 * budgetText is `2,981 left today, 2,884 after this apply`, as the service's headers say (the
 * applying's cost, `applyCost`, taken off), or that they did not say. The daily total
 * is not shown: no header carries it, and a workspace's quota need not be the 3,000 of
 * the service's documentation.
 */
export function budgetText(plan: Plan, context?: RenderOptions['context']): string {
  const { dailyRemaining, applyNeeds } = plan.requests;
  if (dailyRemaining === null) return 'the service did not say how many requests are left today';
  const { total } = applyCost(plan, context);
  if (applyNeeds === 0) return `${formatCount(dailyRemaining)} left today`;
  const after =
    total > dailyRemaining
      ? ' (not enough for this apply: wait for the quota to recover)'
      : `, ${formatCount(dailyRemaining - total)} after this apply`;
  return `${formatCount(dailyRemaining)} left today${after}`;
}

/** pointerPath turns a JSON pointer into a readable path: `/filters/0/not` → `filters[0].not`. */
export function pointerPath(pointer: string): string {
  if (pointer === '') return '(whole)';
  let out = '';
  for (const raw of pointer.split('/').slice(1)) {
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    out += /^\d+$/.test(key) ? `[${key}]` : out === '' ? key : `.${key}`;
  }
  return safeText(out);
}

/** valueText writes a drift value: strings bare, anything else as compact JSON. */
export function valueText(value: JsonValue | undefined): string {
  if (value === undefined) return '(absent)';
  return safeText(typeof value === 'string' ? value : JSON.stringify(value));
}

/** DiffLine is one line of a view's YAML diff; `gap` separates hunks. */
type DiffLine = { marker: '+' | '-' | ' '; text: string } | { marker: 'gap' };

const diffCache = new WeakMap<UpdateChange, DiffLine[]>();

/**
 * updateDiff is the unified diff of an update's view, as YAML, with two lines of
 * context and no file headers. Cached per change: text and markdown share the work.
 */
export function updateDiff(change: UpdateChange): DiffLine[] {
  const cached = diffCache.get(change);
  if (cached !== undefined) return cached;
  // Only the top-level attributes the patch touches are dumped: less YAML to write and
  // diff, and no context lines from attributes that did not change.
  const touched = new Set(change.patch.map((operation) => operation.path.split('/')[1] ?? ''));
  const section = (view: object): object =>
    Object.fromEntries(Object.entries(view).filter(([key]) => touched.has(key)));
  const beforeYaml = viewYaml(section(change.before));
  const oldLines = beforeYaml.split('\n');
  const patch = structuredPatch('before', 'after', beforeYaml, viewYaml(section(change.after)), undefined, undefined, {
    context: 2,
  });
  const lines: DiffLine[] = [];
  patch.hunks.forEach((hunk, index) => {
    if (index > 0) lines.push({ marker: 'gap' });
    for (const text of parentLines(oldLines, hunk.oldStart - 1, hunk.lines[0]?.slice(1) ?? '')) {
      lines.push({ marker: ' ', text: safeText(text) });
    }
    for (const line of hunk.lines) {
      const marker = line[0];
      if (marker === '+' || marker === '-' || marker === ' ') lines.push({ marker, text: safeText(line.slice(1)) });
    }
  });
  diffCache.set(change, lines);
  return lines;
}

/**
 * parentLines are the YAML lines that enclose a hunk starting at `start` (0-based, in
 * the old text) with `first` as its first line, outermost first: the reviewer sees
 * `filters:` above a change to `sourceIn`, as a diff shows the enclosing function.
 */
function parentLines(oldLines: readonly string[], start: number, first: string): string[] {
  const indentOf = (text: string): number => text.length - text.trimStart().length;
  let indent = indentOf(first);
  const parents: string[] = [];
  for (let at = start - 1; at >= 0 && indent > 0; at -= 1) {
    const text = oldLines[at] ?? '';
    if (text.trim() === '' || indentOf(text) >= indent) continue;
    parents.unshift(text);
    indent = indentOf(text);
  }
  return parents;
}

/** viewYaml dumps a view snapshot as block YAML, never folding long lines. */
export function viewYaml(view: object): string {
  return stringify(view, { lineWidth: 0 });
}

/** shellWord quotes a path for a copy-pasted command line when it needs it. */
export function shellWord(text: string): string {
  const safe = safeText(text);
  return /^[\w./@:=+-]+$/.test(safe) ? safe : `'${safe.replace(/'/g, `'\\''`)}'`;
}

/**
 * scopeText says what a scoped plan read and what it did not (README, "Scoped and
 * budgeted plans"): how many pinned lists, why the rest were left unread, and that
 * they were not checked for drift. Undefined for a plan that read every list.
 */
export function scopeText(plan: Plan): string | undefined {
  const { scope } = plan;
  if (scope === undefined) return undefined;
  const read = `read ${formatCount(scope.lists - scope.unread)} of ${plural(scope.lists, 'pinned list')}`;
  // Plans of earlier builds read consecutive slices by UTC day.
  const slice =
    scope.slice === undefined ? '' : `, slice ${formatCount(scope.slice.index)} of ${formatCount(scope.slice.count)}`;
  const why: string[] = [];
  if (scope.base !== undefined)
    why.push(
      `--base ${safeText(scope.base.ref)} (${scope.base.commit.slice(0, 7)}): the others ask for what they asked then and name no view this plan creates, renames or deletes`,
    );
  if (scope.budget !== undefined) {
    const lowered = loweredText(plan);
    const budget = `--budget ${formatCount(scope.budget)}${lowered}`;
    const covered = coverageText(scope);
    why.push(covered === undefined ? budget : `${budget}${lowered === '' ? ':' : ';'} ${covered}`);
  }
  const { crowdedOut } = scope;
  if (crowdedOut !== undefined)
    why.push(
      `${plural(crowdedOut.lists, 'list')} more ${crowdedOut.lists === 1 ? 'was' : 'were'} left unread: the service failed requests, and they and their ${plural(crowdedOut.retries, 'retry', 'retries')}, counted against the budget, took the room`,
    );
  const unread =
    scope.unread === 0
      ? ''
      : `; the ${plural(scope.unread, 'unread list')} ${scope.unread === 1 ? 'was' : 'were'} not checked for drift`;
  return `Scope: ${read}${slice} (${why.join('; ')})${unread}.`;
}

/**
 * coverageText says what a budgeted sweep covered and promises (README, "The nightly
 * sweep's promise"): `40 new to the sweep, the rest least recently read; 2,484 due
 * within 3 nights; every list is read within 4 nights at this budget`. Undefined when
 * the night read every list and nobody waited too long.
 */
function coverageText(scope: NonNullable<Plan['scope']>): string | undefined {
  const { coverage } = scope;
  if (coverage === undefined)
    return scope.slice === undefined
      ? undefined
      : `the slice rotates by UTC day, so ${formatCount(scope.slice.count)} daily runs cover every list`;
  const overdue = coverage.overdue ?? 0;
  if (coverage.due === 0 && overdue === 0) return undefined;
  const read = scope.lists - scope.unread;
  const order =
    coverage.order === 'rotation'
      ? `this night's share of a ${formatCount(coverage.cycle)}-night rotation by a hash of each list's key, and the lists due soonest after it`
      : neverReadText(coverage.neverRead ?? 0, read);
  const parts = [
    order,
    ...(coverage.due === 0 ? [] : [`${formatCount(coverage.due)} due within ${plural(coverage.dueWithin, 'night')}`]),
    `every list is read within ${plural(coverage.cycle, 'night')} at this budget`,
    ...(overdue === 0
      ? []
      : [
          `${plural(overdue, 'list')} waited or will wait longer than that since ${overdue === 1 ? 'its' : 'their'} last read (nights without a sweep, a lower budget or more lists): a new cycle starts this night`,
        ]),
  ];
  return parts.join('; ');
}

/**
 * neverReadText is how a night with the memory chose: `40 new to the sweep, the rest
 * least recently read` (new: never read, or a member a group may newly reach).
 */
function neverReadText(neverRead: number, read: number): string {
  if (neverRead === 0) return 'the least recently read';
  if (neverRead >= read) return read === 1 ? 'new to the sweep' : 'all new to the sweep';
  return `${formatCount(neverRead)} new to the sweep, the rest least recently read`;
}

/**
 * loweredText is ` lowered to 914, the 1,214 left today less --reserve 300` when what
 * the service said was left today, less the reserve, lowered the budget; empty otherwise.
 */
function loweredText(plan: Plan): string {
  const { ceiling } = plan.requests;
  if (ceiling === undefined) return '';
  const reserve = ceiling.reserve === 0 ? '' : ` less --reserve ${formatCount(ceiling.reserve)}`;
  return ` lowered to ${formatCount(ceiling.most)}, the ${formatCount(ceiling.left)} left today${reserve}`;
}

/**
 * memberPinners is what `--pinned-by` counted, every active member's list of the view's
 * domain: `32 members (read today)`, or when the ceiling left some unread `30 of the
 * 280 members' deals lists read today; 20 lists not read (no room left; they may pin
 * it too)`, with the memory's last count of those when it has one.
 */
function memberPinners(change: DeleteChange, lists: NonNullable<DeleteChange['pinLists']>): string {
  const pinning = change.pinnedBy.length;
  const who = pinning === 0 ? 'no member' : plural(pinning, 'member');
  if (lists.unread === 0) return `${who} (read today)`;
  const unread =
    lists.remembered === undefined
      ? `${plural(lists.unread, 'list')} not read (no room left; ${lists.unread === 1 ? 'it' : 'they'} may pin it${pinning === 0 ? '' : ' too'})`
      : rememberedText(lists.unread, lists.remembered);
  const count = pinning === 0 ? 'none' : formatCount(pinning);
  return `${count} of the ${formatCount(lists.read)} members' ${change.domain} lists read today; ${unread}`;
}

/**
 * rememberedText is what the sweep memory says of the lists a scoped plan did not read:
 * `of the 960 not read, 12 pinned it when last read (as of 2026-11-20)`, then how many
 * of them it never read, when some.
 */
function rememberedText(
  unread: number,
  remembered: NonNullable<NonNullable<DeleteChange['pinLists']>['remembered']>,
): string {
  const count = remembered.pinning === 0 ? 'none' : formatCount(remembered.pinning);
  const never = Math.max(0, unread - remembered.lists);
  const unknown =
    never === 0
      ? ''
      : `; ${formatCount(never)} ${never === 1 ? 'was' : 'were'} never read (${never === 1 ? 'it' : 'they'} may pin it)`;
  return `of the ${formatCount(unread)} not read, ${count} pinned it when last read (as of ${dayOf(remembered.asOf)})${unknown}`;
}

/**
 * deletedOutsideText labels the create of a view a manifest binds by an id that was
 * deleted in the app (`deletedOutside`): `deleted in the app (rv_1, last seen
 * 2026-11-20): created again`; undefined for any other create.
 */
/**
 * renamedName names an updated view as the reviewer should read it: `rename "OLD" ->
 * "NEW"` when the update renames it (by viewId, or the document renamed since --base),
 * else its name; `name` quotes a name for the output at hand.
 */
export function renamedName(change: UpdateChange, name: (text: string) => string): string {
  return change.before.name === change.after.name
    ? name(change.name)
    : `rename ${name(change.before.name)} -> ${name(change.after.name)}`;
}

export function deletedOutsideText(change: CreateChange): string | undefined {
  const gone = change.deletedOutside;
  return gone === undefined
    ? undefined
    : `deleted in the app (${safeText(gone.id)}, last seen ${dayOf(gone.lastSeen)}): created again`;
}

/**
 * originHeading titles the changes of one origin (README, "Changes made outside viewctl,
 * labelled"): made in the app since `--base REF`, which applying reverts; not applied or
 * made in the app, which the tool cannot tell apart without a memory of the last apply,
 * so it asserts neither; or there because the group's members changed.
 */
export function originHeading(plan: Plan, origin: ChangeOrigin, changes: readonly Change[] = []): string {
  const ref = plan.scope?.base?.ref;
  const since = ref === undefined ? (sinceLastApply(plan) ?? 'since the base') : `since ${safeText(ref)}`;
  // Apply never writes an admin automation: a heading over only those must not promise it does
  // (beside other changes, each automation's own line says apply cannot).
  const only = changes.length > 0 && changes.every((change) => change.action === 'drift');
  switch (origin) {
    case 'outside':
      return `Changed outside viewctl ${since}: ${only ? 'apply cannot change them, fix them in the workspace settings' : 'applying reverts them'}`;
    case 'unapplied-or-outside':
      return `Not applied or changed outside viewctl ${since}: ${only ? 'apply cannot change them, fix them in the workspace settings' : 'applying sets them to the manifests'}`;
    case 'membership':
      return `Group members changed ${since} (joined, left or changed role): applying sets their tabs to the manifests`;
  }
}

/** ACTION_NOUNS name each action's changes, in the order plans list the actions. */
export const ACTION_NOUNS: Readonly<Record<Action, string>> = {
  create: 'create',
  update: 'update',
  delete: 'delete',
  pin: 'pin list',
  drift: 'drift',
};

/** byAction counts changes by action, in `nouns` order, leaving out actions without any: `2 creates, 1 pin list`. */
export function byAction(changes: readonly Change[], nouns: Readonly<Record<Action, string>> = ACTION_NOUNS): string {
  return (Object.keys(nouns) as Action[])
    .flatMap((action) => {
      const count = changes.filter((change) => change.action === action).length;
      return count === 0 ? [] : [plural(count, nouns[action])];
    })
    .join(', ');
}

/**
 * pinnedCount says who pins a deleted view in a summary row: `pinned by 2 users` from
 * a full plan (nothing when none), and from a scoped plan that left lists of the view's
 * domain unread, how many of the lists read pin it and how many were not read, also
 * when none of those read pins it (README, "Scoped and budgeted plans").
 */
export function pinnedCount(change: DeleteChange): string {
  if (change.pinLists !== undefined) return `pinned by ${scopedPinners(change, change.pinLists)}`;
  return change.pinnedBy.length === 0 ? '' : `pinned by ${plural(change.pinnedBy.length, 'user')}`;
}

/**
 * pinnedNote is what a scoped plan adds after the emails of a deletion's pinners:
 * `2 of the 14 recordings lists read; 3,480 lists not read (they may pin it too)`;
 * undefined from a full plan.
 */
export function pinnedNote(change: DeleteChange): string | undefined {
  return change.pinLists === undefined ? undefined : scopedPinners(change, change.pinLists);
}

function scopedPinners(change: DeleteChange, lists: NonNullable<DeleteChange['pinLists']>): string {
  if (lists.members === true) return memberPinners(change, lists);
  const unread =
    lists.remembered === undefined
      ? `${plural(lists.unread, 'list')} not read (${lists.unread === 1 ? 'it' : 'they'} may pin it${change.pinnedBy.length === 0 ? '' : ' too'})`
      : rememberedText(lists.unread, lists.remembered);
  if (lists.read === 0) return `none of the lists read: no ${change.domain} list was read; ${unread}`;
  const count = change.pinnedBy.length === 0 ? 'none' : formatCount(change.pinnedBy.length);
  return `${count} of the ${plural(lists.read, `${change.domain} list`)} read; ${unread}`;
}
