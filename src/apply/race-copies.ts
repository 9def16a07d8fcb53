import type { ApiView } from '../domain/api-types.js';
import type { Domain } from '../domain/domains.js';
import { compareIds, isPublicSaved } from '../domain/views.js';
import { ServiceError, ViewctlError } from '../errors.js';
import { canonicalJson } from '../kinds/canonical.js';
import { createdKey } from '../kinds/kind.js';
import { normalizeView } from '../kinds/normalize.js';
import { ROUTES } from '../service/routes.js';
import type { ServiceClient } from '../service/types.js';
import type { Live } from '../state/types.js';
import type { Execution, OperationOutcome } from './execute.js';
import { describeError } from './execute.js';
import type { Operation } from '../plan/operations.js';
import type { VerificationProblem } from './verify.js';

/**
 * Copies left by concurrent applies. Two runs of the same manifests both plan
 * "create X" before either creates it, and the service (whose names are not unique,
 * and which has no lock) then holds X twice: a state every later plan refuses as
 * ambiguous. So on every exit path but an interrupt, apply looks at the listings of
 * the domains it created in: the public views named like one this run created (or may
 * have created: a create whose answer was lost) that were not there when it planned
 * are the copies, this run's among them.
 *
 * - Identical copies (same attributes and owner) are interchangeable: which run made
 *   which cannot matter, and a run whose create lost its answer cannot tell anyway. So
 *   every run keeps the one with the smallest id and deletes the others. All runs pick
 *   the same one, because the smallest id of what one run sees is never deleted by
 *   another, so at least one copy always remains; the last run to look sees every copy,
 *   so at most one remains.
 * - Copies with other attributes (another change applied at the same time) are
 *   another run's view: a run deletes only its own copy (known from its create's
 *   answer) and leaves the rest, which the next plan reports as ambiguous with a way out.
 *
 * Either way the run reports what it deleted (pinned lists may name a deleted copy),
 * ends partial, and running again converges.
 */

/** RaceCopies is one created name that concurrent runs created more than once. */
interface RaceCopies {
  domain: Domain;
  name: string;
  /** Index of this run's create change in the plan. */
  changeIndex: number;
  /** The copy this run's create answered with; undefined when its answer was lost (or it was adopted by name). */
  ours: string | undefined;
  /** Copies this run deletes, smallest id first. */
  deleted: string[];
  /** The copy this run's create stands for afterwards, if any remains that it may take. */
  kept: string | undefined;
  /** Copies with other attributes, not this run's: left alone. */
  leftAlone: string[];
}

/**
 * findRaceCopies finds, in listings read after this run's writes, every name this run
 * created (or may have) that more than one new public view carries, and decides what
 * to delete by the rules above. Pure.
 */
export function findRaceCopies(
  execution: Execution,
  live: Live,
  listings: ReadonlyMap<Domain, ApiView[]>,
): RaceCopies[] {
  const found: RaceCopies[] = [];
  for (const outcome of execution.outcomes) {
    const create = createOf(outcome);
    if (create === undefined) continue;
    const { domain } = create;
    const { name } = create.operation;
    const before = new Set((live.views[domain] ?? []).map((view) => view.viewId));
    const copies = (listings.get(domain) ?? []).filter(
      (view) => view.name === name && isPublicSaved(view) && !before.has(view.viewId),
    );
    if (copies.length < 2) continue;
    const deleted: string[] = [];
    const keepers: ApiView[] = [];
    for (const group of groupByContent(domain, copies)) {
      const [keeper, ...rest] = group;
      if (keeper !== undefined) keepers.push(keeper);
      deleted.push(...rest.map((view) => view.viewId));
    }
    const ours = create.ours;
    // Our own copy survived its group but differs from another run's: it yields.
    if (ours !== undefined && keepers.length > 1 && keepers.some((view) => view.viewId === ours)) deleted.push(ours);
    const remaining = keepers.map((view) => view.viewId).filter((id) => !deleted.includes(id));
    const kept = keptFor(domain, copies, remaining, ours);
    found.push({
      domain,
      name,
      changeIndex: create.operation.changeIndex,
      ours,
      deleted: deleted.sort(compareIds),
      kept,
      leftAlone: remaining.filter((id) => id !== kept).sort(compareIds),
    });
  }
  return found;
}

/**
 * createOf is a view this run created or may have created (an operation that creates
 * something named in a domain), with its own id when its answer said it.
 */
function createOf(
  outcome: OperationOutcome,
): { operation: Operation; domain: Domain; ours: string | undefined } | undefined {
  const { operation } = outcome;
  if (operation.creates === undefined || operation.domain === undefined) return undefined;
  if (outcome.status === 'landed')
    return { operation, domain: operation.domain, ours: outcome.note === 'adopted' ? undefined : outcome.viewId };
  if (outcome.status === 'failed' && outcome.error.mayHaveLanded === true)
    return { operation, domain: operation.domain, ours: undefined };
  return undefined;
}

/** groupByContent splits copies into groups of identical ones, each smallest id first. */
function groupByContent(domain: Domain, copies: readonly ApiView[]): ApiView[][] {
  const groups = new Map<string, ApiView[]>();
  for (const view of copies) {
    const key = canonicalJson({ ...normalizeView(domain, view), ownerId: view.ownerId });
    groups.set(key, [...(groups.get(key) ?? []), view]);
  }
  return [...groups.values()].map((group) => [...group].sort((a, b) => compareIds(a.viewId, b.viewId)));
}

/**
 * keptFor is the copy this run's create stands for afterwards: the survivor of its own
 * copy's group, or (its copy having yielded) the first copy left, so its report and
 * verification name a view that exists; when its answer was lost, the only copy left.
 */
function keptFor(
  domain: Domain,
  copies: readonly ApiView[],
  remaining: readonly string[],
  ours: string | undefined,
): string | undefined {
  if (ours === undefined) return remaining.length === 1 ? remaining[0] : undefined;
  const own = copies.find((view) => view.viewId === ours);
  const group =
    own === undefined ? [] : (groupByContent(domain, copies).find((members) => members.includes(own)) ?? []);
  return group.map((view) => view.viewId).find((id) => remaining.includes(id)) ?? [...remaining].sort(compareIds)[0];
}

/** raceDomains are the view domains a run created in, or may have: where copies can be. */
export function raceDomains(execution: Execution): Domain[] {
  return [...new Set(execution.outcomes.flatMap((outcome) => createOf(outcome)?.domain ?? []))];
}

/** SettledRace is the run's execution and listings as they stand once the copies are gone, and what to report. */
interface SettledRace {
  execution: Execution;
  listings: Map<Domain, ApiView[]>;
  problems: VerificationProblem[];
}

/**
 * settleRaceCopies deletes the copies `findRaceCopies` decides on (a 404 means another
 * run deleted it first), points this run's create at the copy kept, and reports each
 * name as a problem, so the run ends partial and advises running again.
 */
export async function settleRaceCopies(
  execution: Execution,
  live: Live,
  listings: ReadonlyMap<Domain, ApiView[]>,
  client: ServiceClient,
): Promise<SettledRace> {
  const races = findRaceCopies(execution, live, listings);
  const settledListings = new Map(listings);
  const problems: VerificationProblem[] = [];
  const pointTo = new Map<number, string | undefined>();
  for (const race of races) {
    const failures: string[] = [];
    for (const viewId of race.deleted) {
      try {
        await client.request(ROUTES.deleteView(race.domain, viewId));
      } catch (error) {
        // A 404: another run deleted it first. A service failure is reported; anything
        // else is a bug for the top-level catch.
        if (!(error instanceof ViewctlError)) throw error;
        if (!(error instanceof ServiceError && error.status === 404))
          failures.push(`could not delete ${viewId}: ${describeError(error).message}`);
      }
    }
    settledListings.set(
      race.domain,
      (settledListings.get(race.domain) ?? []).filter((view) => !race.deleted.includes(view.viewId)),
    );
    pointTo.set(race.changeIndex, race.kept);
    problems.push({
      changeIndex: race.changeIndex,
      kind: kindOf(execution, race.changeIndex),
      name: race.name,
      ...(race.ours === undefined ? {} : { id: race.ours }),
      message: describeRace(race, failures),
    });
  }
  const outcomes = execution.outcomes.map((outcome): OperationOutcome => {
    if (outcome.status !== 'landed' || !pointTo.has(outcome.operation.changeIndex)) return outcome;
    const kept = pointTo.get(outcome.operation.changeIndex);
    if (kept !== undefined) return { ...outcome, viewId: kept };
    const { viewId: _gone, ...rest } = outcome;
    return rest;
  });
  return { execution: { ...execution, outcomes }, listings: settledListings, problems };
}

/** describeRace says what the copies were and what this run did, in one sentence. */
function describeRace(race: RaceCopies, failures: readonly string[]): string {
  const all = [...race.deleted, ...(race.kept === undefined ? [] : [race.kept]), ...race.leftAlone].sort(compareIds);
  const parts = [`a concurrent run created "${race.name}" too: ${all.join(', ')}`];
  if (race.deleted.length > 0) {
    parts.push(
      `this run deleted ${race.deleted.join(', ')} (${race.ours !== undefined && race.deleted.includes(race.ours) ? `its own copy ${race.ours}` : 'identical copies: every run keeps the smallest id'})`,
    );
  }
  if (race.kept !== undefined) parts.push(`this run's create now stands for ${race.kept}`);
  if (race.leftAlone.length > 0)
    parts.push(`left ${race.leftAlone.join(', ')} alone (other attributes: not this run's to delete)`);
  const tail = race.deleted.length > 0 ? '; pinned tabs set to a deleted copy are gone' : '';
  return `${parts.join('; ')}${tail}${failures.length > 0 ? ` (${failures.join('; ')})` : ''}`;
}

function kindOf(execution: Execution, changeIndex: number): string {
  return execution.outcomes.find((outcome) => outcome.operation.changeIndex === changeIndex)?.operation.kind ?? 'View';
}

/**
 * explainLostPins re-describes each pinned list the service refused (400 at
 * `viewIds`) because a tab named a view this run created that the listing read after
 * the writes no longer holds: deleted while the run applied, as a concurrent run's
 * clean-up of the copies both runs made deletes the larger ids. The service's "unknown
 * id" would otherwise read as something to fix in the manifests; the list is marked
 * `concurrentChange`, and the report says a new plan converges. Pure.
 */
export function explainLostPins(execution: Execution, listings: ReadonlyMap<Domain, ApiView[]>): Execution {
  const created = new Map<string, string>();
  for (const outcome of execution.outcomes) {
    if (outcome.status === 'landed' && outcome.operation.creates !== undefined && outcome.viewId !== undefined)
      created.set(outcome.operation.creates, outcome.viewId);
  }
  const outcomes = execution.outcomes.map((outcome): OperationOutcome => {
    // A list naming views this run created (its new-view tabs) that the service refused at `viewIds`.
    const { domain, newViewTabs } = outcome.operation;
    if (
      outcome.status !== 'failed' ||
      newViewTabs.length === 0 ||
      domain === undefined ||
      outcome.error.status !== 400 ||
      outcome.error.path !== 'viewIds'
    )
      return outcome;
    const listing = listings.get(domain);
    if (listing === undefined) return outcome;
    const live = new Set(listing.map((view) => view.viewId));
    const gone = newViewTabs.flatMap((tab) => {
      const id = created.get(createdKey(domain, tab.name));
      return id === undefined || live.has(id) ? [] : [{ id, name: tab.name }];
    });
    const [first] = gone;
    if (first === undefined) return outcome;
    const others = listing
      .filter((view) => view.name === first.name && isPublicSaved(view))
      .map((view) => view.viewId)
      .sort(compareIds);
    const who =
      others.length > 0
        ? `a concurrent run deleted it while settling the copies both runs made of that view (identical copies keep the smallest id; ${others.join(', ')} remains)`
        : 'it was deleted while this run applied (by a concurrent run, or in the application)';
    const message = `the list names ${first.id} ("${first.name}"), the view this run created; ${who}, so the service refused the list as naming an unknown view; nothing needs fixing: a new plan pins the view that remains`;
    return { ...outcome, error: { ...outcome.error, message, concurrentChange: true } };
  });
  return { ...execution, outcomes };
}
