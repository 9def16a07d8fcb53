import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { scaledWorkspace } from '../../src/emulator/demo/scaled-workspace.js';
import { loadGroupManifests, runSweepNights, type SweepNightsReport } from './sweep-churn.js';
import type { BenchRow } from './table.js';

/**
 * The nightly sweep's promise at company size (README, "The nightly sweep's promise"):
 * a 1,000-member workspace (867 active), 1 % of its members changing a day (one leaves,
 * one joins, eight change role, which gives or takes their companies list), and a
 * nightly `plan --budget 1000` through planWorkspace for 30 nights, once with the sweep
 * memory (built from what each night read) and once without. Each row prints the cycle
 * the nights stated, the worst wait measured (which must not exceed it), the nights
 * until every list of the first night was read, joiners' nights until their lists were
 * read, and the requests per night.
 */

const MEMBERS = 1000;
const NIGHTS = 30;
const BUDGET = 1000;
const CHANGES_PER_DAY = MEMBERS / 100;

/** benchSweep measures the two rows. */
export async function benchSweep(): Promise<BenchRow[]> {
  const data = scaledWorkspace(MEMBERS);
  const dir = await mkdtemp(join(tmpdir(), 'viewctl-bench-sweep-'));
  try {
    const desired = await loadGroupManifests(data, dir);
    const rows: BenchRow[] = [];
    for (const withMemory of [true, false]) {
      const started = performance.now();
      const report = await runSweepNights({
        data,
        desired,
        nights: NIGHTS,
        budget: BUDGET,
        withMemory,
        changesPerDay: CHANGES_PER_DAY,
      });
      rows.push(row(withMemory ? '6a' : '6b', withMemory, report, performance.now() - started));
    }
    return rows;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

function row(id: string, withMemory: boolean, report: SweepNightsReport, wallMs: number): BenchRow {
  const checks = [
    ...(report.worstGap <= report.statedMost
      ? []
      : [`a list waited ${report.worstGap} nights, ${report.statedMost} promised`]),
    ...(report.silentBreaks.length === 0
      ? []
      : [`${report.silentBreaks.length} waits past the cycle stated with no night saying so`]),
    ...(report.filled ? [] : ['a night read fewer lists than its room']),
    ...(report.requestsMost <= BUDGET ? [] : [`${report.requestsMost} requests in a night`]),
  ];
  const waits = report.joinerWaits.map((joiner) => joiner.wait);
  const settled = report.joinerWaits.filter((joiner) => joiner.night >= report.firstCover).map((joiner) => joiner.wait);
  const stated =
    report.statedLeast === report.statedMost ? `${report.statedMost}` : `${report.statedLeast} to ${report.statedMost}`;
  const detail = [
    `${report.lists.toLocaleString('en-US')} lists of ${report.activeMembers} active members at the end`,
    `cycle stated ${stated} nights, worst wait measured ${report.worstGap}`,
    `every list of the first night read by night ${report.firstCover}`,
    `joiners and members a role newly reached (${waits.length}): read within ${Math.max(...waits)} nights (mean ${(waits.reduce((sum, wait) => sum + wait, 0) / Math.max(waits.length, 1)).toFixed(1)}${withMemory ? `; after the first cover, ${Math.max(...settled, 0)}` : ''}), ${report.joinersPending} pending at the end`,
    `${report.requestsLeast === report.requestsMost ? report.requestsMost : `${report.requestsLeast} to ${report.requestsMost}`} requests a night, at least ${report.readLeast} lists read`,
    ...(report.nightsOverdue === 0 ? [] : [`${report.nightsOverdue} nights said lists were overdue`]),
  ].join('; ');
  const label = `${NIGHTS} nights of plan --budget ${BUDGET.toLocaleString('en-US')}, ${MEMBERS.toLocaleString('en-US')} members, 1 % changing a day, ${withMemory ? 'with the sweep memory' : 'without memory (rotation by hash)'}`;
  return {
    kind: 'budgeted',
    id,
    label,
    wallMs,
    requests: report.requestsMost,
    targetRequests: BUDGET,
    fullPlanRequests: report.lists + 6 + Math.ceil(MEMBERS / 100),
    checks,
    detail,
  };
}
