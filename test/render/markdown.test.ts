import { describe, expect, it } from 'vitest';
import { computePlan } from '../../src/plan/diff.js';
import { MARKDOWN_LIMIT, codeSpan, mdText, renderMarkdown } from '../../src/render/markdown.js';
import { largeScenario, mixedScenario } from '../plan/fixtures.js';

describe('renderMarkdown', () => {
  it('never passes the comment limit, keeps every deletion and says what it left out', () => {
    for (const count of [600, 2000]) {
      const { desired, live } = largeScenario(count);
      const { plan } = computePlan(desired, live);
      const text = renderMarkdown(plan, { color: false, planFile: 'out/plan.json' });
      expect(Buffer.byteLength(text)).toBeLessThanOrEqual(MARKDOWN_LIMIT);
      expect(text.trimEnd().split('\n').at(-1)).toMatch(
        /^\*Left out to fit one comment: .*Everything is in the JSON plan \(`out\/plan\.json`\)/,
      );
      if (count === 600) {
        for (const change of plan.changes)
          if (change.action === 'delete') expect(text).toContain(`**${change.name}** (${mdText(change.id)}`);
      }
    }
  });

  it('keeps everything when it fits, with no note', () => {
    const { desired, live } = mixedScenario();
    const text = renderMarkdown(computePlan(desired, live).plan, { color: false });
    expect(text).not.toContain('left out');
    expect(text).toContain('<details><summary>✏️ Zoom and Meet calls (rv_1)</summary>');
  });

  it('drops the largest details first', () => {
    const { desired, live } = largeScenario(600);
    const big = desired.views[0];
    if (big?.managed.filters !== undefined)
      big.managed.filters = { ...big.managed.filters, labelIdIn: Array.from({ length: 3000 }, (_, n) => `huge_${n}`) };
    const text = renderMarkdown(computePlan(desired, live).plan, { color: false });
    expect(text).not.toContain('huge_1');
    expect(text).toContain('Run `viewctl plan --out plan.json` for the full JSON plan');
  });

  it('escapes names so user data cannot break the table or inject HTML', () => {
    const { desired, live } = mixedScenario();
    const evil = 'a|b `c` <img src=x> **d** \u001b[31m';
    const first = desired.views[0];
    if (first !== undefined) first.name = evil;
    desired.pins = [];
    const text = renderMarkdown(computePlan(desired, live).plan, { color: false });
    // The escape `\u{1b}` that safeText writes keeps its backslash when rendered (`\\`).
    expect(text).toContain('a\\|b \\`c\\` &lt;img src=x&gt; \\*\\*d\\*\\* \\\\u{1b}\\[31m');
    expect(text).not.toContain('<img');
    expect(text).not.toContain('\u001b');
    expect(codeSpan('x`y|z')).toBe('`` x`y\\|z ``');
  });
});
