import { resolve } from 'node:path';
import { Option } from 'commander';
import { UsageError } from '../errors.js';
import { writeAtomically, writeFailureReason } from '../export/atomic-file.js';
import type { CliIo } from './io.js';

/** formatOption is `--format text|markdown|json` (default text). */
export function formatOption(): Option {
  return new Option('--format <format>', 'output format').choices(['text', 'markdown', 'json']).default('text');
}

/**
 * useColor decides whether text output is coloured. As Node itself does, a non-empty
 * FORCE_COLOR decides first (`0` or `false` turns colour off, any other value on,
 * for a CI log that renders colour); otherwise colour only on a terminal, and never
 * when NO_COLOR is set (https://no-color.org) or TERM is dumb.
 */
export function useColor(stream: { isTTY?: boolean }, env: NodeJS.ProcessEnv): boolean {
  const force = env.FORCE_COLOR;
  if (force !== undefined && force !== '') return force !== '0' && force.toLowerCase() !== 'false';
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return false;
  if (env.TERM === 'dumb') return false;
  return stream.isTTY === true;
}

/** writeFileAtomically writes `path` whole or not at all, so a later `apply --plan` never reads half a plan. */
export async function writeFileAtomically(io: CliIo, path: string, text: string): Promise<void> {
  await writeAtomically(resolve(io.cwd, path), text).catch((error: unknown) => {
    throw new UsageError(
      'output.write-failed',
      `cannot write ${path}: ${writeFailureReason(error)}`,
      'check that the folder exists and is writable',
    );
  });
}
