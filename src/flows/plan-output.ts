import { constants } from 'node:fs';
import { access, realpath, unlink, writeFile } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { systemErrorCode, UsageError } from '../errors.js';
import { outputKind, writeAtomically, writeFailureReason } from '../export/atomic-file.js';

/**
 * The plan file (`plan --out FILE`): checked before any request is spent, written
 * whole once the plan is made.
 */

/**
 * checkOutputPath makes sure, before any request is spent, that `--out FILE` can be
 * written: by the writer's rule on what stands at FILE (`outputKind`: a folder, a
 * socket or the like is refused; a device or a pipe is written through), its folder
 * exists and takes a new file, and FILE is neither one of the manifests this run read
 * nor the sweep memory (`memoryFile`, the --ledger FILE): a plan written there would replace
 * it, or be replaced by the memory saved after it. Links are followed on both sides, as the
 * loader follows them. Answers whether FILE keeps the plan: false for a device or a
 * pipe, which `apply --plan` cannot read back, so the output must not offer it.
 */
export async function checkOutputPath(
  cwd: string,
  path: string,
  manifests: readonly string[],
  memoryFile?: string,
): Promise<boolean> {
  const target = resolve(cwd, path);
  const real = await realpath(target).catch(() => target);
  if (memoryFile !== undefined) {
    const memory = resolve(cwd, memoryFile);
    if ((await realpath(memory).catch(() => memory)) === real) {
      throw new UsageError(
        'output.overwrites-ledger',
        `--out ${path} is the sweep memory (--ledger ${memoryFile}); the plan and the memory would replace each other; nothing was read from the service`,
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

/** writePlanFile writes `path` (relative to `cwd`) whole or not at all, so a later `apply --plan` never reads half a plan. */
export async function writePlanFile(cwd: string, path: string, text: string): Promise<void> {
  await writeAtomically(resolve(cwd, path), text).catch((error: unknown) => {
    throw new UsageError(
      'output.write-failed',
      `cannot write ${path}: ${writeFailureReason(error)}`,
      'check that the folder exists and is writable',
    );
  });
}
