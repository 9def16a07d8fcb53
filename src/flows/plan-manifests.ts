import { checkOutOfManifests } from './plan-out-path.js';
import { manifestTrees } from '../manifest/git-trees.js';
import type { ManifestSource } from '../manifest/source.js';
import { pendingLists } from '../plan/drift-origins.js';
import type { TargetSelector } from '../plan/targets-selection.js';
import type { Plan } from '../plan/types.js';
import type { Clock } from '../service/clock.js';
import type { LiveSeen } from '../state/memory-observe.js';
import type { SweepMemory } from '../state/sweep-memory.js';
import type { Live } from '../state/types.js';
import { jsonText } from '../text/json-text.js';
import { loadManifestSet, type Problem } from './manifest-set.js';
import { planWorkspaceOptions, type LastApplied, type SweepMemoryRun } from './plan-options.js';
import { checkOutputPath, writePlanFile } from './plan-output.js';
import { resolveScope, type ScopeFlags } from './plan-scope.js';
import { planWorkspace } from './plan-workspace.js';
import { NO_STOPS, type RunStops, type ServiceConnection } from './run-edges.js';

// What a caller of the plan flow names: the plan, its targets and the edges' types.
export type { Plan } from '../plan/types.js';
export type { LastApplied, SweepMemoryRun, TargetSelector } from './plan-options.js';
export type { ScopeFlags } from './plan-scope.js';

/** PlanRequest is what `viewctl plan` is asked: the manifests, the targets, the scope and the plan file. */
export interface PlanRequest {
  paths: readonly string[];
  targets?: readonly TargetSelector[];
  scope: ScopeFlags;
  /** `--out FILE`: checked before any request, written once the plan is made. */
  out?: string;
  /** The plan records the manifests' git trees (a plan file, or the JSON plan): `apply --plan` compares them with HEAD's. */
  recordTrees: boolean;
  /** `--ledger FILE` as given, which `out` must not name. */
  ledgerFile?: string;
}

/** MemoryRun is the sweep memory of one run as the plan flow uses it: loaded, checked, and told what was read. */
export interface MemoryRun extends SweepMemoryRun {
  observe(live: LiveSeen, pending: ReadonlySet<string>): void;
}

/** PlanEdges are what the plan flow touches outside its inputs, passed in. */
export interface PlanEdges {
  cwd: string;
  /** Where the manifests are read; default the filesystem under `cwd`. */
  files?: ManifestSource;
  /** The run's wall clock (the sweep memory's times, the budget night); default the system clock. */
  clock?: Pick<Clock, 'now'>;
  /** Opens the connection, once every check that needs no request passed. */
  connect(): Promise<ServiceConnection>;
  stops?: RunStops;
  /** The manifests' warnings, as soon as they are loaded. */
  onWarnings?(warnings: readonly Problem[]): void;
  onProgress?(done: number, total: number): void;
  /** Said before reads the plan adds on request (`--pinned-by`'s cost). */
  onNotice?(text: string): void;
  /** Loads the sweep memory (`--ledger FILE`), before any request. */
  openMemory?(): Promise<MemoryRun | undefined>;
  /** Finds the manifests of the memory's last applied commit, through git, before any request. */
  lastApplied?(memory: SweepMemory | undefined): Promise<LastApplied>;
}

/** PlanOutcome is the plan made, the live state it was computed from, how long planning took, and whether `out` keeps the plan. */
export interface PlanOutcome {
  plan: Plan;
  live: Live;
  elapsedMs: number;
  /** `out` was written to a file that keeps it (not a device or a pipe, which `apply --plan` cannot read back). */
  planFileKept: boolean;
}

/**
 * planManifests is `viewctl plan`: every check that needs no request first, in this
 * order (the manifests load without an error, the plan file can be written and is
 * neither a manifest nor the memory, `--base` resolves, the git trees, the sweep
 * memory and its last applied commit), then the reads and the diff
 * (`planWorkspace`), the memory told what was read, and the plan file written. It
 * never writes to the service.
 */
export async function planManifests(request: PlanRequest, edges: PlanEdges): Promise<PlanOutcome> {
  const { cwd } = edges;
  const stops = edges.stops ?? NO_STOPS;
  // A YAML plan file inside the manifests would be loaded as one: refused before reading any.
  if (request.out !== undefined) checkOutOfManifests(request.out, request.paths, cwd);
  const { desired, warnings, files } = await loadManifestSet(request.paths, cwd, edges.files);
  if (warnings.length > 0) edges.onWarnings?.(warnings);
  // A plan written through to a device or a pipe is not kept: the output then says how to save one.
  const planFileKept =
    request.out !== undefined && (await checkOutputPath(cwd, request.out, files, request.ledgerFile));
  // The sweep memory before the scope: --since-applied plans from its last applied commit.
  const memory = await edges.openMemory?.();
  const applied = { ledgerFile: request.ledgerFile, commit: memory?.memory.lastApplied?.commit };
  const scoped = await resolveScope(request.scope, request.paths, { cwd, clock: edges.clock, applied });
  // What the plan file (--out, or the JSON plan) records of the manifests' git state: before any request.
  const trees = request.recordTrees ? await manifestTrees(request.paths, cwd) : undefined;
  // Without --base, drift is labelled against the memory's last applied commit, found through git before any request.
  const lastApplied = scoped.scope.base === undefined ? await edges.lastApplied?.(memory?.memory) : undefined;
  const connection = await edges.connect();
  try {
    const how = {
      scoped,
      targets: request.targets,
      memory,
      applied: lastApplied,
      onProgress: edges.onProgress,
      onNotice: edges.onNotice,
    };
    const made = await stops.reads(() => planWorkspace(desired, connection.client, planWorkspaceOptions(how)));
    memory?.observe(made.live, pendingLists(made.plan.changes));
    // Only a clean checkout's ids say which manifests the plan was made from (apply --plan compares them with HEAD's).
    const plan = trees?.clean === true ? { ...made.plan, manifests: { trees: trees.trees } } : made.plan;
    if (request.out !== undefined) {
      stops.writingFiles(`writing ${request.out}`);
      await writePlanFile(cwd, request.out, jsonText(plan));
    }
    return { plan, live: made.live, elapsedMs: made.elapsedMs, planFileKept };
  } finally {
    await connection.close();
  }
}
