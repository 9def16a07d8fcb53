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
    expect(result).toEqual({ exitCode: 1, stdout: 'nowhere:1:1  file.not-found  no file or folder at "nowhere"\n1 error, 0 warnings in 0 files\n' });
  });
});

describe('formatProblems and ManifestInvalidError', () => {
  const problems: Problem[] = [
    { severity: 'error', code: 'schema.enum', message: 'bad', file: 'a.yaml', line: 2, column: 3, pointer: '/x', document: 0, hint: 'did you mean "y"?' },
    { severity: 'warning', code: 'filter.excludes-me', message: 'empty', file: 'a.yaml', line: 4, column: 1, pointer: '', document: 0 },
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
