import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { REPO } from './workflow-files.js';

/** CLI is the built CLI the tests run: `npm test` builds it first. */
export const CLI = join(REPO, 'dist', 'cli.js');

/** OptionHelp is one option as `--help` lists it. */
export interface OptionHelp {
  flag: string;
  /** The value placeholder, e.g. `<file>`, or undefined for a switch. */
  value: string | undefined;
  description: string;
}

/** CommandHelp is what `viewctl <command> --help` says about a command. */
export interface CommandHelp {
  usage: string;
  /** Whether the command takes positional arguments (`[paths...]`). */
  takesArguments: boolean;
  options: OptionHelp[];
}

/** runCli runs the built CLI and returns its stdout; it throws on a non-zero exit. */
export function runCli(args: readonly string[]): string {
  if (!existsSync(CLI)) throw new Error(`${CLI} is missing: run \`npm run build\` first (npm test does)`);
  return execFileSync(process.execPath, [CLI, ...args], { encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });
}

/** section returns the indented lines under a help heading such as `Options:`. */
function section(help: string, heading: string): string[] {
  const lines = help.split('\n');
  const start = lines.indexOf(heading);
  if (start === -1) return [];
  const out: string[] = [];
  for (const line of lines.slice(start + 1)) {
    if (line.trim() !== '' && !line.startsWith(' ')) break;
    out.push(line);
  }
  return out;
}

/** topLevelCommands lists the commands `viewctl --help` names (without `help`). */
export function topLevelCommands(): string[] {
  return section(runCli(['--help']), 'Commands:')
    .map((line) => /^ {2}([a-z-]+)/.exec(line)?.[1])
    .filter((name): name is string => name !== undefined && name !== 'help');
}

/** commandHelp parses `viewctl <command> --help` (commander's layout). */
export function commandHelp(command: string): CommandHelp {
  const help = runCli([command, '--help']);
  const usage = /^Usage: (.*)$/m.exec(help)?.[1] ?? '';
  const options: OptionHelp[] = [];
  for (const line of section(help, 'Options:')) {
    const match = /^ {2}(?:-[a-zA-Z], )?(--[a-z0-9-]+)(?: (<[^>]+>|\[[^\]]+\]))?\s+(.*)$/.exec(line);
    if (match?.[1] !== undefined) {
      options.push({ flag: match[1], value: match[2], description: match[3] ?? '' });
    } else if (/^ {10,}\S/.test(line) && options.length > 0) {
      const last = options[options.length - 1];
      if (last !== undefined) last.description += ` ${line.trim()}`;
    }
  }
  return { usage, takesArguments: /\[[a-z]+\.\.\.\]|<[a-z]+>/.test(usage.replace(/\[options\]/, '')), options };
}
