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
