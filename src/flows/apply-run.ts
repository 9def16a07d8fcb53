import { carryOut } from '../apply/carry-out.js';
import type { OperationOutcome } from '../apply/execute.js';
import { appliedFacts } from '../apply/applied-facts.js';
import type { RepairChoice, ReviewDue } from '../apply/repair.js';
import { holdsNow } from '../apply/repair-holds.js';

export type { RepairChoice } from '../apply/repair.js';
import { repairSection } from '../apply/repair-report.js';
import { buildReport, nothingSentReport, reportExitCode, type ApplyReport } from '../apply/report.js';
import { withHeld } from '../apply/held-report.js';
import type { ApiWorkspace } from '../domain/api-types.js';
import { EXIT, InternalError } from '../errors.js';
import { manifestsHead, type ManifestsHead } from '../manifest/git-source.js';
import { desiredDigest } from '../plan/desired-digest.js';
import { pendingLists } from '../plan/drift-origins.js';
import type { Plan } from '../plan/types.js';
import type { ServiceClient } from '../service/types.js';
import type { AppliedFacts, AppliedRecord, HeldTargets } from '../state/memory-applied.js';
import { heldAfterApply } from '../state/memory-applied.js';
import type { LiveSeen } from '../state/memory-observe.js';
import type { SweepMemory } from '../state/sweep-memory.js';
import type { Desired } from '../state/types.js';
import { prepareApply, type ReadyToApply } from './apply-ready.js';
import { appliedManifests } from './applied-manifests.js';
import { appliedManifestsRecord, appliedPlanRecord, appliedRepoPaths, scopedPlanCovers } from './applied-record.js';
import { planWorkspace, type PlanWorkspaceOptions } from './plan-workspace.js';
import { prepareSavedPlan, type SavedPlanFile } from './saved-plan.js';
import { selfHealDue, type LoadedManifests } from './self-heal-gate.js';

/**
 * The apply flow (README, "apply"; "Self-heal: `apply --budget`"; "The sweep memory"):
 * the manifests planned now, or a saved plan re-checked, through every gate, shown and
 * approved by the caller, carried out and verified; the sweep memory told what was read,
 * what landed and, on a complete apply that exited 0, what was applied. The command line
 * turns flags into its input and renders what it returns; the tests call it the same way.
 */

/** ManifestsLoaded are the manifests an apply loaded (`loadApplyManifests`): the desired state, the files read, its digest and where git stood. */
export interface ManifestsLoaded extends LoadedManifests {
  desired: Desired;
}

/**
 * loadApplyManifests notes where git stands, then loads the manifests under `paths`
 * with `load` (the caller's loader, which shows the loader's warnings): the last applied
 * record is that commit's only if it did not move meanwhile.
 */
export async function loadApplyManifests(
  paths: readonly string[],
  cwd: string,
  load: () => Promise<{ desired: Desired; files: string[] }>,
): Promise<ManifestsLoaded> {
  const read: ManifestsHead | undefined = await manifestsHead(paths.length === 0 ? ['.'] : paths, cwd);
  const { desired, files } = await load();
  return { paths, cwd, files, desired, digest: desiredDigest(desired), read };
}

/** ApplyMemory is what the flow asks of the sweep memory (`--ledger FILE`): the memory as loaded, and the steps that teach it. */
export interface ApplyMemory {
  readonly memory: SweepMemory;
  /** The `--ledger` file as given, for the advice an apply prints (how to plan its held targets again). */
  readonly file?: string;
  checkWorkspace(workspace: Pick<ApiWorkspace, 'id' | 'name'>): void;
  observe(live: LiveSeen, pending?: ReadonlySet<string>): void;
  rememberWrites(facts: AppliedFacts): void;
  /** Held targets whose cause this run saw end (`holdsNow`): pruned from the last applied record when it is saved. */
  endHolds(targets: readonly string[]): void;
  /** Records `applied` as what was last applied, with the targets it leaves held and why (`heldAfterApply`). */
  advance(applied: AppliedRecord, held: HeldTargets): void;
  save(): Promise<void>;
}

/** ApplySource is where the plan comes from: manifests to plan now (with `--target`, `--base`, self-heal), or a plan file. */
export type ApplySource =
  | {
      type: 'manifests';
      manifests: ManifestsLoaded;
      targeted: boolean;
      /** `--base REF` as given: origins are then labelled against REF, not the last applied commit. */
      base?: string;
      /** Self-heal (`--budget`): the reserve kept for other integrations. */
      repair?: { reserve: number };
    }
  | { type: 'file'; file: SavedPlanFile };

/** ApplyInput is what the command line asks of an apply. */
export interface ApplyInput {
  source: ApplySource;
  cwd: string;
  memoryRun?: ApplyMemory;
  expectDigest?: string;
  maxDeletes: number;
  /** `--max-pin-changes` (default 100): the most members' pinned lists a plan may rewrite; self-heal repairs that many at most. */
  maxPinChanges?: number;
  /** planWorkspace's options for the manifests (progress, `--target`, scope); the memory's are added here. */
  planning: PlanWorkspaceOptions;
  /** Progress of a saved plan's re-reads. */
  onRecheckProgress?: (done: number, total: number) => void;
}

/** ApplyEdges are the caller's: the service, the approval, progress and notes. */
export interface ApplyEdges {
  /** Opens the connection; `dailyReserve` is what the client must leave of today's quota (self-heal). */
  connect(options: { dailyReserve?: number }): Promise<ServiceClient>;
  /** Shows the plan about to be carried out and asks for approval; throws to stop before any write. */
  confirm(shown: ShownPlan): Promise<void>;
  /** Called once, just before the first write. */
  onWriting(client: ServiceClient): void;
  /** Stops new writes (an interrupt). */
  signal?: AbortSignal;
  relistDelaysMs?: readonly number[];
  /** Called as each operation ends, with how many of the total are done. */
  onOutcome?(outcome: OperationOutcome, done: number, total: number): void;
  /** A note for the user (why the memory's record was not advanced). */
  note(text: string): void;
}

/** ShownPlan is what the caller shows before asking: the plan, how long it took, and self-heal's choice. */
export interface ShownPlan {
  plan: Plan;
  elapsedMs: number;
  repair?: RepairChoice;
}

/**
 * ApplyResult is what an apply did: every change already live (nothing sent), nothing
 * to apply (the plan and, for self-heal, its account), a saved plan every change of
 * which is held or already live (nothing sent; the report names what is held), or
 * carried out (the report, naming what a saved plan held); the exit code in each
 * (README, "Exit codes").
 */
export type ApplyResult =
  | { type: 'already-applied'; report: ApplyReport; code: number }
  | { type: 'review-due'; shown: ShownPlan; due: ReviewDue; code: number }
  | { type: 'nothing'; shown: ShownPlan; report: ApplyReport; code: number }
  | { type: 'held'; report: ApplyReport; code: number }
  | { type: 'carried-out'; report: ApplyReport; code: number };

/**
 * runApply is `viewctl apply`. Self-heal's gate (`checkSelfHeal`) runs first, before any
 * request: when a reviewed apply is due, the night still sweeps as `plan --budget` does
 * (`sweepOnly`: reads, reports drift and why the review is due, writes nothing, exit 2
 * as for drift) rather than end blind; then the plan is made or re-checked (`prepareApply`, `prepareSavedPlan`),
 * the memory observes what was read, the caller confirms, the operations are carried
 * out (`carryOut`) and the memory learns what landed. The memory is saved whatever the
 * outcome; what was applied is recorded only on exit 0, and only for a complete apply.
 */
export async function runApply(input: ApplyInput, edges: ApplyEdges): Promise<ApplyResult> {
  const { source, memoryRun } = input;
  const due =
    source.type === 'manifests' && source.repair !== undefined
      ? await selfHealDue(memoryRun?.memory, source.manifests)
      : undefined;
  const reserve = source.type === 'manifests' ? source.repair?.reserve : undefined;
  let client: ServiceClient | undefined;
  const connect = async (): Promise<ServiceClient> => {
    client = await edges.connect(reserve === undefined ? {} : { dailyReserve: reserve });
    return client;
  };
  if (due !== undefined && source.type === 'manifests') return sweepOnly(input, source, due, await connect());
  const gates = { expectDigest: input.expectDigest, maxDeletes: input.maxDeletes, maxPinChanges: input.maxPinChanges };
  const ready: ReadyToApply =
    source.type === 'file'
      ? await prepareSavedPlan(source.file, connect, {
          ...gates,
          ...(input.onRecheckProgress === undefined ? {} : { onProgress: input.onRecheckProgress }),
          ...(memoryRun === undefined
            ? {}
            : { onWorkspace: (workspace: ApiWorkspace) => memoryRun.checkWorkspace(workspace) }),
        })
      : await prepareApply(source.manifests.desired, await connect(), {
          ...(await withMemory(input.planning, memoryRun, source)),
          ...gates,
          ...(source.repair === undefined ? {} : { repair: true }),
        });
  const { plan, live, elapsedMs, operations, alreadyApplied, repair, held } = ready;
  memoryRun?.observe(live, pendingLists(plan.changes));
  // Holds are judged against the last applied desired state alone: now, when this run
  // loaded it; else only once this run's apply advances the record to its own.
  const ended =
    source.type === 'manifests' && !source.targeted && memoryRun !== undefined
      ? holdsNow(memoryRun.memory, plan, live).ended
      : [];
  const judged = source.type === 'manifests' && lastAppliedLoaded(memoryRun?.memory, source.manifests);
  if (judged) memoryRun?.endHolds(ended);
  // What was read and what landed is remembered whatever the outcome; what was applied
  // only on exit 0, with what was held. The report then says how to plan the held targets again.
  const finish = async <T extends ApplyResult>(result: T): Promise<T> => {
    const lastApplied =
      memoryRun === undefined
        ? undefined
        : await remember(memoryRun, result.code, input, plan, edges, judged ? [] : ended);
    if (!('report' in result)) return result;
    const advice = {
      ...(memoryRun?.file === undefined ? {} : { ledgerFile: memoryRun.file }),
      ...(lastApplied === undefined ? {} : { lastApplied }),
    };
    return { ...result, report: withHeld(result.report, held, advice) };
  };
  if (client === undefined) throw new InternalError('apply prepared a plan without opening a connection');
  if (operations.length === 0 && held !== undefined) {
    // Every change left is held (or already live): nothing to send; the report says what is held and why.
    const report = nothingSentReport(plan, alreadyApplied, { requests: live.requests.used, elapsedMs }, 'held');
    return finish({ type: 'held', report, code: EXIT.ok });
  }
  if (operations.length === 0 && alreadyApplied.length > 0) {
    // Every change is live as the plan leaves it: say so, send nothing, succeed.
    const report = nothingSentReport(
      plan,
      alreadyApplied,
      { requests: live.requests.used, elapsedMs },
      'already-applied',
    );
    return finish({ type: 'already-applied', report, code: EXIT.ok });
  }
  const shown: ShownPlan = { plan, elapsedMs, ...(repair === undefined ? {} : { repair }) };
  if (operations.length === 0) {
    const empty = emptyReport(plan);
    const report = repair === undefined ? empty : { ...empty, repair: repairSection(plan, repair, new Set()) };
    return finish({ type: 'nothing', shown, report, code: EXIT.ok });
  }
  await edges.confirm(shown);
  edges.onWriting(client);
  let done = 0;
  const report = await carryOut(plan, operations, {
    client,
    live,
    fromPlanFile: source.type === 'file',
    ...(edges.signal === undefined ? {} : { signal: edges.signal }),
    relistDelaysMs: edges.relistDelaysMs,
    alreadyApplied,
    ...(repair === undefined ? {} : { repair }),
    onOutcome: (outcome: OperationOutcome) => {
      done += 1;
      edges.onOutcome?.(outcome, done, operations.length);
    },
  });
  memoryRun?.rememberWrites(appliedFacts(plan, report));
  return finish({ type: 'carried-out', report, code: reportExitCode(report) });
}

/**
 * sweepOnly is a self-heal night for which a reviewed apply is due: it plans as `plan
 * --budget N` does (the reads within N and what is left today less `--reserve`), tells
 * the memory what it read, and writes nothing; the result says why the review is due,
 * with exit 2, as a report night's drift. A night never ends blind: the drift of the
 * days until the reviewed apply is still found and dated, and the sweep goes on.
 */
async function sweepOnly(
  input: ApplyInput,
  source: Extract<ApplySource, { type: 'manifests' }>,
  due: ReviewDue,
  client: ServiceClient,
): Promise<ApplyResult> {
  const { memoryRun } = input;
  const { plan, live, elapsedMs } = await planWorkspace(
    source.manifests.desired,
    client,
    await withMemory(input.planning, memoryRun, source),
  );
  memoryRun?.observe(live, pendingLists(plan.changes));
  // A review is due: holds end here only when the manifests loaded are still the last applied ones.
  if (!source.targeted && lastAppliedLoaded(memoryRun?.memory, source.manifests))
    memoryRun?.endHolds(holdsNow(memoryRun.memory, plan, live).ended);
  await memoryRun?.save();
  return { type: 'review-due', shown: { plan, elapsedMs }, due, code: EXIT.changes };
}

/**
 * lastAppliedLoaded tells whether the run loaded the desired state the memory records as
 * last applied (`lastApplied.digest`): only then may a hold end on what its plan shows.
 * Judged against manifests not applied (a merge later reverted, a review due), a hold
 * could end on a change no reviewer approved carried out.
 */
function lastAppliedLoaded(memory: SweepMemory | undefined, manifests: Pick<LoadedManifests, 'digest'>): boolean {
  const digest = memory?.lastApplied?.digest;
  return digest !== undefined && digest === manifests.digest;
}

/**
 * withMemory adds the sweep memory to the planning options: the memory itself, its
 * workspace check, and, without `--base`, the manifests of its last applied commit that
 * origins are labelled against (`appliedManifests`), with their warnings.
 */
async function withMemory(
  planning: PlanWorkspaceOptions,
  memoryRun: ApplyMemory | undefined,
  source: Extract<ApplySource, { type: 'manifests' }>,
): Promise<PlanWorkspaceOptions> {
  if (memoryRun === undefined) return planning;
  const found = await appliedManifests(memoryRun.memory, source.base, source.manifests.paths, source.manifests.cwd);
  return {
    ...planning,
    memory: memoryRun.memory,
    onWorkspace: (workspace) => memoryRun.checkWorkspace(workspace),
    ...(found.applied === undefined ? {} : { applied: found.applied }),
    ...(found.warnings.length === 0 ? {} : { warnings: [...(planning.warnings ?? []), ...found.warnings] }),
  };
}

/**
 * remember saves the sweep memory after an apply that exited `code`: on 0, with what was
 * applied (`appliedManifestsRecord`, `appliedPlanRecord`) when the apply carried out
 * the whole of a commit's manifests; otherwise a note says why it was not advanced. It
 * answers the commit the memory then records as last applied, if any. `ended` are the
 * holds this run saw end under manifests not applied yet: they end once it advances the
 * record to them.
 */
async function remember(
  memoryRun: ApplyMemory,
  code: number,
  input: ApplyInput,
  plan: Plan,
  edges: ApplyEdges,
  ended: readonly string[],
): Promise<string | undefined> {
  let recorded = memoryRun.memory.lastApplied?.commit;
  if (code === EXIT.ok) {
    const { source, cwd } = input;
    const last = memoryRun.memory.lastApplied;
    const advance =
      source.type === 'file'
        ? await appliedPlanRecord(plan, cwd, last?.paths)
        : await appliedManifestsRecord({ ...source.manifests, targeted: source.targeted }, last?.paths);
    // A plan scoped to --base REF carried out every merged change only when REF's manifests are the last applied commit's.
    const base = 'applied' in advance ? plan.scope?.base : undefined;
    const manifests =
      base === undefined
        ? undefined
        : await appliedRepoPaths(plan, source.type === 'file' ? undefined : source.manifests.paths, cwd);
    const uncovered = manifests === undefined ? undefined : await scopedPlanCovers(base, last?.commit, manifests);
    const why = uncovered ?? ('why' in advance ? advance.why : undefined);
    if (why !== undefined) edges.note(`the sweep memory's last applied commit was not advanced: ${why}`);
    else if ('applied' in advance) {
      memoryRun.advance(advance.applied, heldAfterApply(last, appliedTargets(plan, source)));
      // The desired state this run planned is now the last applied: the holds it saw end, end.
      memoryRun.endHolds(ended);
      recorded = advance.applied.commit;
    }
  }
  await memoryRun.save();
  return recorded;
}

/**
 * appliedTargets are what an apply that exited 0 tells of the held targets: those its plan
 * held (a saved plan's stale targets and their dependents among them: `planLeft`), those
 * it changed, and whether it read every target (a reviewed apply of a plan
 * neither scoped by --base nor short of any list; never self-heal, which carries out
 * only repairs and so never a change held before).
 */
function appliedTargets(
  plan: Plan,
  source: ApplySource,
): { held: { target: string; code: string }[]; changed: string[]; readEverything: boolean } {
  const repair = source.type === 'manifests' && source.repair !== undefined;
  const scope = plan.scope;
  return {
    held: (plan.held ?? []).map((entry) => ({ target: entry.target, code: entry.code })),
    changed: repair ? [] : plan.changes.map((change) => change.target),
    readEverything: !repair && (scope === undefined || (scope.base === undefined && scope.unread === 0)),
  };
}

function emptyReport(plan: Plan): ApplyReport {
  return buildReport(
    plan,
    { outcomes: [], stopped: null },
    { problems: [], domainsRead: [] },
    { requests: 0, elapsedMs: 0, fromPlanFile: false },
  );
}
