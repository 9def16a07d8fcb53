import { rename, writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { Option } from 'commander';
import { UsageError } from '../errors.js';
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
  const force = env['FORCE_COLOR'];
  if (force !== undefined && force !== '') return force !== '0' && force.toLowerCase() !== 'false';
  if (env['NO_COLOR'] !== undefined && env['NO_COLOR'] !== '') return false;
  if (env['TERM'] === 'dumb') return false;
  return stream.isTTY === true;
}

/**
 * writeFileAtomically writes via a temporary file and a rename, so a reader (or a
 * later `apply --plan`) never sees half a file.
 */
export async function writeFileAtomically(io: CliIo, path: string, text: string): Promise<void> {
  const target = resolve(io.cwd, path);
  const temporary = `${target}.${process.pid}.tmp`;
  try {
    await writeFile(temporary, text, 'utf8');
    await rename(temporary, target);
  } catch (error) {
    const reason = error instanceof Error && 'code' in error ? String(error.code) : 'unknown error';
    throw new UsageError('output.write-failed', `cannot write ${path}: ${reason}`, 'check that the folder exists and is writable');
  }
}
