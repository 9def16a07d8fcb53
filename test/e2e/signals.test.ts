import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer, request as httpRequest, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { CLI, tempDirs, withEmulator } from './harness.js';

/**
 * SIGINT and SIGTERM (what CI runners, `timeout` and container stops send) to the built
 * CLI in a child process. The run is held, not timed: a proxy in front of the emulator
 * keeps the first request the test picks unanswered until the test has sent its
 * signal and seen the CLI's notice, then forwards it (or answers it). The writes go
 * at `--rate 0.1`, so the second create of the endpoint is still waiting for its slot
 * when the signal comes, whatever the machine's speed.
 */

const { dir, cleanupAll } = tempDirs();
afterEach(cleanupAll);

const NAMES = ['Signal A', 'Signal B', 'Signal C', 'Signal D'];
const MANIFESTS = {
  'workspace.yaml': 'kind: Workspace\nworkspaceId: ws_acme\ncreatorEmail: adam.reyes@acme.test\nprune: false\n',
  'views.yaml': NAMES.map((name) => `kind: RecordingView\nname: ${name}\n`).join('---\n'),
};

/** Held is the request the proxy keeps: forward it to the emulator, or answer it in the emulator's stead. */
interface Held {
  route: string;
  forward(): void;
  answer(status: number, body: unknown): void;
}

/** HoldingProxy forwards everything to `target` but the first request `hold` picks, which it keeps until told. */
interface HoldingProxy {
  url: string;
  held: Promise<Held>;
  /** `METHOD path` of every request that reached the proxy, in order. */
  seen: string[];
  close(): Promise<void>;
}

async function holdingProxy(target: string, hold: (method: string, path: string) => boolean): Promise<HoldingProxy> {
  const seen: string[] = [];
  let picked = false;
  let onHeld: (held: Held) => void = () => undefined;
  const held = new Promise<Held>((resolve) => (onHeld = resolve));
  const forward = (req: IncomingMessage, body: Buffer, res: ServerResponse): void => {
    const upstream = httpRequest(
      `${target}${req.url ?? '/'}`,
      { method: req.method, headers: req.headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on('error', () => res.destroy());
    upstream.end(body);
  };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const path = new URL(req.url ?? '/', 'http://proxy').pathname;
      seen.push(`${req.method ?? ''} ${path}`);
      if (picked || !hold(req.method ?? '', path)) {
        forward(req, body, res);
        return;
      }
      picked = true;
      onHeld({
        route: `${req.method ?? ''} ${path}`,
        forward: () => forward(req, body, res),
        answer: (status, payload) => {
          res.writeHead(status, { 'Content-Type': 'application/json' });
          res.end(JSON.stringify(payload));
        },
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    held,
    seen,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** RunningCli is the built CLI in a child process, with what it printed so far. */
interface RunningCli {
  child: ChildProcessWithoutNullStreams;
  stdout(): string;
  stderr(): string;
  /** Resolves once stderr holds `text`. */
  printed(text: string): Promise<void>;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

function startCli(args: string[], env: Record<string, string>): RunningCli {
  const child = spawn(process.execPath, [CLI, ...args], {
    env: { PATH: process.env.PATH ?? '', NO_COLOR: '1', ...env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  const waiting: Array<{ text: string; resolve: () => void }> = [];
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
    for (const wait of waiting.filter((candidate) => stderr.includes(candidate.text))) {
      waiting.splice(waiting.indexOf(wait), 1);
      wait.resolve();
    }
  });
  child.stdin.end();
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('close', (code, signal) => resolve({ code, signal })),
  );
  return {
    child,
    stdout: () => stdout,
    stderr: () => stderr,
    printed: (text) =>
      stderr.includes(text) ? Promise.resolve() : new Promise((resolve) => waiting.push({ text, resolve })),
    exited,
  };
}

/** section is the lines of the report section that starts with `title`, up to the next section. */
function section(report: string, title: string): string[] {
  const lines = report.split('\n');
  const start = lines.indexOf(title);
  if (start < 0) return [];
  const rest = lines.slice(start + 1);
  const end = rest.findIndex((line) => !line.startsWith('  '));
  return rest.slice(0, end < 0 ? undefined : end).map((line) => line.trim());
}

const createdNames = (data: { views: { recordings: Array<{ name: string }> } }): string[] =>
  data.views.recordings.map((view) => view.name).filter((name) => NAMES.includes(name));

describe.each(['SIGTERM', 'SIGINT'] as const)('%s during apply', (signal) => {
  it('finishes the write in flight, sends nothing new, prints the report and exits 4', async () => {
    const manifests = await dir(MANIFESTS);
    await withEmulator(async (emulator, env) => {
      const proxy = await holdingProxy(emulator.url, (method) => method === 'POST');
      try {
        const cli = startCli(['apply', manifests, '--auto-approve', '--rate', '0.1'], {
          ...env,
          VIEWCTL_BASE_URL: proxy.url,
        });
        const held = await proxy.held;
        cli.child.kill(signal);
        await cli.printed(`${signal}: finishing the requests in flight and starting nothing new`);
        held.forward();
        const { code } = await cli.exited;

        expect(code).toBe(4);
        const report = cli.stdout();
        expect(report).toContain('Apply interrupted:');
        const landed = section(report, 'Landed:');
        expect(landed).toHaveLength(1);
        expect(landed[0]).toMatch(/^create\s+RecordingView\s+"Signal [A-D]"\s+rv_/);
        const notAttempted = section(report, 'Not attempted:');
        expect(notAttempted).toHaveLength(3);
        expect(notAttempted.every((line) => /^create\s+RecordingView\s+"Signal [A-D]"/.test(line))).toBe(true);
        expect(section(report, 'Failed:')).toEqual(['(none)']);
        // One create was sent and landed; the one waiting for its slot never left.
        expect(proxy.seen.filter((route) => route.startsWith('POST'))).toEqual(['POST /v1/recordings/views']);
        expect(createdNames(emulator.snapshot())).toHaveLength(1);
      } finally {
        await proxy.close();
      }
    });
  });
});

describe('a second signal during apply', () => {
  it('quits at once, while the write is still in flight, with the same exit code 4', async () => {
    const manifests = await dir(MANIFESTS);
    await withEmulator(async (emulator, env) => {
      const proxy = await holdingProxy(emulator.url, (method) => method === 'POST');
      try {
        const cli = startCli(['apply', manifests, '--auto-approve', '--rate', '0.1'], {
          ...env,
          VIEWCTL_BASE_URL: proxy.url,
        });
        const held = await proxy.held;
        cli.child.kill('SIGTERM');
        await cli.printed('SIGTERM: finishing the requests in flight');
        cli.child.kill('SIGTERM');
        // The create is still held: the process ended without waiting for it.
        const { code, signal } = await cli.exited;
        expect({ code, signal }).toEqual({ code: 4, signal: null });
        expect(cli.stderr()).toContain(
          'SIGTERM again: quitting at once (exit 4): writes were sent and may have landed; run viewctl plan',
        );
        held.forward();
      } finally {
        await proxy.close();
      }
    });
  });
});

describe('a signal before anything landed', () => {
  it('exits 1 and says nothing was written when the write in flight is refused', async () => {
    const manifests = await dir(MANIFESTS);
    await withEmulator(async (emulator, env) => {
      const proxy = await holdingProxy(emulator.url, (method) => method === 'POST');
      try {
        const cli = startCli(['apply', manifests, '--auto-approve', '--rate', '0.1'], {
          ...env,
          VIEWCTL_BASE_URL: proxy.url,
        });
        const held = await proxy.held;
        cli.child.kill('SIGTERM');
        await cli.printed('SIGTERM: finishing the requests in flight');
        held.answer(400, { error: { type: 'validation_error', message: 'name is taken', path: 'name' } });
        const { code } = await cli.exited;
        expect(code).toBe(1);
        const report = cli.stdout();
        expect(section(report, 'Landed:')).toEqual(['(none)']);
        expect(section(report, 'Failed:')).toHaveLength(1);
        expect(section(report, 'Not attempted:')).toHaveLength(3);
        expect(report).toContain('Nothing was written: the workspace is as it was.');
        expect(createdNames(emulator.snapshot())).toEqual([]);
      } finally {
        await proxy.close();
      }
    });
  });

  it('stops apply while it reads: exit 1, nothing sent but reads, nothing written', async () => {
    const manifests = await dir(MANIFESTS);
    await withEmulator(async (emulator, env) => {
      const proxy = await holdingProxy(
        emulator.url,
        (method, path) => method === 'GET' && path === '/v1/recordings/views',
      );
      try {
        const cli = startCli(['apply', manifests, '--auto-approve'], { ...env, VIEWCTL_BASE_URL: proxy.url });
        await proxy.held;
        cli.child.kill('SIGTERM');
        const { code } = await cli.exited;
        expect(code).toBe(1);
        expect(cli.stderr()).toContain('SIGTERM: stopping the reads; nothing was written');
        expect(cli.stderr()).toContain('error[run.interrupted]: stopped by SIGTERM: nothing was written');
        expect(proxy.seen.filter((route) => !route.startsWith('GET'))).toEqual([]);
        expect(createdNames(emulator.snapshot())).toEqual([]);
      } finally {
        await proxy.close();
      }
    });
  });
});

describe('a signal during plan', () => {
  it('stops the reads and says nothing was written, not even the --out file', async () => {
    const manifests = await dir(MANIFESTS);
    const out = join(manifests, 'plan.json');
    await withEmulator(async (emulator, env) => {
      const proxy = await holdingProxy(
        emulator.url,
        (method, path) => method === 'GET' && path === '/v1/recordings/views',
      );
      try {
        const cli = startCli(['plan', manifests, '--out', out], { ...env, VIEWCTL_BASE_URL: proxy.url });
        await proxy.held;
        cli.child.kill('SIGTERM');
        const { code } = await cli.exited;
        expect(code).toBe(1);
        expect(cli.stderr()).toContain(
          `error[run.interrupted]: stopped by SIGTERM: nothing was written, not even the plan file ${out}`,
        );
        expect(existsSync(out)).toBe(false);
      } finally {
        await proxy.close();
      }
    });
  });
});
