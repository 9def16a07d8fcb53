import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { Desired } from '../domain/desired.js';
import { DEFAULT_RESERVE } from '../domain/domains.js';
import { systemErrorCode, UsageError } from '../errors.js';
import type { TargetSelector } from '../plan/targets-selection.js';
import type { Clock } from '../service/clock.js';
import { loadApplyManifests, type ApplySource } from './apply-run.js';
import { resolveScope, type ResolvedScope } from './plan-scope.js';

/**
 * What `viewctl apply` carries out, read before any request: the manifests (with the
 * scope flags resolved and self-heal's reserve), or a saved plan file's text, which
 * the saved-plan flow then checks. The flags that cannot go with a saved plan are
 * refused here, never silently dropped.
 */

/** ApplySourceRequest are the flags that say what an apply carries out. */
export interface ApplySourceRequest {
  paths: readonly string[];
  /** `--plan FILE`. */
  plan?: string;
  base?: string;
  /** `--budget N`: self-heal (README, "Self-heal: `apply --budget`"). */
  budget?: number;
  budgetDay?: string;
  /** `--reserve R`, with `--budget` only (default 300 then). */
  reserve?: number;
  /** `--target`: only with the manifests. */
  targets?: readonly TargetSelector[];
}

/** ApplySourceEdges are the run's directory and clock, and the loader that shows the manifests' warnings. */
export interface ApplySourceEdges {
  cwd: string;
  clock?: Pick<Clock, 'now'>;
  load: () => Promise<{ desired: Desired; files: string[] }>;
}

/** applySource reads what needs no network: the manifests and the scope, or the plan file's text (the saved-plan flow checks it). */
export async function applySource(
  request: ApplySourceRequest,
  edges: ApplySourceEdges,
): Promise<{ source: ApplySource; scoped?: ResolvedScope }> {
  const { paths } = request;
  const where = { cwd: edges.cwd, ...(edges.clock === undefined ? {} : { clock: edges.clock }) };
  if (request.plan === undefined) {
    const manifests = await loadApplyManifests(paths, edges.cwd, edges.load);
    const repair = repairRequest(request);
    const scoped = await resolveScope(
      { base: request.base, budget: request.budget, budgetDay: request.budgetDay, reserve: repair?.reserve },
      paths,
      where,
    );
    return {
      source: {
        type: 'manifests',
        manifests,
        targeted: (request.targets?.length ?? 0) > 0,
        ...(request.base === undefined ? {} : { base: request.base }),
        ...(repair === undefined ? {} : { repair }),
      },
      scoped,
    };
  }
  if (request.budget !== undefined) {
    throw new UsageError(
      'usage.plan-with-budget',
      'apply --plan carries out exactly the saved plan, so it takes no --budget (self-heal plans the manifests itself)',
      'drop --plan to repair within --budget N, or drop --budget to apply the saved plan',
    );
  }
  // Without --budget these keep or date nothing: refused as for the manifests, never silently dropped.
  repairRequest(request);
  if (request.budgetDay !== undefined) await resolveScope({ budgetDay: request.budgetDay }, paths, where);
  if (request.targets !== undefined) {
    throw new UsageError(
      'usage.target-with-plan',
      'apply --plan carries out exactly the saved plan, so it takes no --target',
      'pass --target to viewctl plan --out, then apply that plan file',
    );
  }
  if (request.base !== undefined) {
    throw new UsageError(
      'usage.plan-with-base',
      'apply --plan carries out a saved plan, which was scoped when it was made; --base applies only when apply plans the manifests',
      'drop --base to apply the saved plan, or drop --plan to plan the manifests against --base and apply',
    );
  }
  if (paths.length > 0) {
    throw new UsageError(
      'usage.plan-with-paths',
      `apply --plan reads no manifests, but paths were given: ${paths.join(' ')}`,
      'drop the paths to apply the saved plan, or drop --plan to plan the manifests and apply',
    );
  }
  const file = request.plan;
  let text: string;
  try {
    text = await readFile(resolve(edges.cwd, file), 'utf8');
  } catch (error) {
    throw new UsageError(
      'apply.plan-unreadable',
      `cannot read the plan file ${file}: ${systemErrorCode(error)}`,
      'pass the file written by viewctl plan --out',
    );
  }
  return { source: { type: 'file', file: { name: file, text } } };
}

/**
 * repairRequest turns `--budget` on apply into self-heal, before any request: it takes
 * no `--base` (it sweeps, as plan --budget does) and keeps `--reserve` (300 unless
 * told). Without `--budget`, apply keeps no reserve and takes no `--reserve`.
 */
function repairRequest(request: ApplySourceRequest): { reserve: number } | undefined {
  if (request.budget === undefined) {
    if (request.reserve === undefined) return undefined;
    throw new UsageError(
      'usage.reserve-without-budget',
      '--reserve keeps requests for the other integrations during apply --budget, but no --budget was given',
      'add --budget N to repair within it, or drop --reserve',
    );
  }
  if (request.base !== undefined) {
    throw new UsageError(
      'usage.budget-with-base',
      'apply --budget repairs what a nightly sweep reads, as plan --budget does; --base scopes the plan of a pull request, which only a reviewed apply carries out',
      'drop --base to repair, or drop --budget to apply the manifests against --base',
    );
  }
  return { reserve: request.reserve ?? DEFAULT_RESERVE };
}
