import type { ApiUser } from '../domain/api-types.js';
import { DOMAINS } from '../domain/domains.js';
import { declaredTargets, type DeclaredTargets } from '../export/declared-targets.js';
import { pinDocumentMatcher } from '../export/pin-coverage.js';
import { pullPlan } from '../export/pull-edits.js';
import { finishInterruptedPull } from '../export/pull-journal.js';
import { toDesired } from '../manifest/desired.js';
import { ManifestInvalidError } from '../manifest/format-problems.js';
import { loadManifests } from '../manifest/load.js';
import { hasErrors } from '../manifest/problems.js';
import { nodeManifestSource } from '../manifest/source.js';
import type { Problem } from '../manifest/types.js';
import { selectTargets, type TargetSelector } from '../plan/targets-selection.js';
import type { Clock } from '../service/clock.js';
import type { ServiceClient } from '../service/types.js';
import { readMemberPins } from '../state/read-member-pins.js';
import { readUsers } from '../state/read-live.js';
import type { Live } from '../state/types.js';
import { planWorkspaceOptions } from './plan-options.js';
import { resolveScope, type ScopeFlags } from './plan-scope.js';
import { planWorkspace } from './plan-workspace.js';
import { writePull, type PullResult } from './pull-write.js';
import { NO_STOPS, type RunStops, type ServiceConnection } from './run-edges.js';

export type { PullResult } from './pull-write.js';

/** PullRequest is what `viewctl pull` is asked: the manifests, the targets and the scope of its plan. */
export interface PullRequest {
  paths: readonly string[];
  targets?: readonly TargetSelector[];
  scope: ScopeFlags;
}

/** PullEdges are what the pull flow touches outside its inputs, passed in (the manifests' files are read and written under `cwd`). */
export interface PullEdges {
  cwd: string;
  /** The run's wall clock (the budget night); default the system clock. */
  clock?: Pick<Clock, 'now'>;
  /** Opens the connection, once the manifests loaded and the scope resolved. */
  connect(): Promise<ServiceConnection>;
  stops?: RunStops;
  /** The files a pull cut short (a crash, a second signal) had left, replaced before this one loads. */
  onFinished?(files: readonly string[]): void;
  /** The manifests' warnings, as soon as they are loaded. */
  onWarnings?(warnings: readonly Problem[]): void;
  onProgress?(done: number, total: number): void;
}

/**
 * pullManifests is `viewctl pull` (README, "Keeping the app's version"): write the
 * live value of the selected targets into the manifests that declare them, in place.
 * It plans as `plan` does, splices each changed value into its source range (every
 * other byte of the file stays), adds what no manifest declares in new files as
 * `export --merge` does, checks that the result loads without an error, and only then
 * writes, each file whole or not at all. It never writes to the service.
 */
export async function pullManifests(request: PullRequest, edges: PullEdges): Promise<PullResult> {
  const { cwd } = edges;
  const stops = edges.stops ?? NO_STOPS;
  const source = nodeManifestSource(cwd);
  // A pull a crash cut short is finished first: its files are then all new, and load.
  const finished = await finishInterruptedPull(request.paths, cwd);
  if (finished.length > 0) edges.onFinished?.(finished);
  // Loaded as plan loads them: any error stops here, before a request.
  const loaded = await loadManifests(request.paths, source);
  if (hasErrors(loaded.problems)) throw new ManifestInvalidError(loaded.problems);
  if (loaded.problems.length > 0) edges.onWarnings?.(loaded.problems);
  const documents = loaded.documents;
  const desired = toDesired(documents);
  const declared = declaredTargets(documents);
  const selectors = request.targets ?? [];
  const selectedMembers = new Set(
    selectors.flatMap((selector) => (selector.type === 'pins' ? [selector.userEmail.toLowerCase()] : [])),
  );
  const scoped = await resolveScope(request.scope, request.paths, { cwd, clock: edges.clock });
  const connection = await edges.connect();
  const read = await stops
    .reads(async () => {
      // A member no document reaches is no target plan knows: pull adds them as export --merge does.
      const { undeclared, users } = await undeclaredMembers(selectedMembers, declared, connection.client);
      const planned = selectors.filter(
        (selector) => selector.type !== 'pins' || !undeclared.has(selector.userEmail.toLowerCase()),
      );
      const plans = selectors.length === 0 || planned.length > 0;
      const how = { scoped, ...(planned.length === 0 ? {} : { targets: planned }), onProgress: edges.onProgress };
      const planning = plans ? await planWorkspace(desired, connection.client, planWorkspaceOptions(how)) : undefined;
      // The members' lists are read, and what the plan and the check above did not read: nothing twice.
      const known = {
        workspace: planning?.live.workspace,
        views: planning?.live.views,
        users: planning?.live.users ?? users,
      };
      const members =
        undeclared.size === 0
          ? undefined
          : await readMemberPins(
              connection.client,
              (all) => all.filter((user) => undeclared.has(user.email.toLowerCase()) && user.state === 'Active'),
              known,
            );
      return { planning, members, planned, undeclared };
    })
    .finally(() => connection.close());
  const { planning, members, planned, undeclared } = read;
  const views =
    planned.length === 0 ? (selectors.length === 0 ? desired.views : []) : selectTargets(desired, planned).views;
  const live = liveOf(planning?.live, members?.live);
  const pulled = pullPlan({
    changes: planning?.plan.changes ?? [],
    held: planning?.plan.held ?? [],
    live,
    documents,
    views,
    declared,
    selectedMembers,
  });
  for (const user of members?.pinUsers ?? []) pulled.added.members.push({ user, domains: [...DOMAINS] });
  const found = new Set((members?.pinUsers ?? []).map((user) => user.email.toLowerCase()));
  for (const email of undeclared)
    if (!found.has(email))
      pulled.notPulled.push({
        target: `pins/${email}`,
        reason: 'no manifest declares this member, and no active member has this address: nothing to pull',
      });
  stops.writingFiles(
    'writing the pulled manifests',
    'the manifests are either as they were or as pulled, or viewctl pull run again finishes replacing them',
  );
  return writePull(pulled, declared, live, request.paths, source, cwd);
}

/**
 * undeclaredMembers are the members `--target pins/EMAIL` names (`emails`, lower-cased)
 * whom no PinnedViews document reaches: none names the address (by `userEmail`, or a
 * `users` email or glob) and no `roles` group takes their role. The users are read (1
 * request per 100 members), and answered, only when a group selects by role and an
 * address is named nowhere else.
 */
async function undeclaredMembers(
  emails: ReadonlySet<string>,
  declared: DeclaredTargets,
  client: ServiceClient,
): Promise<{ undeclared: Set<string>; users?: ApiUser[] }> {
  const named = (email: string): boolean =>
    declared.pins.some((document) => pinDocumentMatcher({ ...document, roles: [] })({ email, role: '' }));
  const candidates = [...emails].filter((email) => !named(email));
  if (candidates.length === 0 || !declared.pins.some((document) => document.roles.length > 0))
    return { undeclared: new Set(candidates) };
  const users = await readUsers(client);
  const undeclared = new Set(
    candidates.filter((email) => {
      const user = users.find((candidate) => candidate.email.toLowerCase() === email);
      return user === undefined || !declared.pins.some((document) => pinDocumentMatcher(document)(user));
    }),
  );
  return { undeclared, users };
}

/** liveOf joins what the plan read and what the members' read added: its listings and users include the plan's. */
function liveOf(planned: Live | undefined, members: Live | undefined): Live {
  if (planned === undefined) return members as Live;
  if (members === undefined) return planned;
  return { ...planned, views: members.views, pins: { ...planned.pins, ...members.pins }, users: members.users };
}
