import { describe, expect, it } from 'vitest';
import { computePlan } from '../../src/plan/diff.js';
import { renderJson } from '../../src/render/json.js';
import { renderMarkdown } from '../../src/render/markdown.js';
import { renderText } from '../../src/render/text.js';
import { formatCount, formatRate } from '../../src/text/plural.js';
import { shellWord } from '../../src/render/format.js';
import { mixedScenario, noChangeScenario } from '../plan/fixtures.js';

describe('renderText', () => {
  it('colours only when asked', () => {
    const { desired, live } = mixedScenario();
    const { plan } = computePlan(desired, live);
    expect(renderText(plan, { color: false })).not.toContain('\u001b[');
    const coloured = renderText(plan, { color: true });
    expect(coloured).toContain('\u001b[32m+ create');
    expect(coloured).toContain('\u001b[31m- delete');
    expect(coloured).toContain('\u001b[36m↻ pins');
    expect(coloured).toContain('\u001b[35m! drift');
  });

  it('says "No changes" in one line', () => {
    const { desired, live } = noChangeScenario();
    desired.workspace.ignore = [];
    live.views.deals = live.views.deals?.filter((view) => view.viewId !== 'dv_12');
    const text = renderText(computePlan(desired, live).plan, { color: false });
    expect(text).toBe('No changes. Workspace Acme Sales (ws_123) matches the manifests (read 6 requests).\n');
  });

  it('neutralises control characters in names and explains how to save the plan', () => {
    const { desired, live } = mixedScenario();
    const first = desired.views[0];
    if (first !== undefined) first.name = 'evil\u001b]0;title\u0007\u202e';
    desired.pins = [];
    const text = renderText(computePlan(desired, live).plan, { color: false });
    expect(text).not.toMatch(/[\u001b\u0007\u202e]/);
    expect(text).toContain('"evil\\u{1b}]0;title\\u{7}\\u{202e}"');
    expect(text).toContain('save it with --out plan.json, then: viewctl apply --plan plan.json --expect-digest');
  });

  it('reports when the service did not give the daily budget, and when it is short', () => {
    const { desired, live } = mixedScenario();
    live.requests.dailyRemaining = null;
    expect(renderText(computePlan(desired, live).plan, { color: false })).toContain(
      '\nThe service did not say how many requests are left today.\n',
    );
    live.requests.dailyRemaining = 2;
    expect(renderText(computePlan(desired, live).plan, { color: false })).toContain(
      '\n2 left today (not enough for this apply',
    );
  });

  it('says what applying the plan file costs, its re-reads included, and what is left after it; in apply, the writes alone', () => {
    const { desired, live } = mixedScenario();
    const { plan } = computePlan(desired, live);
    // 6 writes and checks, 5 re-reads by apply --plan (the workspace, two listings, a pinned list, the users).
    expect(renderText(plan, { color: false })).toContain(
      'Apply needs 11 requests (5 to re-read, 6 to write and verify; under 1 s at 3/s per endpoint).\n2,981 left today, 2,970 after this apply.\n',
    );
    // In apply the re-reads are done and counted in what is left: the writes remain.
    expect(renderText(plan, { color: false, context: 'apply' })).toContain(
      'Apply needs 6 requests (under 1 s at 3/s per endpoint).\n2,981 left today, 2,975 after this apply.\n',
    );
    expect(renderMarkdown(plan, { color: false })).toContain(
      'apply needs 11 requests (5 re-reads by apply --plan) · 2,981 left today, 2,970 after this apply',
    );
  });

  it('says what the service says is left today, and no daily total no header carries', () => {
    const { desired, live } = mixedScenario();
    // A workspace whose quota is 100,000: what is left is far above the documented 3,000.
    live.requests.dailyRemaining = 99_998;
    const { plan } = computePlan(desired, live);
    expect(renderText(plan, { color: false })).toContain('\n99,998 left today, 99,987 after this apply.\n');
    expect(renderMarkdown(plan, { color: false })).toContain(' · 99,998 left today, 99,987 after this apply');
    expect(`${renderText(plan, { color: false })}${renderMarkdown(plan, { color: false })}`).not.toMatch(
      /3,000|of [\d,]+ left/,
    );
    expect(plan.requests).not.toHaveProperty('dailyQuota');
  });

  it('writes a fractional --rate as it is, not truncated to 0', () => {
    const { desired, live } = mixedScenario();
    const { plan } = computePlan(desired, live);
    expect(renderText(plan, { color: false, rate: 0.5 })).toMatch(/ at 0\.5\/s per endpoint\)/);
    expect(renderText(plan, { color: false, rate: 1000 })).toMatch(/ at 1,000\/s per endpoint\)/);
    expect(formatRate(0.25)).toBe('0.25');
    expect(formatRate(2.5)).toBe('2.5');
    expect(formatRate(3)).toBe('3');
  });

  it('formats helpers', () => {
    expect(formatCount(1234567)).toBe('1,234,567');
    expect(shellWord('plans/plan.json')).toBe('plans/plan.json');
    expect(shellWord("my plan's.json")).toBe(`'my plan'\\''s.json'`);
  });
});

describe('renderJson', () => {
  it('is the plan, indented, with a final newline', () => {
    const { desired, live } = mixedScenario();
    const { plan } = computePlan(desired, live);
    const text = renderJson(plan);
    expect(text.endsWith('}\n')).toBe(true);
    expect(JSON.parse(text)).toEqual(plan);
  });
});

describe('renderText at a terminal width', () => {
  const membersLines = (text: string): string[] => {
    const lines = text.split('\n');
    const start = lines.findIndex((line) => line.startsWith('    members: '));
    const end = lines.findIndex((line, index) => index > start && !line.startsWith('             '));
    return lines.slice(start, end === -1 ? undefined : end);
  };

  it('wraps lists to the width, continuation lines aligned under the first item, and off a terminal at 100', async () => {
    const { groupScenario } = await import('./scale-fixtures.js');
    const { desired, live } = groupScenario(52);
    const { plan } = computePlan(desired, live);
    const lengths = (width?: number): number[] =>
      membersLines(renderText(plan, { color: false, ...(width === undefined ? {} : { width }) })).map(
        (line) => line.length,
      );
    const fixed = lengths();
    expect(Math.max(...fixed)).toBeLessThanOrEqual(100);
    const wide = lengths(200);
    expect(Math.max(...wide)).toBeGreaterThan(100);
    expect(Math.max(...wide)).toBeLessThanOrEqual(200);
    expect(wide.length).toBeLessThan(fixed.length);
    const narrow = membersLines(renderText(plan, { color: false, width: 60 }));
    expect(narrow.length).toBeGreaterThan(fixed.length);
    for (const line of narrow) expect(line.length).toBeLessThanOrEqual(60);
    for (const line of narrow.slice(1)) expect(line).toMatch(/^ {13}\S/);
  });
});
