import { spawn } from 'node:child_process';
import { createServer, type AddressInfo } from 'node:net';
import { mkdtempSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { Command } from 'commander';
import { afterEach, describe, expect, it } from 'vitest';
import { registerEmulatorCommand } from '../../src/cli/emulator-command.js';
import type { CliIo } from '../../src/cli/io.js';
import type { RunningEmulator } from '../../src/emulator/server.js';
import { UsageError, ViewctlError } from '../../src/errors.js';
import { fixture } from './fixture.js';

const folders: string[] = [];
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});
const tempFolder = (): string => {
  const folder = mkdtempSync(join(tmpdir(), 'viewctl-emulator-cli-'));
  folders.push(folder);
  return folder;
};

/** runCommand runs `viewctl emulator ...args` in-process; `whileServing` runs before it stops. */
async function runCommand(
  args: string[],
  whileServing: (emulator: RunningEmulator) => Promise<void> = async () => undefined,
): Promise<{ stdout: string }> {
  let stdout = '';
  const out = new PassThrough();
  out.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  const io: CliIo = { stdout: out, stderr: new PassThrough(), stdin: new PassThrough(), env: {}, cwd: process.cwd() };
  const program = new Command('viewctl')
    .exitOverride()
    .configureOutput({ writeErr: () => undefined, writeOut: () => undefined });
  registerEmulatorCommand(program, io, { exitCode: 0 }, { untilStopped: whileServing });
  await program.parseAsync(['emulator', ...args], { from: 'user' });
  return { stdout };
}

const dataFile = (): string => {
  const path = join(tempFolder(), 'data.json');
  writeFileSync(path, JSON.stringify(fixture()));
  return path;
};

describe('viewctl emulator', () => {
  it('prints exactly one line "listening on http://127.0.0.1:PORT" and serves --data with --api-key', async () => {
    let url = '';
    const { stdout } = await runCommand(
      ['--data', dataFile(), '--api-key', 'k-123', '--rate', '50'],
      async (emulator) => {
        url = emulator.url;
        const reply = await fetch(`${emulator.url}/v1/workspaces/mine`, { headers: { 'x-service-key': 'k-123' } });
        expect(((await reply.json()) as { result: { workspace: { id: string } } }).result.workspace.id).toBe('ws_test');
        expect(reply.headers.get('x-ratelimit-limit')).toBe('50');
      },
    );
    expect(stdout).toMatch(/^listening on http:\/\/127\.0\.0\.1:[0-9]+\n$/);
    expect(stdout).toBe(`listening on ${url}\n`);
    // Closed once stopped.
    await expect(fetch(`${url}/v1/users`)).rejects.toThrow();
  });

  it('without --data it serves the demo workspace with the default key', async () => {
    await runCommand([], async (emulator) => {
      expect(emulator.apiKey).toBe('emulator-key');
      const reply = await fetch(`${emulator.url}/v1/workspaces/mine`, { headers: { 'x-service-key': 'emulator-key' } });
      expect(reply.status).toBe(200);
    });
  });

  it('--state keeps the state in that file', async () => {
    const statePath = join(tempFolder(), 'state.json');
    await runCommand(['--data', dataFile(), '--state', statePath]);
    expect(existsSync(statePath)).toBe(true);
  });

  it.each([
    [['--port', '70000'], /--port must be an integer from 0 to 65535/],
    [['--port', 'abc'], /--port/],
    [['--rate', '0'], /--rate must be a number above 0/],
    [['--burst', '1.5'], /--burst must be an integer/],
    [['--quota', '-1'], /--quota/],
    [['--seed', 'x'], /--seed/],
    [['--latency-ms', '-5'], /--latency-ms/],
    [['--fail-rate', '2'], /--fail-rate must be a number from 0 to 1/],
    [['--drop-after-commit-rate', 'half'], /--drop-after-commit-rate/],
    [['--webhook-url', 'ftp://example.test'], /--webhook-url must be an http or https URL/],
    [['--api-key', ' '], /--api-key must not be empty/],
  ])('option values are checked: %j', async (args, message) => {
    const error = await runCommand([...args, '--data', dataFile()]).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ViewctlError);
    expect((error as ViewctlError).code).toBe('emulator.option-invalid');
    expect((error as ViewctlError).message).toMatch(message);
  });

  it('a --port already in use is emulator.port-in-use naming the flag and the port', async () => {
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    try {
      const port = String((blocker.address() as AddressInfo).port);
      const error = await runCommand(['--port', port, '--data', dataFile()]).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(UsageError);
      expect((error as UsageError).code).toBe('emulator.port-in-use');
      expect((error as UsageError).message).toContain(`--port ${port}`);
      expect((error as UsageError).hint).toMatch(/--port 0/);
    } finally {
      await new Promise<void>((resolve) => blocker.close(() => resolve()));
    }
  });

  it('a --state in a folder that does not exist is emulator.state-unwritable naming the flag and the file', async () => {
    const statePath = join(tempFolder(), 'absent', 'state.json');
    const error = await runCommand(['--state', statePath, '--data', dataFile()]).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(UsageError);
    expect((error as UsageError).code).toBe('emulator.state-unwritable');
    expect((error as UsageError).message).toContain(`--state ${statePath}`);
    expect((error as UsageError).message).toMatch(/folder .*absent does not exist/);
    expect((error as UsageError).hint).toMatch(/existing folder/);
  });

  it('--help shows numeric defaults as numbers, not quoted strings', () => {
    const program = new Command('viewctl');
    registerEmulatorCommand(
      program,
      { stdout: new PassThrough(), stderr: new PassThrough(), stdin: new PassThrough(), env: {}, cwd: process.cwd() },
      { exitCode: 0 },
    );
    const help = program.commands.find((command) => command.name() === 'emulator')?.helpInformation() ?? '';
    expect(help.replace(/\s+/g, ' ')).toContain('requests per rolling 24 hours (default: 3000)');
    expect(help).toContain('(default: 3)');
    expect(help).not.toMatch(/default: "/);
  });

  it('a missing --data file is a clear error', async () => {
    const error = await runCommand(['--data', join(tempFolder(), 'absent.json')]).catch((caught: unknown) => caught);
    expect((error as ViewctlError).code).toBe('emulator.data-unreadable');
  });

  it('serves until SIGTERM, then closes cleanly with exit code 0', async () => {
    const entry = fileURLToPath(new URL('./cli-entry.ts', import.meta.url));
    const child = spawn(process.execPath, ['--import', 'tsx', entry, 'emulator', '--data', dataFile()], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    const listening = new Promise<string>((resolve) => {
      child.stdout.on('data', (chunk: Buffer) => {
        stdout += chunk.toString();
        const match = /listening on (\S+)\n/.exec(stdout);
        if (match?.[1] !== undefined) resolve(match[1]);
      });
    });
    const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
    const url = await listening;
    expect((await fetch(`${url}/v1/users`, { headers: { 'x-service-key': 'emulator-key' } })).status).toBe(200);
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
    expect(stdout).toBe(`listening on ${url}\n`);
  });
});
