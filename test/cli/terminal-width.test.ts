import { cp, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { textWidth } from '../../src/cli/output.js';
import { run } from '../../src/cli/run.js';
import { demoWorkspace } from '../../src/emulator/demo/demo-workspace.js';
import { startEmulator } from '../../src/emulator/server.js';
import { runInProcess } from '../support/cli.js';

// Text output is wrapped to the terminal's width (README, "Output"): the width is read
// at the command line's edge from the stdout stream and COLUMNS, and handed to rendering.

describe('textWidth', () => {
  it("is a terminal's width, COLUMNS first when it is a number", () => {
    expect(textWidth({ isTTY: true, columns: 120 }, {})).toBe(120);
    expect(textWidth({ isTTY: true, columns: 120 }, { COLUMNS: '72' })).toBe(72);
    expect(textWidth({ isTTY: true, columns: 120 }, { COLUMNS: 'wide' })).toBe(120);
    expect(textWidth({ isTTY: true }, {})).toBeUndefined();
  });

  it('is none off a terminal, COLUMNS or not: pipes, files and CI logs keep the fixed layout', () => {
    expect(textWidth({ isTTY: false, columns: 60 }, { COLUMNS: '60' })).toBeUndefined();
    expect(textWidth({}, {})).toBeUndefined();
  });
});

const EXAMPLES = fileURLToPath(new URL('../../examples', import.meta.url));

describe('viewctl show on a terminal of 60 columns', () => {
  let folder = '';
  let digest = '';
  beforeAll(async () => {
    folder = await mkdtemp(join(tmpdir(), 'viewctl-width-'));
    await cp(EXAMPLES, join(folder, 'examples'), { recursive: true });
    const emulator = await startEmulator({ data: demoWorkspace(), port: 0, rate: 1000, burst: 1000, quota: 1_000_000 });
    try {
      const env = { VIEWCTL_BASE_URL: emulator.url, VIEWCTL_API_KEY: emulator.apiKey };
      const plan = await runInProcess(['plan', 'examples', '--out', 'plan.json', '--rate', '1000'], {
        env,
        cwd: folder,
      });
      expect(plan.code).toBe(0);
    } finally {
      await emulator.close();
    }
    digest = (JSON.parse(await readFile(join(folder, 'plan.json'), 'utf8')) as { digest: string }).digest;
  });
  afterAll(() => rm(folder, { recursive: true, force: true }));

  /** show prints the saved plan to a stdout that says it is a TTY (or not) of `columns`. */
  const show = async (stdout: { isTTY: boolean; columns: number }, env: Record<string, string> = {}) => {
    const stream = Object.assign(new PassThrough(), stdout);
    const chunks: string[] = [];
    stream.on('data', (chunk: Buffer) => chunks.push(chunk.toString()));
    const code = await run(['show', 'plan.json'], {
      stdout: stream,
      stderr: new PassThrough(),
      stdin: new PassThrough().end(),
      env: { NO_COLOR: '1', ...env },
      cwd: folder,
    });
    await new Promise((resolve) => setImmediate(resolve));
    expect(code).toBe(0);
    return chunks.join('');
  };
  const command = () => `viewctl apply --plan plan.json --expect-digest ${digest}`;
  const words = (text: string): string[] => text.split(/\s+/).filter((word) => word !== '');

  it('fits every line in 60 columns but the command, which stands whole on a line of its own', async () => {
    const narrow = await show({ isTTY: true, columns: 60 });
    const lines = narrow.split('\n');
    const wide = lines.filter((line) => line.length > 60);
    expect(wide).toEqual([`  ${command()}`]);
    // The manifest's file:line and the names stay whole; only the line breaks moved.
    expect(lines).toContain('    examples/pins/member-company-tabs.yaml:8');
    expect(lines).toContain('  + create  RecordingView                "Team calls"');
    const piped = await show({ isTTY: false, columns: 60 });
    expect(words(narrow)).toEqual(words(piped));
  });

  it('keeps the fixed layout off a terminal, and follows COLUMNS on one', async () => {
    const piped = await show({ isTTY: false, columns: 60 }, { COLUMNS: '60' });
    expect(piped).toContain(
      `Digest ${digest.slice(0, 6)}…${digest.slice(-4)}. To apply exactly this plan: ${command()}\n`,
    );
    const columns = await show({ isTTY: true, columns: 60 }, { COLUMNS: '200' });
    expect(columns).toBe(piped);
  });
});
