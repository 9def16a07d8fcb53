import { Option } from 'commander';

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

/**
 * textWidth is the width text output is wrapped to (README, "Output"): on a terminal,
 * `COLUMNS` when it is a positive number (as `ls` and git follow it), else the
 * terminal's own width. Off a terminal (a pipe, a file, a CI log) undefined: the fixed
 * layout, lists wrapped at WRAP_WIDTH and no other line broken, the same everywhere.
 */
export function textWidth(stream: { isTTY?: boolean; columns?: number }, env: NodeJS.ProcessEnv): number | undefined {
  if (stream.isTTY !== true) return undefined;
  const columns = /^\d+$/.test(env.COLUMNS?.trim() ?? '') ? Number(env.COLUMNS) : stream.columns;
  return columns !== undefined && Number.isFinite(columns) && columns > 0 ? columns : undefined;
}
