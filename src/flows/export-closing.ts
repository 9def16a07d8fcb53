import type { ApiUser } from '../domain/api-types.js';
import { ViewctlError } from '../errors.js';
import { loadDesired } from '../manifest/load-desired.js';
import { nodeManifestSource } from '../manifest/source.js';
import { fullPlanReads } from '../plan/read-estimate.js';
import { loweredBudget, type ReadCeiling } from '../state/read-ceiling.js';
import type { ExportBatch } from './export-ceiling.js';

/**
 * ExportClosing is what an export's last lines say (src/render/export-next.ts): under
 * `--budget`, where it stands; then what the next plan of the folder costs against
 * what is left today.
 */
export interface ExportClosing {
  /** `--out` as given. */
  out: string;
  budget?: number;
  reserve: number;
  /** Under `--budget`: the members this run read, those done before, those left. */
  batch?: { read: number; skipped: number; remaining: number };
  /** When what is left today lowered the budget. */
  lowered?: { most: number; left: number; reserve: number };
  /** Requests a full plan of the folder reads; undefined when the folder cannot be planned as it is. */
  planReads: number | undefined;
  dailyRemaining: number | null;
}

/**
 * folderPlanReads is what a full plan of the folder an export wrote would read, from
 * the manifests now in it (the team's files and earlier runs' included), or
 * undefined when they do not load without an error (the plan would stop before any
 * read).
 */
export async function folderPlanReads(
  outDir: string,
  cwd: string,
  users: readonly ApiUser[] | undefined,
): Promise<number | undefined> {
  try {
    const { desired } = await loadDesired([outDir], nodeManifestSource(cwd));
    return fullPlanReads(desired, users);
  } catch (error) {
    if (error instanceof ViewctlError) return undefined;
    throw error;
  }
}

/** exportClosing are the figures of an export's last lines, once its files are written (the folder is read for the next plan's cost). */
export async function exportClosing(
  where: { out: string; outDir: string; cwd: string },
  limits: { budget?: number; reserve: number },
  exported: {
    live: { users?: readonly ApiUser[]; requests: { dailyRemaining: number | null } };
    pinUsers: readonly ApiUser[];
  },
  batch: ExportBatch | undefined,
  ceiling: ReadCeiling,
): Promise<ExportClosing> {
  const { budget, reserve } = limits;
  const lowered = loweredBudget(ceiling);
  return {
    out: where.out,
    ...(budget === undefined ? {} : { budget }),
    reserve,
    ...(batch === undefined || budget === undefined
      ? {}
      : { batch: { read: exported.pinUsers.length, skipped: batch.skipped, remaining: batch.remaining } }),
    ...(lowered === undefined ? {} : { lowered }),
    planReads: await folderPlanReads(where.outDir, where.cwd, exported.live.users),
    dailyRemaining: exported.live.requests.dailyRemaining,
  };
}
