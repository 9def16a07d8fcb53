import type { ApiWorkspace } from '../domain/api-types.js';
import { viewTarget } from '../domain/targets.js';
import { systemErrorCode, ViewctlError } from '../errors.js';
import {
  advanceLastApplied,
  rememberApplied,
  withHoldsEnded,
  type AppliedFacts,
  type HeldTargets,
} from './memory-applied.js';
import { distrustFuture, futureGivesWay, futureWarning } from './memory-dates.js';
import { mergeMemories, sortedMemory } from './memory-merge.js';
import { forgetUnseen, observeRun, type LiveSeen } from './memory-observe.js';
import { checkMemoryWorkspace } from './memory-parse.js';
import type { MemoryStore } from './memory-store.js';
import type { SweepMemory, ViewDigester } from './sweep-memory.js';

/**
 * One run's use of the sweep memory (README, "The sweep memory"), over a `MemoryStore`:
 * loaded once before any request (`openMemoryFileRun`), fed with what the run read and
 * wrote, and saved once after it (`MemoryFileRun.save`), merged with what the store holds
 * then. Dates after the run's clock are never trusted (memory-dates.ts): made unknown
 * as loaded, and never winning the merge at write time.
 */

/** AppliedRecordOf is what `advanceLastApplied` records of an apply (memory-applied.ts owns its shape). */
type AppliedRecordOf = Parameters<typeof advanceLastApplied>[1];

/** Stderr is where a run's warnings about its memory go. */
export interface Stderr {
  stderr: NodeJS.WritableStream;
}

/**
 * openMemoryFileRun loads the memory `store` holds, for a run whose clock is `now`: what
 * cannot be read, or is not a sweep memory, stops the run here (before any request);
 * dates after the run's clock are made unknown, and `io.stderr`, when given, says so.
 * `digest` digests the views the run sees (`observeRun`); without it none are.
 */
export async function openMemoryFileRun(
  store: MemoryStore,
  now: () => number,
  io?: Partial<Stderr>,
  digest?: ViewDigester,
): Promise<MemoryFileRun> {
  const time = now();
  const { memory, future } = distrustFuture(await store.read(), time);
  const warning = futureWarning(future, store.file, time);
  if (warning !== undefined) io?.stderr?.write(`warning: ${warning.message} (${warning.code})\n`);
  return new MemoryFileRun(store, memory, now, digest);
}

/**
 * MemoryFileRun is one run's use of the memory: the memory as loaded (advice for the
 * plan), and what this run learnt (`observe`, `rememberWrites`, `endHolds`, `advance`), which `save`
 * merges into the store.
 */
export class MemoryFileRun {
  /** The memory as the store held it when the run began (dates after the run's clock made unknown); empty for a new file. */
  readonly memory: SweepMemory;
  /** The memory's name in messages (`--ledger FILE` as given). */
  readonly file: string;
  private learnt: SweepMemory;
  private readonly forgotten = new Set<string>();
  /** Held targets whose cause this run saw end (`endHolds`): pruned from the last applied record at write time. */
  private readonly ended = new Set<string>();
  private changed = false;
  /** This run advanced the last applied commit (an apply that exited 0): it wins over the store's at write time. */
  private advanced = false;

  constructor(
    private readonly store: MemoryStore,
    memory: SweepMemory,
    private readonly now: () => number,
    private readonly digest?: ViewDigester,
  ) {
    this.file = store.file;
    this.memory = memory;
    this.learnt = memory;
  }

  /** checkWorkspace refuses a memory of another workspace than the key's, on the workspace's answer (`ledger.other-workspace`). */
  checkWorkspace(workspace: Pick<ApiWorkspace, 'id' | 'name'>): void {
    checkMemoryWorkspace(this.memory, workspace, this.file);
  }

  /** observe records what the run read (`observeRun`) and, of the lists read, those whose difference is a group's new member's (`pendingLists`). */
  observe(live: LiveSeen, pending: ReadonlySet<string> = new Set()): void {
    this.learnt = observeRun(this.learnt, live, this.now(), pending, this.digest);
    this.changed = true;
  }

  /** rememberWrites records what an apply wrote (`rememberApplied`); the views it deleted stay forgotten whatever the store holds at write time. */
  rememberWrites(facts: AppliedFacts): void {
    this.learnt = rememberApplied(this.learnt, facts, this.now());
    for (const view of facts.deleted) this.forgotten.add(viewTarget(view.domain, view.id));
    this.changed = true;
  }

  /** advance records what an apply that exited 0 carried out (`applied`, as `advanceLastApplied` takes it), `held` its targets no apply carried out, with why (`heldAfterApply`). */
  advance(applied: AppliedRecordOf, held: HeldTargets): void {
    this.learnt = advanceLastApplied(this.learnt, applied, this.now(), held);
    this.advanced = true;
    this.changed = true;
  }

  /**
   * endHolds records that the cause of these held targets ended (`holdsNow`): they are
   * pruned from the last applied record written, when it is this run's or the one it
   * loaded (a newer apply's record held them from its own reads).
   */
  endHolds(targets: readonly string[]): void {
    if (targets.length === 0) return;
    for (const target of targets) this.ended.add(target);
    this.changed = true;
  }

  /**
   * save writes what the run learnt, merged with what the store holds now (another run
   * may have written it meanwhile), whole and with no other writer in between. A run
   * that read nothing writes nothing. The memory is advice: when it cannot be written,
   * or the store now holds something that is not this workspace's memory (never written
   * over), stderr says so and the run's exit code stands.
   */
  async save(io: Stderr): Promise<void> {
    if (!this.changed) return;
    try {
      await this.store.writeMerged((held) => this.mergedWith(held));
    } catch (error) {
      const why = error instanceof ViewctlError ? `${error.code}: ${error.message}` : systemErrorCode(error);
      io.stderr.write(
        `warning: the sweep memory was not written (${why}); this run's reads are not remembered, and the next run knows less\n`,
      );
    }
  }

  /** mergedWith is the memory to write over `held` (what the store holds at write time). */
  private mergedWith(held: SweepMemory): SweepMemory {
    const now = this.now();
    if (this.learnt.workspaceId !== undefined) checkMemoryWorkspace(held, { id: this.learnt.workspaceId }, this.file);
    // A date after this run's clock (another runner's clock ahead, an edit) never wins the merge.
    const onDisk = futureGivesWay(held, this.learnt, now);
    // This run's apply is the newest: applies run one at a time (the apply concurrency
    // group), so its commit wins even over a file whose clock said later or the same instant.
    const merged =
      this.advanced && this.learnt.lastApplied !== undefined
        ? { ...mergeMemories(onDisk, this.learnt), lastApplied: this.learnt.lastApplied }
        : mergeMemories(onDisk, this.learnt);
    const views = Object.fromEntries(Object.entries(merged.views).filter(([key]) => !this.forgotten.has(key)));
    const { lastApplied } = merged;
    const loaded = this.memory.lastApplied;
    const ours =
      lastApplied !== undefined &&
      (this.advanced || (lastApplied.commit === loaded?.commit && lastApplied.at === loaded.at));
    return sortedMemory(
      forgetUnseen(
        { ...merged, views, ...(ours ? { lastApplied: withHoldsEnded(lastApplied, this.ended) } : {}) },
        now,
      ),
    );
  }
}
