import { performance } from 'node:perf_hooks';
import type { ApiView, JsonObject } from '../../src/domain/api-types.js';
import { computePlan } from '../../src/plan/diff.js';
import { renderJson } from '../../src/render/json.js';
import { renderMarkdown } from '../../src/render/markdown.js';
import { renderText } from '../../src/render/text.js';
import type { Desired, Live } from '../../src/state/types.js';
import { RECORDING_DEFAULTS, declared, emptyDesired, emptyLive, view } from '../plan/fixtures.js';

/**
 * benchDiffRender builds `views` declared views with as many live ones, about a quarter
 * of them changed, and times computePlan and the three renderers. Target: under
 * 300 ms in total for 2,000 views. Prints nothing; the caller reports.
 */
export function benchDiffRender(views = 2000): { diffMs: number; renderMs: number } {
  const { desired, live } = benchWorkspace(views);
  const started = performance.now();
  const { plan } = computePlan(desired, live);
  const diffed = performance.now();
  renderText(plan, { color: false });
  renderMarkdown(plan, { color: false });
  renderJson(plan);
  const rendered = performance.now();
  return { diffMs: diffed - started, renderMs: rendered - diffed };
}

/** benchWorkspace is `views` recording views, declared and live, every fourth one changed. */
export function benchWorkspace(views: number): { desired: Desired; live: Live } {
  const desired = emptyDesired();
  const live = emptyLive();
  const liveViews: ApiView[] = [];
  for (let index = 0; index < views; index += 1) {
    const name = `View ${index}`;
    const labels = [`l_${index % 7}`, `l_${index % 11}`, `l_${index % 13}`];
    const columns: JsonObject[] = [
      { type: 'Default', columnId: 'title' },
      { type: 'Default', columnId: 'createdAt', width: 120 },
    ];
    liveViews.push(
      view(`rv_${index}`, name, {
        columns,
        filters: { labelIdIn: labels, sourceIn: ['Zoom', 'Call'] },
        sort: [{ field: 'CreatedAt', order: 'Desc' }],
      }),
    );
    const changed = index % 4 === 0;
    desired.views.push(
      declared('recordings', name, {
        columns,
        filters: { labelIdIn: [...labels].reverse(), sourceIn: changed ? ['Call', 'Zoom', 'Loom'] : ['Call', 'Zoom'] },
        sort: [{ field: 'CreatedAt', order: 'Desc' }],
      }),
    );
  }
  live.views.recordings = [...liveViews, ...RECORDING_DEFAULTS];
  return { desired, live };
}
