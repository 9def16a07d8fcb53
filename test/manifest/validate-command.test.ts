import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { Command } from 'commander';
import { afterAll, describe, expect, it } from 'vitest';
import type { CliIo } from '../../src/cli/io.js';
import { registerValidateCommand } from '../../src/cli/validate-command.js';
import { ManifestInvalidError, formatProblems } from '../../src/manifest/format-problems.js';
import type { Problem } from '../../src/manifest/types.js';

const root = mkdtempSync(join(tmpdir(), 'viewctl-validate-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

function capture(): { stream: PassThrough; text: () => string } {
  const stream = new PassThrough();
  const chunks: Buffer[] = [];
  stream.on('data', (chunk: Buffer) => chunks.push(chunk));
  return { stream, text: () => Buffer.concat(chunks).toString('utf8') };
}

async function validate(args: string[], env: NodeJS.ProcessEnv = {}): Promise<{ exitCode: number; stdout: string }> {
  const stdout = capture();
  const io: CliIo = { stdout: stdout.stream, stderr: capture().stream, stdin: new PassThrough(), env, cwd: root };
  const outcome = { exitCode: 0 };
  const program = new Command('viewctl').exitOverride();
  registerValidateCommand(program, io, outcome);
  await program.parseAsync(['validate', ...args], { from: 'user' });
  return { exitCode: outcome.exitCode, stdout: stdout.text() };
}

describe('viewctl validate', () => {
  writeFileSync(join(root, 'good.yaml'), 'kind: RecordingView\nname: Calls\n---\nkind: DealView\nname: Deals\n');
  writeFileSync(join(root, 'warn.yml'), 'kind: RecordingView\nname: Others\nfilters: {authorIdNotIn: [{type: Me}]}\n');

  it('says how many documents are valid and exits 0', async () => {
    expect(await validate(['good.yaml'])).toEqual({ exitCode: 0, stdout: '2 documents in 1 file are valid\n' });
  });

  it('prints warnings and still exits 0', async () => {
    const result = await validate(['good.yaml', 'warn.yml']);
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toContain('warn.yml:3:27  filter.excludes-me  warning: ');
    expect(result.stdout.trimEnd().split('\n').at(-1)).toBe('3 documents in 2 files are valid (1 warning)');
  });

  it('defaults to the working directory and exits 1 on errors', async () => {
    writeFileSync(join(root, 'bad.yaml'), 'kind: RecordingVeiw\nname: x\n');
    const result = await validate([]);
    rmSync(join(root, 'bad.yaml'));
    expect(result.exitCode).toBe(1);
    expect(result.stdout).toBe(
      [
        'bad.yaml:1:7  manifest.unknown-kind  unknown kind "RecordingVeiw"; expected one of Workspace, RecordingView, DealView, CompanyView, ContactView, PinnedViews, AdminAutomations at /kind; did you mean "RecordingView"?',
        'warn.yml:3:27  filter.excludes-me  warning: authorIdNotIn excludes Me: listing records with this view through the API returns an empty page at /filters/authorIdNotIn/0',
        '1 error, 1 warning in 3 files',
        '',
      ].join('\n'),
    );
  });

  it('reports a missing path', async () => {
    const result = await validate(['nowhere']);
    expect(result).toEqual({
      exitCode: 1,
      stdout: 'nowhere:1:1  file.not-found  no file or folder at "nowhere"\n1 error, 0 warnings in 0 files\n',
    });
  });
});

describe('formatProblems and ManifestInvalidError', () => {
  const problems: Problem[] = [
    {
      severity: 'error',
      code: 'schema.enum',
      message: 'bad',
      file: 'a.yaml',
      line: 2,
      column: 3,
      pointer: '/x',
      document: 0,
      hint: 'did you mean "y"?',
    },
    {
      severity: 'warning',
      code: 'filter.excludes-me',
      message: 'empty',
      file: 'a.yaml',
      line: 4,
      column: 1,
      pointer: '',
      document: 0,
    },
  ];

  it('formats one problem per line, colored on request', () => {
    expect(formatProblems(problems, { color: false })).toBe(
      'a.yaml:2:3  schema.enum  bad at /x; did you mean "y"?\na.yaml:4:1  filter.excludes-me  warning: empty',
    );
    expect(formatProblems(problems, { color: true })).toContain('\u001b[');
  });

  it('carries the problems, the code manifest.invalid and exit code 1', () => {
    const error = new ManifestInvalidError(problems);
    expect(error.code).toBe('manifest.invalid');
    expect(error.exitCode).toBe(1);
    expect(error.problems).toBe(problems);
    expect(error.message).toContain('a.yaml:2:3  schema.enum  bad');
    expect(error.message.split('\n').at(-1)).toBe('1 error, 1 warning');
  });
});

describe('warnings of one code, one entry', () => {
  const warning = (code: string, file: string, line: number, message = 'title appears twice in columns'): Problem => ({
    severity: 'warning',
    code,
    message,
    file,
    line,
    column: 5,
    pointer: '/columns/3',
    document: 0,
    hint: 'remove the repeat',
  });
  // A freshly exported workspace whose views repeat a column live: one warning per file.
  const repeats = Array.from({ length: 43 }, (_, index) =>
    warning('view.duplicate-column', `recordings/view-${String(index).padStart(2, '0')}.yaml`, 12),
  );
  const error: Problem = {
    severity: 'error',
    code: 'schema.enum',
    message: 'bad',
    file: 'recordings/view-05.yaml',
    line: 2,
    column: 3,
    pointer: '/x',
    document: 0,
  };

  it('prints the first with the count and the first few places, every error still on its own line', () => {
    const lines = formatProblems([...repeats.slice(0, 5), error, ...repeats.slice(5)], { color: false }).split('\n');
    expect(lines).toEqual([
      'recordings/view-00.yaml:12:5  view.duplicate-column  warning: title appears twice in columns at /columns/3; remove the repeat; 42 more like it at recordings/view-01.yaml:12:5, recordings/view-02.yaml:12:5, recordings/view-03.yaml:12:5 and 39 others (--show-warnings lists each)',
      'recordings/view-05.yaml:2:3  schema.enum  bad at /x',
    ]);
  });

  it('names every place of a warning that asks for an edit at each', () => {
    const overridden = Array.from({ length: 37 }, (_, index) =>
      warning(
        'pins.group-overridden',
        'pins/sales.yaml',
        index + 4,
        `m${index}@acme.com has their own PinnedViews document`,
      ),
    );
    const lines = formatProblems(overridden, { color: false }).split('\n');
    expect(lines[0]).toMatch(
      /^pins\/sales\.yaml:4:5 {2}pins\.group-overridden {2}warning: m0@acme\.com has their own .*; 36 more like it, each to act on \(--show-warnings lists each\):$/,
    );
    const places = lines
      .slice(1)
      .join(' ')
      .split(/,? +/)
      .filter((part) => part !== '');
    expect(places).toEqual(overridden.slice(1).map((problem) => `pins/sales.yaml:${problem.line}:5`));
  });

  it('lists each warning with its position under --show-warnings', () => {
    const lines = formatProblems(repeats, { color: false, showWarnings: true }).split('\n');
    expect(lines).toHaveLength(43);
    expect(lines[42]).toBe(
      'recordings/view-42.yaml:12:5  view.duplicate-column  warning: title appears twice in columns at /columns/3; remove the repeat',
    );
  });

  it('validate groups them and --show-warnings lists each; the count says how many there are', async () => {
    for (const name of ['one', 'two', 'three']) {
      writeFileSync(
        join(root, `dup-${name}.yaml`),
        `kind: RecordingView\nname: Dup ${name}\ncolumns:\n  - {type: Default, columnId: title}\n  - {type: Default, columnId: title}\n`,
      );
    }
    const paths = ['dup-one.yaml', 'dup-two.yaml', 'dup-three.yaml'];
    const grouped = await validate(paths);
    expect(grouped.stdout.split('\n').filter((line) => line.includes('view.duplicate-column'))).toEqual([
      'dup-one.yaml:5:5  view.duplicate-column  warning: column title appears twice in columns at /columns/1; 2 more like it at dup-three.yaml:5:5, dup-two.yaml:5:5 (--show-warnings lists each)',
    ]);
    expect(grouped.stdout).toContain('3 documents in 3 files are valid (3 warnings)');
    const each = await validate(['--show-warnings', ...paths]);
    expect(each.stdout.split('\n').filter((line) => line.includes('view.duplicate-column'))).toHaveLength(3);
  });
});
