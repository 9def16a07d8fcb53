import { constants } from 'node:fs';
import { access, realpath, unlink, writeFile } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { systemErrorCode, UsageError } from '../errors.js';
import { outputKind } from '../export/atomic-file.js';
import { formatProblems } from '../manifest/format-problems.js';
import { nodeManifestSource } from '../manifest/load.js';
import { loadDesired } from '../manifest/load-desired.js';
import type { ServiceClient } from '../service/types.js';
import type { Desired } from '../state/types.js';
import { planWorkspace, type PlanWorkspaceOptions, type WorkspacePlan } from '../flows/plan-workspace.js';
import type { TargetSelector } from '../plan/targets-selection.js';
import type { CliIo } from './io.js';
import { progressReporter } from './progress.js';
import type { ResolvedScope } from './scope-options.js';
import type { LedgerRun } from './ledger-option.js';
import type { AppliedFound } from '../flows/applied-manifests.js';

/**
 * loadManifestFiles loads and validates the manifests under `paths` from the
 * filesystem. Warnings go to stderr; any error stops here, before the service is
 * contacted.
 */
export async function loadManifestFiles(
  paths: string[],
  io: CliIo,
  color: boolean,
  showWarnings = false,
): Promise<Desired> {
  return (await loadManifestSet(paths, io, color, showWarnings)).desired;
}

/**
 * loadManifestSet is `loadManifestFiles`, also answering the files it read (absolute
 * paths). Warnings of one code print as one entry unless `showWarnings`.
 */
export async function loadManifestSet(
  paths: string[],
  io: CliIo,
  color: boolean,
  showWarnings = false,
): Promise<{ desired: Desired; files: string[] }> {
  const { desired, warnings, read } = await loadDesired(paths.length === 0 ? ['.'] : paths, nodeManifestSource(io.cwd));
  if (warnings.length > 0) io.stderr.write(`${formatProblems(warnings, { color, showWarnings })}\n`);
  return { desired, files: read.map((file) => resolve(io.cwd, file)) };
}

/**
 * checkOutputPath makes sure, before any request is spent, that `--out FILE` can be
 * written: by the writer's rule on what stands at FILE (`outputKind`: a folder, a
 * socket or the like is refused; a device or a pipe is written through), its folder
 * exists and takes a new file, and FILE is neither one of the manifests this run read
 * nor the sweep memory (`ledger`, the --ledger FILE): a plan written there would replace
 * it, or be replaced by the memory saved after it. Links are followed on both sides, as the
 * loader follows them. Answers whether FILE keeps the plan: false for a device or a
 * pipe, which `apply --plan` cannot read back, so the output must not offer it.
 */
export async function checkOutputPath(
  io: CliIo,
  path: string,
  manifests: readonly string[],
  ledger?: string,
): Promise<boolean> {
  const target = resolve(io.cwd, path);
  const real = await realpath(target).catch(() => target);
  if (ledger !== undefined) {
    const memory = resolve(io.cwd, ledger);
    if ((await realpath(memory).catch(() => memory)) === real) {
      throw new UsageError(
        'output.overwrites-ledger',
        `--out ${path} is the sweep memory (--ledger ${ledger}); the plan and the memory would replace each other; nothing was read from the service`,
        'write the plan to another file, e.g. --out plan.json',
      );
    }
  }
  const read = new Set(await Promise.all(manifests.map((file) => realpath(file).catch(() => file))));
  if (read.has(real)) {
    throw new UsageError(
      'output.overwrites-manifest',
      `--out ${path} is a manifest this plan read; writing the plan there would replace it`,
      'write the plan to a file outside the manifests, e.g. --out plan.json',
    );
  }
  const failed = (reason: string, hint = 'check that the folder exists and is writable'): UsageError =>
    new UsageError('output.write-failed', `cannot write ${path}: ${reason}; nothing was read from the service`, hint);
  const kind = await outputKind(target);
  if (kind.action === 'refuse') throw failed(kind.reason, 'name a file to write the plan to, e.g. --out plan.json');
  if (kind.action === 'write-through') {
    // A device or a pipe is opened and written, never renamed over: no folder to try.
    await access(target, constants.W_OK).catch((error: unknown) => {
      throw failed(systemErrorCode(error));
    });
    return false;
  }
  // The plan is written through a temporary file beside FILE as named (a link to a file
  // is replaced, not written through) and a rename: try exactly that folder.
  const probe = join(dirname(target), `.${basename(target)}.${process.pid}.probe`);
  try {
    await writeFile(probe, '', { flag: 'wx' });
  } catch (error) {
    throw failed(systemErrorCode(error));
  }
  await unlink(probe).catch(() => undefined);
  return true;
}

/**
 * planAgainst plans `desired` through the core's one read-then-diff flow
 * (`planWorkspace`), with progress lines on stderr; `targets` narrows it (`--target`),
 * `scoped` carries `--base` and `--budget` when given.
 */
export function planAgainst(
  desired: Desired,
  client: ServiceClient,
  io: CliIo,
  how: PlanHow = {},
): Promise<WorkspacePlan> {
  return planWorkspace(desired, client, planningOptions(io, how));
}

/** PlanHow is what the command line asks of a plan: `--target`, `--base`, `--budget` and `--reserve` resolved, and `--ledger` loaded. */
interface PlanHow {
  targets?: readonly TargetSelector[];
  scoped?: ResolvedScope;
  ledger?: LedgerRun;
  /** What `appliedManifests` found of the memory's last applied commit, and its warnings. */
  applied?: AppliedFound;
}

/** planningOptions are planWorkspace's options for what the command line asks (`how`), with progress lines on stderr. */
export function planningOptions(io: CliIo, how: PlanHow = {}): PlanWorkspaceOptions {
  return {
    onProgress: progressReporter(io.stderr, 'reading live state'),
    targets: how.targets,
    // The scope request, the clock of its UTC day and its warnings, under planWorkspace's names.
    ...how.scoped,
    // The sweep memory is advice for the plan, used once the workspace's answer shows it is this workspace's.
    ...(how.ledger === undefined
      ? {}
      : { memory: how.ledger.memory, onWorkspace: (workspace) => how.ledger?.checkWorkspace(workspace) }),
    // The last applied manifests origins are labelled against (a plan without --base), and why they could not be loaded.
    ...(how.applied?.applied === undefined ? {} : { applied: how.applied.applied }),
    ...(how.applied === undefined || how.applied.warnings.length === 0
      ? {}
      : { warnings: [...(how.scoped?.warnings ?? []), ...how.applied.warnings] }),
  };
}
