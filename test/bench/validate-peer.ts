import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * `viewctl validate` against the schema checker a team already runs in CI (ajv-cli 5),
 * on the same generated files in the same run: 5,000 one-view files laid out the way
 * `export` writes them, each tool run in turn so that both meet the same load. Both
 * are whole processes, start-up included, since that is what a CI step pays.
 */

/** ROOT is the repository, whose dist/ the peer rows run. */
export const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const TIME = '/usr/bin/time';

/** PeerRun is one process: wall time and peak resident memory (when /usr/bin/time is there). */
export interface PeerRun {
  ms: number;
  rssKb: number | undefined;
}

/** PeerComparison is the medians of both tools over the alternating runs. */
export interface PeerComparison {
  files: number;
  runs: number;
  ours: PeerRun;
  peer: PeerRun;
}

/** recordingViewFile is one exported-style manifest: one RecordingView. */
export function recordingViewFile(index: number): string {
  return [
    '# yaml-language-server: $schema=../../.viewctl/schemas/recording-view.schema.json',
    'kind: RecordingView',
    `name: Recording view ${index}`,
    `viewId: rv_${index}`,
    'icon: telephone_receiver',
    'columns:',
    '  - {type: Default, columnId: title}',
    '  - {type: AiSection, fieldId: fld_next_steps, title: Next steps}',
    'filters:',
    '  sourceIn: [Call, Zoom, GoogleMeet]',
    `  createdAfterRelative: ${index % 90}`,
    '  authorIdIn: [{type: User, userId: u_1}]',
    'sort:',
    '  - {field: CreatedAt, order: Desc}',
    '',
  ].join('\n');
}

/** timed runs one process from the repository root: its wall time and, with /usr/bin/time, its peak memory. */
export function timed(command: string, args: string[]): PeerRun {
  const withTime = existsSync(TIME);
  const started = performance.now();
  const result = withTime
    ? spawnSync(TIME, ['-f', '%M', command, ...args], { cwd: ROOT, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 })
    : spawnSync(command, args, { cwd: ROOT, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  const ms = performance.now() - started;
  if (result.status !== 0)
    throw new Error(`${command} ${args.join(' ')} exited ${String(result.status)}: ${result.stderr.slice(-500)}`);
  const rss = withTime ? Number(result.stderr.trim().split('\n').at(-1)) : Number.NaN;
  return { ms, rssKb: Number.isFinite(rss) ? rss : undefined };
}

/** median is the median wall time and the median peak memory of runs. */
export function median(runs: readonly PeerRun[]): PeerRun {
  const at = Math.floor(runs.length / 2);
  const ms = [...runs].map((run) => run.ms).sort((a, b) => a - b)[at] ?? Number.NaN;
  const rss = runs
    .map((run) => run.rssKb)
    .filter((value): value is number => value !== undefined)
    .sort((a, b) => a - b)[at];
  return { ms, rssKb: rss };
}

/**
 * benchValidatePeer writes `files` manifests to a temporary folder, then runs the
 * built `viewctl validate` and `ajv validate` (draft 2020-12, the same two schemas,
 * formats on) `runs` times each, alternating, and returns both medians. Run
 * `npm run build` first (`npm run bench` does).
 */
export function benchValidatePeer(files = 5000, runs = 5): PeerComparison {
  const dir = mkdtempSync(join(tmpdir(), 'viewctl-validate-peer-'));
  try {
    const folder = join(dir, 'views', 'recordings');
    mkdirSync(folder, { recursive: true });
    for (let index = 0; index < files; index += 1)
      writeFileSync(join(folder, `recording-view-${String(index).padStart(5, '0')}.yaml`), recordingViewFile(index));
    // The schema files carry no `$id` (editors resolve their relative references by
    // location); ajv-cli links the files it is given by `$id`, so its copies get one.
    const schemas = join(dir, 'schemas');
    mkdirSync(schemas);
    for (const file of ['recording-view.schema.json', 'common.schema.json']) {
      const schema = JSON.parse(readFileSync(join(ROOT, 'schemas', file), 'utf8')) as Record<string, unknown>;
      writeFileSync(join(schemas, file), JSON.stringify({ $id: `https://viewctl.invalid/schemas/${file}`, ...schema }));
    }
    const ours: PeerRun[] = [];
    const peer: PeerRun[] = [];
    const viewctl = [join(ROOT, 'dist', 'cli.js'), 'validate', dir];
    const ajv = [
      join(ROOT, 'node_modules', 'ajv-cli', 'dist', 'index.js'),
      'validate',
      '--spec=draft2020',
      '--strict=false',
      '--all-errors',
      '-c',
      'ajv-formats',
      '-s',
      join(schemas, 'recording-view.schema.json'),
      '-r',
      join(schemas, 'common.schema.json'),
      '-d',
      join(folder, '*.yaml'),
    ];
    for (let run = 0; run < runs; run += 1) {
      ours.push(timed(process.execPath, viewctl));
      peer.push(timed(process.execPath, ajv));
    }
    return { files, runs, ours: median(ours), peer: median(peer) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
