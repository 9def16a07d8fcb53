import { PassThrough } from 'node:stream';
import { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { parseEmulatorOptions, registerEmulatorCommand } from '../../../src/cli/emulator-command.js';
import type { CliIo } from '../../../src/cli/io.js';
import { checkEmulatorData } from '../../../src/emulator/data-file.js';
import { demoWorkspace } from '../../../src/emulator/demo/demo-workspace.js';
import { scaledWorkspace } from '../../../src/emulator/demo/scaled-workspace.js';
import { DOMAINS } from '../../../src/domain/domains.js';
import { UsageError } from '../../../src/errors.js';

describe('scaledWorkspace', () => {
  const data = scaledWorkspace(1000);
  const users = new Map(data.users.map((user) => [user.id, user]));

  it('grows the demo workspace to the members asked for, deterministically, keeping the demo as it is', () => {
    expect(data.users).toHaveLength(1000);
    expect(scaledWorkspace(1000)).toEqual(data);
    const demo = demoWorkspace();
    expect(data.users.slice(0, demo.users.length)).toEqual(demo.users);
    for (const domain of DOMAINS)
      expect(data.views[domain].slice(0, demo.views[domain].length)).toEqual(demo.views[domain]);
    expect(scaledWorkspace(5).users).toEqual(demo.users);
  });

  it('has the mix of a real company: mostly active members, some admins, invited and deactivated people, three mail domains', () => {
    const generated = data.users.filter((user) => user.id.startsWith('u_member_'));
    const share = (test: (user: (typeof generated)[number]) => boolean): number =>
      generated.filter(test).length / generated.length;
    expect(share((user) => user.state === 'Active')).toBeGreaterThan(0.8);
    expect(share((user) => user.state === 'Active')).toBeLessThan(0.93);
    expect(share((user) => user.state === 'Invited')).toBeGreaterThan(0.03);
    expect(share((user) => user.state === 'Deactivated')).toBeGreaterThan(0.01);
    expect(generated.filter((user) => user.role === 'Admin').length).toBeGreaterThan(10);
    expect(new Set(generated.map((user) => user.email.split('@')[1]))).toEqual(
      new Set(['sales.acme.test', 'cs.acme.test', 'ops.acme.test']),
    );
    expect(new Set(data.users.map((user) => user.email)).size).toBe(data.users.length);
  });

  it('gives every active generated member tabs in every domain that the service would accept, private views first', () => {
    let privateTabs = 0;
    for (const domain of DOMAINS) {
      const views = new Map(data.views[domain].map((view) => [view.viewId, view]));
      expect(views.size).toBe(data.views[domain].length);
      expect(data.views[domain].filter((view) => !view.isDefault).length).toBeLessThanOrEqual(500);
      for (const user of data.users.filter((candidate) => candidate.id.startsWith('u_member_'))) {
        const tabs = data.pinned[domain][user.id];
        if (user.state !== 'Active') {
          expect(tabs).toBeUndefined();
          continue;
        }
        expect(tabs?.length).toBeGreaterThanOrEqual(2);
        expect(new Set(tabs).size).toBe(tabs?.length);
        for (const [position, viewId] of (tabs ?? []).entries()) {
          const view = views.get(viewId);
          expect(view).toBeDefined();
          if (view?.visibility === 'Private') {
            expect(view.ownerId).toBe(user.id);
            expect(position).toBe(0);
            privateTabs += 1;
          }
        }
      }
    }
    expect(privateTabs).toBeGreaterThan(4 * 50);
    // Every owner is a known user.
    for (const domain of DOMAINS)
      for (const view of data.views[domain]) if (!view.isDefault) expect(users.has(view.ownerId)).toBe(true);
  });

  it('passes the checks a --data file gets', () => {
    expect(() => checkEmulatorData(JSON.parse(JSON.stringify(data)), 'scaled')).not.toThrow();
  });
});

describe('viewctl emulator --members', () => {
  it('serves the grown workspace: every member listed, a private tab pinned first', async () => {
    const io: CliIo = {
      stdout: new PassThrough(),
      stderr: new PassThrough(),
      stdin: new PassThrough(),
      env: {},
      cwd: process.cwd(),
    };
    const program = new Command('viewctl')
      .exitOverride()
      .configureOutput({ writeErr: () => undefined, writeOut: () => undefined });
    // The tenth generated member owns a private view per domain and pins it first.
    const tenth = scaledWorkspace(300).users.find((user) => user.id === 'u_member_00010');
    if (tenth === undefined || tenth.state !== 'Active')
      throw new Error('the tenth generated member is expected to be active');
    let total = 0;
    let firstTab = '';
    registerEmulatorCommand(
      program,
      io,
      { exitCode: 0 },
      {
        untilStopped: async (emulator) => {
          const get = async (path: string): Promise<unknown> =>
            (
              (await (
                await fetch(`${emulator.url}${path}`, { headers: { 'x-service-key': 'emulator-key' } })
              ).json()) as { result: unknown }
            ).result;
          total = ((await get('/v1/users?limit=1')) as { pagination: { totalCount: number } }).pagination.totalCount;
          const tabs = (await get(`/v1/recordings/views/pinned?userEmail=${encodeURIComponent(tenth.email)}`)) as {
            viewId: string;
          }[];
          firstTab = tabs[0]?.viewId ?? '';
        },
      },
    );
    await program.parseAsync(['emulator', '--members', '300', '--rate', '100', '--burst', '100'], { from: 'user' });
    expect(total).toBe(300);
    expect(firstTab).toBe('rv_private_u_member_00010');
  });

  it('refuses a member count out of range, or together with --data', () => {
    for (const members of ['0', '-3', '1.5', 'many', '20001']) {
      expect(() => parseEmulatorOptions({ members })).toThrow(UsageError);
    }
    expect(() => parseEmulatorOptions({ members: '100', data: 'workspace.json' })).toThrow(
      /cannot be combined with --data/,
    );
  });
});
