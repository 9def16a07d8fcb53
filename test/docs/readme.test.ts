import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { EXIT } from '../../src/errors.js';
import { commandHelp, topLevelCommands, type CommandHelp } from './cli-help.js';
import { viewctlInvocations } from './shell-commands.js';
import { REPO, workflowPaths } from './workflow-files.js';

// The README documents every command and option as `--help` has them, links only to
// what exists, and opens with the two commands a fresh clone runs.

const readme = readFileSync(join(REPO, 'README.md'), 'utf8');
const CONNECTION = ['--base-url', '--emulator', '--rate', '--verbose'];
const help = new Map<string, CommandHelp>();

beforeAll(() => {
  for (const command of topLevelCommands()) help.set(command, commandHelp(command));
});

/** between returns the README text from `start` to the next heading of `level` or higher. */
function between(start: string, level: number): string {
  const from = readme.indexOf(start);
  if (from === -1) throw new Error(`README has no "${start}"`);
  const rest = readme.slice(from + start.length);
  const end = rest.search(new RegExp(`\\n#{1,${level}} `));
  return end === -1 ? rest : rest.slice(0, end);
}

/** documentedFlags lists the flags in the first column of the tables of a text. */
const documentedFlags = (text: string): string[] =>
  [...text.matchAll(/^\| `(--[a-z0-9-]+)/gm)].map((match) => match[1] ?? '');

/** shellBlocks returns the text of the ```sh blocks of a text. */
const shellBlocks = (text: string): string[] =>
  [...text.matchAll(/^ *```sh\n([\s\S]*?)^ *```$/gm)].map((match) => match[1] ?? '');

/** headingsOf lists the `##` and `###` headings of a text, outside code blocks. */
function headingsOf(text: string): string[] {
  const headings: string[] = [];
  let inCode = false;
  for (const line of text.split('\n')) {
    if (/^ *```/.test(line)) inCode = !inCode;
    const match = /^#{2,3} (.+)$/.exec(line);
    if (!inCode && match) headings.push(match[1] ?? '');
  }
  return headings;
}

/** slug is GitHub's anchor for a heading. */
const slug = (heading: string): string =>
  heading
    .trim()
    .toLowerCase()
    .replace(/[^a-z0-9 -]/g, '')
    .replace(/ /g, '-');

describe('README.md', () => {
  it('opens with the two commands for a fresh clone', () => {
    expect(
      readme.startsWith(
        [
          '# viewctl',
          '',
          '```sh',
          'npm ci && npm run demo    # plan the example manifests against the built-in emulator',
          'npm ci && npm test        # build, then run every test (unit and end-to-end, no network)',
          '```',
        ].join('\n'),
      ),
    ).toBe(true);
  });

  it('has a section for every command', () => {
    expect([...help.keys()]).toEqual([
      'validate',
      'plan',
      'apply',
      'pull',
      'rename',
      'show',
      'export',
      'emulator',
      'schemas',
    ]);
    for (const command of help.keys()) expect(readme).toContain(`\n### ${command}\n`);
  });

  it('documents every option of every command, where that command is described', () => {
    const connection = documentedFlags(between('**Connection options**', 3));
    expect(connection).toEqual(CONNECTION);
    for (const [command, { options }] of help) {
      const own = documentedFlags(between(`\n### ${command}\n`, 3));
      for (const { flag } of options) {
        if (flag === '--help') continue;
        const where = command !== 'emulator' && CONNECTION.includes(flag) ? connection : own;
        expect(where, `${command} ${flag}`).toContain(flag);
      }
      for (const flag of own)
        expect(
          options.map((option) => option.flag),
          `README documents ${command} ${flag}`,
        ).toContain(flag);
    }
  });

  it('states the defaults --help states', () => {
    const defaults: Array<[string, string, string]> = [
      ['apply', '--max-deletes', '5'],
      ['emulator', '--quota', '3000'],
      ['emulator', '--burst', '3'],
      ['plan', '--reserve', '300'],
      ['export', '--reserve', '300'],
    ];
    for (const [command, flag, value] of defaults) {
      const option = help.get(command)?.options.find((candidate) => candidate.flag === flag);
      expect(option?.description).toContain(`default: ${value}`);
      const row = between(`\n### ${command}\n`, 3)
        .split('\n')
        .find((line) => line.startsWith(`| \`${flag}`));
      expect(row).toContain(`default ${value}`);
    }
  });

  it('lists the exit codes of src/errors.ts', () => {
    const codes = [...between('## Exit codes', 2).matchAll(/^\| (\d) \|/gm)].map((match) => Number(match[1]));
    expect(codes).toEqual(Object.values(EXIT));
  });

  it('says plainly that only --expect-digest binds a plan file to what a reviewer saw', () => {
    const section = between('## The plan file and its digest', 2).replace(/\s+/g, ' ');
    expect(section).toContain('Only `--expect-digest`');
    expect(section).toContain('binds a plan file to what a reviewer saw');
    expect(section).toContain("adds `unpinPrivate: true` drops a member's private tab under a recomputed digest");
  });

  it('says what SIGINT and SIGTERM do, beside the exit codes', () => {
    const section = between('## Exit codes', 2).replace(/\s+/g, ' ');
    expect(section).toContain('SIGINT (Ctrl-C) and SIGTERM');
    expect(section).toContain('A second signal quits at once');
  });

  it('installs the version this repository builds', () => {
    const { version } = JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')) as { version: string };
    const pinned = [...readme.matchAll(/viewctl@(\d+\.\d+\.\d+)/g)].map((match) => match[1]);
    expect(pinned.length).toBeGreaterThan(0);
    for (const found of pinned) expect(found).toBe(version);
  });

  it('names every workflow users copy', () => {
    for (const path of workflowPaths().filter((file) => file.startsWith('examples/'))) {
      expect(readme).toContain(`\`${path.split('/').pop() ?? ''}\``);
    }
  });

  it('links only to files and headings that exist', () => {
    const anchors = new Set([...readme.matchAll(/^#{1,6} (.+)$/gm)].map((match) => slug(match[1] ?? '')));
    const links = [...readme.matchAll(/\]\(([^)\s]+)\)/g)].map((match) => match[1] ?? '');
    expect(links.length).toBeGreaterThan(3);
    for (const link of links) {
      if (/^https?:/.test(link)) continue;
      if (link.startsWith('#')) expect(anchors, link).toContain(link.slice(1));
      else expect(existsSync(join(REPO, link)), link).toBe(true);
    }
    expect(readme).toContain('(schemas/README.md)');
  });
});

describe('README.md: the guide, then the contents, then the reference', () => {
  const GUIDE_HEADING = '\n## Guide: adopt viewctl in an afternoon\n';
  const REFERENCE_HEADING = '\n## Reference\n';
  // From its heading to the reference's (`between` would stop at a `# comment` in a shell block).
  const guide = (): string =>
    readme.slice(readme.indexOf(GUIDE_HEADING) + GUIDE_HEADING.length, readme.indexOf(REFERENCE_HEADING));
  const reference = (): string => readme.slice(readme.indexOf(REFERENCE_HEADING) + REFERENCE_HEADING.length);

  it('opens with a guide of at most about 300 lines, whose steps go from install to recovery', () => {
    const start = readme.indexOf(GUIDE_HEADING);
    expect(start).toBeGreaterThan(readme.indexOf('npm ci && npm test'));
    expect(start).toBeLessThan(readme.indexOf(REFERENCE_HEADING));
    expect(readme.indexOf(REFERENCE_HEADING)).toBeLessThan(
      readme.indexOf('\n## Quick start against a real workspace\n'),
    );
    expect(guide().split('\n').length).toBeLessThanOrEqual(300);
    expect(headingsOf(guide())).toEqual([
      '1. Install',
      '2. Export the workspace you have',
      '3. The first pull request',
      '4. Merge, and the apply',
      '5. The nightly',
      '6. Recovery runbook',
    ]);
  });

  it('lists every section of the reference in its table of contents, in order, and nothing else', () => {
    const rest = reference();
    const firstSection = rest.indexOf('\n## ');
    const contents = rest.slice(0, firstSection);
    const linked = [...contents.matchAll(/^ *- \[[^\]]+\]\(#([^)]+)\)$/gm)].map((match) => match[1]);
    expect(linked).toEqual(headingsOf(rest.slice(firstSection)).map(slug));
  });

  it('installs with the Quick start lines as they are', () => {
    const [install = ''] = shellBlocks(guide());
    const [quickStart = ''] = shellBlocks(between('\n## Quick start against a real workspace\n', 2));
    const lines = install.trim().split('\n');
    expect(lines.length).toBeGreaterThan(2);
    for (const line of lines) expect(quickStart.split('\n'), line).toContain(line);
  });

  it("shows no npm line in the guide's install step that .ci/run does not run: each is a Quick start line", () => {
    // .ci/run runs every `npm` line of the Quick start's shell blocks, as written (comments dropped).
    const npmLines = (text: string): string[] =>
      shellBlocks(text)
        .flatMap((block) => block.split('\n'))
        .map((line) => line.replace(/\s+#.*$/, ''))
        .filter((line) => line.startsWith('npm '));
    const proven = npmLines(between('\n## Quick start against a real workspace\n', 2));
    expect(proven).toContain('npm ci && npm install -g .');
    const install = npmLines(between('\n### 1. Install\n', 3));
    expect(install.length).toBeGreaterThan(2);
    for (const line of install) expect(proven, line).toContain(line);
  });

  it('runs only viewctl commands and options that exist, in the guide and the whole README', () => {
    const commands = topLevelCommands();
    const guideRuns = shellBlocks(guide()).flatMap(viewctlInvocations);
    for (const expected of ['export --all-users --out manifests', 'rename', 'pull', '--ledger', 'apply --plan'])
      expect(
        guideRuns.some((run) => run.line.includes(expected)),
        expected,
      ).toBe(true);
    const runs = shellBlocks(readme).flatMap(viewctlInvocations);
    expect(runs.length).toBeGreaterThan(guideRuns.length);
    for (const run of runs) {
      expect(commands, run.line).toContain(run.subcommand);
      const flags = new Set(help.get(run.subcommand ?? '')?.options.map((option) => option.flag));
      for (const word of run.args.filter((arg) => arg.startsWith('--')))
        expect(flags.has(word.split('=')[0] ?? word), `${run.line}: ${word}`).toBe(true);
    }
  });

  it('states only figures --help and package.json give', () => {
    const { version } = JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')) as { version: string };
    const tarballs = [...readme.matchAll(/viewctl-(\d+\.\d+\.\d+)\.tgz/g)].map((match) => match[1]);
    expect(tarballs.length).toBeGreaterThan(0);
    for (const found of tarballs) expect(found).toBe(version);
    const maxDeletes = help.get('apply')?.options.find((option) => option.flag === '--max-deletes');
    const stated = [...guide().matchAll(/`--max-deletes`\s+\(default (\d+)\)/g)].map((match) => match[1]);
    expect(stated.length).toBeGreaterThan(0);
    for (const value of stated) expect(maxDeletes?.description).toContain(`default: ${value}`);
    const exits = [...guide().matchAll(/\*\*Exit (\d)/g)].map((match) => Number(match[1]));
    expect(exits).toEqual([EXIT.error, EXIT.refused, EXIT.partial]);
  });
});
