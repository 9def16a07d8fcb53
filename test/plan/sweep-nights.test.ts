import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Desired } from '../../src/domain/desired.js';
import { scaledWorkspace } from '../../src/emulator/demo/scaled-workspace.js';
import type { EmulatorData } from '../../src/emulator/model.js';
import { loadGroupManifests, runSweepNights } from '../bench/sweep-churn.js';

/**
 * Ten nights of churn through planWorkspace with a moving clock (README, "The nightly
 * sweep's promise"): every night a member leaves, one joins and others change role, and
 * `plan --budget` sweeps 60 members' lists. Each night reads all its room, no list waits
 * longer than the cycles stated without a night saying so, and joiners are read the
 * night they join with the memory, within the cycle without it.
 */

const BUDGET = 60;
let dir: string;
let data: EmulatorData;
let desired: Desired;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'viewctl-sweep-nights-'));
  data = scaledWorkspace(60);
  desired = await loadGroupManifests(data, dir);
});
afterAll(async () => rm(dir, { recursive: true, force: true }));

describe('ten nights of churn under plan --budget', () => {
  it('with the memory: never-read lists first (joiners the night they join), the rest least recently read, within the cycle stated', async () => {
    const report = await runSweepNights({
      data,
      desired,
      nights: 10,
      budget: BUDGET,
      withMemory: true,
      changesPerDay: 4,
    });
    expect(report.lists).toBeGreaterThan(BUDGET);
    expect(report.filled).toBe(true);
    expect(report.requestsMost).toBe(BUDGET);
    expect(report.silentBreaks).toEqual([]);
    expect(report.worstGap).toBeLessThanOrEqual(report.statedMost);
    expect(report.nightsOverdue).toBe(0);
    // Once the first night's backlog of lists never read is read, joiners go first.
    const after = report.joinerWaits.filter((joiner) => joiner.night >= report.firstCover);
    expect(after.length).toBeGreaterThan(4);
    expect(new Set(after.map((joiner) => joiner.wait))).toEqual(new Set([1]));
    expect(report.firstCover).toBeLessThanOrEqual(report.statedMost);
  });

  it('without it: the rotation by hash reads every list, joiners included, within the cycle stated', async () => {
    const report = await runSweepNights({
      data,
      desired,
      nights: 10,
      budget: BUDGET,
      withMemory: false,
      changesPerDay: 4,
    });
    expect(report.filled).toBe(true);
    expect(report.requestsMost).toBe(BUDGET);
    expect(report.silentBreaks).toEqual([]);
    expect(report.worstGap).toBeLessThanOrEqual(report.statedMost);
    expect(report.firstCover).toBeLessThanOrEqual(report.statedMost);
    // Joiners of the last nights may still be due; those read waited no longer than the cycle.
    expect(Math.max(...report.joinerWaits.map((joiner) => joiner.wait))).toBeLessThanOrEqual(report.statedMost);
  });
});
