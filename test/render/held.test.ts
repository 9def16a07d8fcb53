import { describe, expect, it } from 'vitest';
import { computePlan } from '../../src/plan/diff.js';
import { planShapeProblems } from '../../src/plan/plan-schema.js';
import { renderJson } from '../../src/render/json.js';
import { MARKDOWN_LIMIT, renderMarkdown } from '../../src/render/markdown.js';
import { renderText } from '../../src/render/text.js';
import { warningEntries } from '../../src/render/warning-lines.js';
import type { Plan } from '../../src/plan/types.js';
import { declared, largeScenario, mixedScenario, noChangeScenario } from '../plan/fixtures.js';

/** heldPlan is the mixed scenario plus a manifest bound to a view id the service does not know. */
function heldPlan(): Plan {
  const { desired, live } = mixedScenario();
  desired.views.push(declared('recordings', 'Gone calls', {}, { viewId: 'rv_gone' }));
  return computePlan(desired, live).plan;
}

describe('held targets in the rendered plan', () => {
  it('text: lists them first, after the header, with where, why and the way out; the rest follows', () => {
    const text = renderText(heldPlan(), { color: false });
    const lines = text.split('\n');
    const heading = lines.findIndex((line) => line.startsWith('Held: 1 target left out of this plan'));
    expect(heading).toBe(2);
    expect(lines[heading + 1]).toBe(
      '  ⏸ held  views/recordings/gone-calls.yaml:1:1: [view.id-not-found] RecordingView "Gone calls" binds to rv_gone, which the service reports as not found: it is private or deleted (never a create)',
    );
    expect(lines[heading + 2]).toContain('way out: fix the id, or remove `viewId`');
    expect(text.indexOf('Held:')).toBeLessThan(text.indexOf('+ create'));
  });

  it('text: a plan with nothing but held targets does not say the workspace matches the manifests', () => {
    const { desired, live } = noChangeScenario();
    desired.workspace.ignore = [];
    live.views.deals = live.views.deals?.filter((view) => view.viewId !== 'dv_12');
    desired.views.push(declared('recordings', 'Gone calls', {}, { viewId: 'rv_gone' }));
    const text = renderText(computePlan(desired, live).plan, { color: false });
    expect(text.startsWith('Held: 1 target')).toBe(true);
    expect(text).toContain(
      'No other changes. Workspace Acme Sales (ws_123) matches the manifests apart from what is held',
    );
  });

  it('markdown: lists them first, under the counts, and keeps them when the comment is cut', () => {
    const markdown = renderMarkdown(heldPlan(), { color: false });
    expect(markdown.indexOf('**⏸ Held: 1 target')).toBeGreaterThan(markdown.indexOf('**1 create'));
    expect(markdown.indexOf('**⏸ Held:')).toBeLessThan(markdown.indexOf('| | kind | name | source |'));
    expect(markdown).toContain(
      '- views/recordings/gone-calls.yaml:1:1: \\[view.id-not-found\\] RecordingView "Gone calls" binds to rv\\_gone',
    );
    const { desired, live } = largeScenario();
    desired.views.push(declared('recordings', 'Gone calls', {}, { viewId: 'rv_gone' }));
    const large = renderMarkdown(computePlan(desired, live).plan, { color: false });
    expect(Buffer.byteLength(large)).toBeLessThanOrEqual(MARKDOWN_LIMIT);
    expect(large).toContain('binds to rv\\_gone');
  });

  it('json: lists them under `held` (target, code, reason), a plan file the schema accepts', () => {
    const json = JSON.parse(renderJson(heldPlan())) as Plan;
    expect(json.held).toEqual([
      expect.objectContaining({
        target: 'view:recordings:id:rv_gone',
        code: 'view.id-not-found',
        reason: expect.stringContaining('rv_gone'),
      }),
    ]);
    expect(planShapeProblems(json)).toEqual([]);
  });
});

describe('members who left, as plan warnings', () => {
  it('name every document to delete, not only the first few', () => {
    const warnings = ['ana', 'ben', 'cid', 'dan', 'eve'].map((name) => ({
      code: 'pins.user-not-active',
      message: `${name}@acme.com is deactivated, not an active member: their tabs are skipped; delete pins/${name}.yaml`,
      source: { file: `pins/${name}.yaml`, line: 2, column: 12 },
    }));
    const [entry] = warningEntries(warnings);
    expect(entry?.join('\n')).toContain('pins/eve.yaml:2:12');
  });
});
