import { mkdir, readFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { Option } from 'commander';
import type { ApiWorkspace } from '../domain/api-types.js';
import { systemErrorCode, UsageError, ViewctlError } from '../errors.js';
import { outputKind, writeAtomically, writeFailureReason } from '../export/atomic-file.js';
import { systemClock } from '../service/clock.js';
import { advanceLastApplied, rememberApplied, type AppliedFacts, type AppliedRecord } from '../state/ledger-applied.js';
import { mergeMemories, sortedMemory } from '../state/ledger-merge.js';
import { forgetUnseen, observeRun, type LiveSeen } from '../state/ledger-observe.js';
import { checkLedgerWorkspace, parseLedger } from '../state/ledger-parse.js';
import type { SweepMemory } from '../state/sweep-memory.js';
import { viewTarget } from '../domain/targets.js';
import type { CliIo } from './io.js';

/**
 * `--ledger FILE` (plan, apply): the sweep memory (README, "The sweep memory"). The one
 * place it is loaded (`openLedger`, before any request) and the one place it is saved
 * (`LedgerRun.save`, after the run, merged with what the file holds then).
 */

/** ledgerOption is `--ledger FILE`; there is no default path. */
export function ledgerOption(): Option {
  return new Option(
    '--ledger <file>',
    'the sweep memory: read before planning (when the file exists) and written after the run, merged with what it holds then',
  );
}

/**
 * LedgerRun is one run's use of the memory file: the memory as loaded (advice for the
 * plan), and what this run learnt (`observe`, `landed`, `advance`), which `save`
 * merges into the file.
 */
export class LedgerRun {
  /** The memory as the file held it when the run began; empty for a new file. */
  readonly memory: SweepMemory;
  private learnt: SweepMemory;
  private readonly forgotten = new Set<string>();
  private changed = false;
  /** This run advanced the last applied commit (an apply that exited 0): it wins over the file's at write time. */
  private advanced = false;

  constructor(
    /** FILE as given, for messages. */
    readonly file: string,
    /** FILE resolved against the working directory. */
    private readonly path: string,
    memory: SweepMemory,
    private readonly now: () => number,
  ) {
    this.memory = memory;
    this.learnt = memory;
  }

  /** checkWorkspace refuses a memory of another workspace than the key's, on the workspace's answer (`ledger.other-workspace`). */
  checkWorkspace(workspace: Pick<ApiWorkspace, 'id' | 'name'>): void {
    checkLedgerWorkspace(this.memory, workspace, this.file);
  }

  /** observe records what the run read (`observeRun`) and, of the lists read, those whose difference is a group's new member's (`pendingLists`). */
  observe(live: LiveSeen, pending: ReadonlySet<string> = new Set()): void {
    this.learnt = observeRun(this.learnt, live, this.now(), pending);
    this.changed = true;
  }

  /** landed records what an apply wrote (`rememberApplied`); the views it deleted stay forgotten whatever the file holds at write time. */
  landed(facts: AppliedFacts): void {
    this.learnt = rememberApplied(this.learnt, facts, this.now());
    for (const view of facts.deleted) this.forgotten.add(viewTarget(view.domain, view.id));
    this.changed = true;
  }

  /** advance records what a complete apply carried out (`applied`: commit, digest, paths), `held` its targets no apply carried out (`heldAfterApply`). */
  advance(applied: AppliedRecord, held: readonly string[]): void {
    this.learnt = advanceLastApplied(this.learnt, applied, this.now(), held);
    this.advanced = true;
    this.changed = true;
  }

  /**
   * save writes what the run learnt, merged with what the file holds now (another run
   * may have written it meanwhile), atomically. A run that read nothing writes nothing.
   * The memory is advice: when the file cannot be written, or now holds something that
   * is not this workspace's memory (never written over), stderr says so and the run's
   * exit code stands.
   */
  async save(io: Pick<CliIo, 'stderr'>): Promise<void> {
    if (!this.changed) return;
    try {
      const onDisk = parseLedger(await readText(this.path, this.file), this.file);
      if (this.learnt.workspaceId !== undefined)
        checkLedgerWorkspace(onDisk, { id: this.learnt.workspaceId }, this.file);
      // This run's apply is the newest: applies run one at a time (the apply concurrency
      // group), so its commit wins even over a file whose clock said later or the same instant.
      const merged =
        this.advanced && this.learnt.lastApplied !== undefined
          ? { ...mergeMemories(onDisk, this.learnt), lastApplied: this.learnt.lastApplied }
          : mergeMemories(onDisk, this.learnt);
      const views = Object.fromEntries(Object.entries(merged.views).filter(([key]) => !this.forgotten.has(key)));
      const memory = sortedMemory(forgetUnseen({ ...merged, views }, this.now()));
      await mkdir(dirname(this.path), { recursive: true });
      await writeAtomically(this.path, `${JSON.stringify(memory, null, 2)}\n`);
    } catch (error) {
      const why = error instanceof ViewctlError ? `${error.code}: ${error.message}` : writeFailureReason(error);
      io.stderr.write(
        `warning: the sweep memory was not written (${why}); this run's reads are not remembered, and the next run knows less\n`,
      );
    }
  }
}

/**
 * openLedger loads `--ledger FILE` before any request: a missing file is an empty
 * memory (the run creates it); one that cannot be read, or is not a sweep memory
 * (`ledger.invalid`), stops the run here. A path that can never be written as a file
 * (a folder, a socket) is refused too.
 */
export async function openLedger(
  io: Pick<CliIo, 'cwd' | 'clock'>,
  file: string | undefined,
): Promise<LedgerRun | undefined> {
  if (file === undefined) return undefined;
  const path = resolve(io.cwd, file);
  const kind = await outputKind(path);
  if (kind.action === 'refuse')
    throw new UsageError(
      'output.write-failed',
      `cannot write --ledger ${file}: ${kind.reason}; nothing was read from the service`,
      'name a file for the sweep memory, e.g. --ledger .viewctl/ledger.json',
    );
  const clock = io.clock ?? systemClock;
  return new LedgerRun(file, path, parseLedger(await readText(path, file), file), () => clock.now());
}

/** readText is the file's text, or undefined when there is none yet. */
async function readText(path: string, file: string): Promise<string | undefined> {
  try {
    return await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new UsageError(
      'ledger.unreadable',
      `cannot read --ledger ${file}: ${systemErrorCode(error)}`,
      'check the path and its permissions, or point --ledger at another file',
    );
  }
}
