import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { ApiView } from '../../src/domain/api-types.js';
import { RECORDING_DEFAULTS, emptyLive, view } from '../plan/fixtures.js';
import { ROOT, median, recordingViewFile, timed, type PeerRun } from './validate-peer.js';

/**
 * The local part of `viewctl plan` (everything but reading the service), as a whole
 * process of the built code like row 0: load and check `views` one-view files from
 * disk (the files row 0 validates), turn them into the Desired state, diff it against
 * a live state holding the same views (every fourth with another source list, so a
 * quarter are updates) and render the text plan. Run `npm run build` first.
 */
export function benchPlanLocal(views = 2000, runs = 5): PeerRun & { updates: number } {
  const dir = mkdtempSync(join(tmpdir(), 'viewctl-plan-local-'));
  try {
    const folder = join(dir, 'views', 'recordings');
    mkdirSync(folder, { recursive: true });
    for (let index = 0; index < views; index += 1)
      writeFileSync(join(folder, `recording-view-${String(index).padStart(5, '0')}.yaml`), recordingViewFile(index));
    const live = emptyLive();
    live.views.recordings = [...Array.from({ length: views }, (_, index) => liveView(index)), ...RECORDING_DEFAULTS];
    writeFileSync(join(dir, 'live.json'), JSON.stringify(live));
    const script = join(dir, 'plan-local.mjs');
    writeFileSync(script, planScript(dir));
    const measured: PeerRun[] = [];
    for (let run = 0; run < runs; run += 1) measured.push(timed(process.execPath, [script]));
    return { ...median(measured), updates: updatesPlanned(script) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** planScript is the process each run starts: the plan command's local steps, from dist/, printing the count of updates. */
function planScript(dir: string): string {
  const dist = (file: string): string => JSON.stringify(pathToFileURL(join(ROOT, 'dist', file)).href);
  return [
    `import { readFileSync } from 'node:fs';`,
    `import { loadDesired } from ${dist('manifest/load-desired.js')};`,
    `import { nodeManifestSource } from ${dist('manifest/source.js')};`,
    `import { computePlan } from ${dist('plan/diff.js')};`,
    `import { renderText } from ${dist('render/text.js')};`,
    `const dir = ${JSON.stringify(dir)};`,
    `const live = JSON.parse(readFileSync(dir + '/live.json', 'utf8'));`,
    `const { desired } = await loadDesired(['views'], nodeManifestSource(dir));`,
    `const { plan } = computePlan(desired, live);`,
    `renderText(plan, { color: false });`,
    `process.stdout.write(String(plan.summary.update));`,
  ].join('\n');
}

/** updatesPlanned runs the script once more for what it printed: the count of updates it planned. */
function updatesPlanned(script: string): number {
  const result = spawnSync(process.execPath, [script], { encoding: 'utf8' });
  if (result.status !== 0)
    throw new Error(`the plan script exited ${String(result.status)}: ${result.stderr.slice(-500)}`);
  return Number(result.stdout);
}

/** liveView is the view recordingViewFile(index) declares, as the service lists it; every fourth differs. */
function liveView(index: number): ApiView {
  return view(`rv_${index}`, `Recording view ${index}`, {
    icon: 'telephone_receiver',
    columns: [
      { type: 'Default', columnId: 'title' },
      { type: 'AiSection', fieldId: 'fld_next_steps', title: 'Next steps' },
    ],
    filters: {
      sourceIn: index % 4 === 0 ? ['Call', 'Zoom'] : ['Call', 'Zoom', 'GoogleMeet'],
      createdAfterRelative: index % 90,
      authorIdIn: [{ type: 'User', userId: 'u_1' }],
    },
    sort: [{ field: 'CreatedAt', order: 'Desc' }],
  });
}
