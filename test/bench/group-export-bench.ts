import type { EmulatorData } from '../../src/emulator/model.js';
import { DOMAINS } from '../../src/domain/domains.js';
import { demoRandom } from '../../src/emulator/demo/prng.js';
import { scaledWorkspace } from '../../src/emulator/demo/scaled-workspace.js';
import { startEmulator } from '../../src/emulator/server.js';
import { exportFiles, PINS_FOLDER } from '../../src/export/export-files.js';
import type { PinLayout } from '../../src/export/pin-layout.js';
import { selectPinUsers } from '../../src/export/pin-users.js';
import { memoryManifestSource } from '../../src/manifest/source.js';
import { readExport } from '../../src/state/read-export.js';
import { createServiceClient } from '../../src/service/client.js';
import { FAST_LIMITS, planManifests } from '../export/helpers.js';

/**
 * `node --import tsx test/bench/group-export-bench.ts [MEMBERS]`: export a workspace of
 * MEMBERS (default 1,000) with `--pins groups` and `--pins per-member`, then plan each
 * export, and print the pins/ file count and the plan's requests (it must plan no
 * change). Two workspaces: the emulator's scaled one as generated (every active member
 * picks 2 to 4 tabs at random: the worst case for groups), and the same people shaped
 * like a sales organisation (per mail team, a fifth of the members never changed their
 * tabs; the others keep the team's tabs, but one list in ten is their own).
 */

function teamShaped(members: number): EmulatorData {
  const data = scaledWorkspace(members);
  const random = demoRandom(7);
  const unchanged = new Set(data.users.filter(() => random.next() < 0.2).map((user) => user.id));
  for (const domain of DOMAINS) {
    const publicIds = data.views[domain].filter((view) => view.visibility === 'Public').map((view) => view.viewId);
    const teamTabs = new Map<string, string[]>();
    for (const user of data.users) {
      const stored = data.pinned[domain][user.id];
      if (stored === undefined || !user.email.includes('member.')) continue;
      const team = user.email.slice(user.email.indexOf('@'));
      const tabs = teamTabs.get(team) ?? random.shuffle(random.sample(publicIds, 3));
      teamTabs.set(team, tabs);
      const privateFirst = stored.filter((id) => id.includes('_private_'));
      if (unchanged.has(user.id)) delete data.pinned[domain][user.id];
      else if (random.next() < 0.9) data.pinned[domain][user.id] = [...privateFirst, ...tabs];
    }
  }
  return data;
}

// A modest rate: client and emulator share one process, and thousands of sockets at once time out.
const clientFor = (emulator: { url: string; apiKey: string }) =>
  createServiceClient({ baseUrl: emulator.url, apiKey: emulator.apiKey, rate: 100, burst: 100 });

async function measure(label: string, data: EmulatorData): Promise<void> {
  const emulator = await startEmulator({ data, port: 0, ...FAST_LIMITS });
  try {
    const client = clientFor(emulator);
    const exported = await readExport(client, { selectUsers: (users) => selectPinUsers(users, { kind: 'all' }) });
    for (const pinLayout of ['groups', 'per-member'] as PinLayout[]) {
      const result = exportFiles({
        ...exported,
        schemas: new Map(),
        pinLayout,
        ...(exported.live.users === undefined ? {} : { everyone: exported.live.users }),
      });
      const pinFiles = Object.keys(result.files).filter((path) => path.startsWith(`${PINS_FOLDER}/`));
      const lines = pinFiles.reduce((sum, path) => sum + (result.files[path] ?? '').split('\n').length, 0);
      const { plan, problems } = await planManifests(['.'], memoryManifestSource(result.files), clientFor(emulator));
      const errors = problems.filter((problem) => problem.severity === 'error').length;
      const changes = plan?.changes.length ?? -1;
      const { groups, members } = result.summary.pinDocuments;
      console.log(
        `${label} | --pins ${pinLayout} | ${pinFiles.length} pins/ files (${groups} groups, ${members} members' own), ${lines} lines | plan: ${plan?.requests.used ?? '-'} requests, ${changes} changes, ${errors} errors`,
      );
    }
  } finally {
    await emulator.close();
  }
}

const members = Number(process.argv[2] ?? 1000);
await measure(`scaled ${members}, random tabs`, scaledWorkspace(members));
await measure(`scaled ${members}, team-shaped tabs`, teamShaped(members));
