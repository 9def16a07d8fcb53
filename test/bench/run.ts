import { cpus, loadavg } from 'node:os';
import { benchApplyPins } from './apply-bench.js';
import { benchDiffRender } from './plan-bench.js';
import { benchPlanLive } from './plan-live-bench.js';
import { benchScoped } from './scoped-bench.js';
import { benchSweep } from './sweep-bench.js';
import { benchPlanLocal } from './plan-local-bench.js';
import { renderSoak } from './soak-table.js';
import { renderTable, type BenchRow, type MachineInfo } from './table.js';
import { benchValidate } from './validate-bench.js';
import { benchValidatePeer } from './validate-peer.js';

/**
 * `npm run bench`: measures validate, diff + render, plan and apply, prints one table
 * on stdout (progress on stderr). Targets are reported (✓/✗), not enforced: the exit
 * code is 0 unless a row threw, which is 1. `--soak` (or `--soak-seeds N`) adds the
 * soak's report after the table; `--month` (with `--days N`, `--members N`) the simulated
 * month's (test/bench/month.ts); `--rows 0,5` runs only the rows named.
 * Every live row gets a fresh emulator, so no row spends another's daily quota.
 */

const DIFF_RUNS = 5;
const DEFAULT_SOAK_SEEDS = 20;

interface RowSpec {
  id: string;
  label: string;
  measure: () => Promise<BenchRow[]>;
}

const PEER_RUNS = 5;

const ROWS: RowSpec[] = [
  {
    id: '0',
    label: 'viewctl validate vs ajv-cli, 5,000 one-view files',
    measure: async () => {
      const { ours, peer } = benchValidatePeer(5000, PEER_RUNS);
      return [
        {
          kind: 'peer',
          id: '0',
          label: `validate 5,000 one-view files, whole process, median of ${PEER_RUNS} alternating runs`,
          peerName: 'ajv-cli 5',
          oursMs: ours.ms,
          peerMs: peer.ms,
          ...(ours.rssKb === undefined ? {} : { oursRssKb: ours.rssKb }),
          ...(peer.rssKb === undefined ? {} : { peerRssKb: peer.rssKb }),
        },
      ];
    },
  },
  {
    id: '0b',
    label: 'plan, local part (load, normalise, diff, render), 2,000 one-view files',
    measure: async () => {
      const { ms, rssKb, updates } = benchPlanLocal(2000, PEER_RUNS);
      if (updates !== 500) throw new Error(`planned ${updates} updates, expected 500`);
      const label = `plan, local part (load, normalise, diff, render), 2,000 one-view files, whole process, median of ${PEER_RUNS}${rssKb === undefined ? '' : `, ${Math.round(rssKb / 1024)} MiB peak`}`;
      return [{ kind: 'timed', id: '0b', label, wallMs: ms, targetMs: 1000 }];
    },
  },
  {
    id: '1',
    label: 'validate 5,000 views (1 run, cold)',
    measure: async () => {
      const { ms, views } = await benchValidate(5000);
      if (views !== 5000) throw new Error(`validated ${views} views, expected 5,000`);
      return [{ kind: 'timed', id: '1', label: 'validate 5,000 views (1 run, cold)', wallMs: ms, targetMs: 2000 }];
    },
  },
  {
    id: '2',
    label: 'diff + render 2,000 views',
    measure: async () => {
      const total = (run: { diffMs: number; renderMs: number }): number => run.diffMs + run.renderMs;
      // The first run is the cold one (and the warm-up); the median is over the runs after it.
      const cold = total(benchDiffRender(2000));
      const warm = Array.from({ length: DIFF_RUNS }, () => total(benchDiffRender(2000))).sort((a, b) => a - b);
      return [
        { kind: 'timed', id: '2a', label: 'diff + render 2,000 views: cold, first run', wallMs: cold, targetMs: 300 },
        {
          kind: 'timed',
          id: '2b',
          label: `diff + render 2,000 views: warm, median of ${DIFF_RUNS}`,
          wallMs: warm[Math.floor(DIFF_RUNS / 2)] ?? Number.NaN,
          targetMs: 300,
        },
      ];
    },
  },
  {
    id: '3',
    label: 'plan, 40 users × 4 domains',
    measure: async () => {
      const measured = await benchPlanLive(40);
      if (measured.users !== 40) throw new Error(`declared ${measured.users} users, expected 40`);
      return [{ kind: 'live', id: '3', label: 'plan, 40 users × 4 domains (in-process)', measured }];
    },
  },
  {
    id: '4',
    label: 'apply pinned tabs, 40 users × 4 domains',
    measure: async () => {
      const measured = await benchApplyPins(40);
      return [{ kind: 'live', id: '4', label: 'apply pinned tabs, 40 users × 4 domains', measured }];
    },
  },
  {
    id: '5',
    label: "scoped and budgeted plans, 1,000 members at the service's limits",
    measure: async () => benchScoped(1000),
  },
  {
    id: '6',
    label: "the nightly sweep's promise: 30 nights of --budget 1,000, 1,000 members, 1 % changing a day",
    measure: async () => benchSweep(),
  },
];

async function main(argv: readonly string[]): Promise<number> {
  const soakSeeds = soakSeedsOf(argv);
  const only = rowsOf(argv);
  const machine = machineInfo();
  const started = performance.now();
  const rows: BenchRow[] = [];
  for (const spec of ROWS.filter((row) => only === undefined || only.includes(row.id))) {
    process.stderr.write(`bench: row ${spec.id}, ${spec.label}…\n`);
    try {
      rows.push(...(await spec.measure()));
    } catch (error) {
      process.stderr.write(`bench: row ${spec.id} threw: ${stackOf(error)}\n`);
      rows.push({ kind: 'failed', id: spec.id, label: spec.label, error: describe(error) });
    }
  }
  process.stdout.write(renderTable(rows, machine, performance.now() - started));
  let failed = rows.some((row) => row.kind === 'failed');
  if (soakSeeds !== undefined) failed = !(await runSoakRow(soakSeeds)) || failed;
  if (argv.includes('--month')) failed = !(await runMonthRow(argv)) || failed;
  return failed ? 1 : 0;
}

/**
 * soakSeedsOf reads `--soak` (DEFAULT_SOAK_SEEDS seeds) and `--soak-seeds N`; undefined
 * when neither is given. A malformed count throws: a bench asked for the wrong thing
 * should say so, not run something else.
 */
function soakSeedsOf(argv: readonly string[]): number | undefined {
  const at = argv.indexOf('--soak-seeds');
  if (at >= 0) {
    const seeds = Number(argv[at + 1]);
    if (!Number.isInteger(seeds) || seeds < 1)
      throw new Error(`--soak-seeds needs a whole number above 0, got ${argv[at + 1] ?? 'nothing'}`);
    return seeds;
  }
  return argv.includes('--soak') ? DEFAULT_SOAK_SEEDS : undefined;
}

/** rowsOf reads `--rows 0,0b`: the ids of the rows to run; undefined (all) when not given. An unknown id throws. */
function rowsOf(argv: readonly string[]): string[] | undefined {
  const at = argv.indexOf('--rows');
  if (at < 0) return undefined;
  const ids = (argv[at + 1] ?? '').split(',').filter((id) => id !== '');
  const unknown = ids.filter((id) => !ROWS.some((row) => row.id === id));
  if (ids.length === 0 || unknown.length > 0)
    throw new Error(`--rows needs ids among ${ROWS.map((row) => row.id).join(', ')}, got ${argv[at + 1] ?? 'nothing'}`);
  return ids;
}

/** runMonthRow runs the simulated month (`--month`, with `--days N` and `--members N`) and prints its report; false when it threw or found broken plans or loss. */
async function runMonthRow(argv: readonly string[]): Promise<boolean> {
  try {
    // Loaded only when asked for: it runs the whole CLI against the emulator for a month of days.
    const { monthOptionsOf, renderMonth, runMonth } = await import('./month.js');
    const report = await runMonth({ ...monthOptionsOf(argv), log: (line) => process.stderr.write(`${line}\n`) });
    process.stdout.write(`\n${renderMonth(report)}`);
    return report.broken.length === 0 && report.lost.length === 0;
  } catch (error) {
    process.stderr.write(`bench: month threw: ${stackOf(error)}\n`);
    process.stdout.write(`\nmonth ✗ threw: ${describe(error)}\n`);
    return false;
  }
}

/** runSoakRow runs the soak and prints its report; false when it threw. */
async function runSoakRow(seeds: number): Promise<boolean> {
  process.stderr.write(`bench: soak, ${seeds} seeds…\n`);
  try {
    // Loaded only when asked for: it pulls in the hardening harness and the whole CLI.
    const { runSoak } = await import('./soak.js');
    const report = await runSoak({ seeds, log: (line) => process.stderr.write(`${line}\n`) });
    process.stdout.write(`\n${renderSoak(report)}`);
    return true;
  } catch (error) {
    process.stderr.write(`bench: soak threw: ${stackOf(error)}\n`);
    process.stdout.write(`\nsoak ✗ threw: ${describe(error)}\n`);
    return false;
  }
}

function machineInfo(): MachineInfo {
  const processors = cpus();
  return {
    node: process.version,
    platform: `${process.platform} ${process.arch}`,
    cpus: processors.length,
    cpuModel: processors[0]?.model.trim() ?? 'unknown',
    loadAverage: loadavg(),
  };
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function stackOf(error: unknown): string {
  return error instanceof Error ? (error.stack ?? error.message) : String(error);
}

process.exitCode = await main(process.argv.slice(2));
