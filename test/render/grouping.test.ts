import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { computePlan } from '../../src/plan/diff.js';
import type { Plan } from '../../src/plan/types.js';
import { byteSize, COMMENT_LIMIT } from '../../src/render/comment-budget.js';
import { renderJson } from '../../src/render/json.js';
import { mdText, renderMarkdown } from '../../src/render/markdown.js';
import { renderText } from '../../src/render/text.js';
import { declared, emptyDesired, emptyLive, view } from '../plan/fixtures.js';
import { createsScenario, groupScenario, memberEmail } from './scale-fixtures.js';

/** Changes grouped by cause in text and markdown (README, "What a reviewer sees"); JSON keeps every change. */

const OPTIONS = { color: false, planFile: 'plan.json' };
const AFTER = 'Pipeline this month · At risk · All deals';

function planOf({ desired, live }: ReturnType<typeof groupScenario>): Plan {
  return computePlan(desired, live).plan;
}

const count = (text: string, part: string): number => text.split(part).length - 1;

describe("a group document's change", () => {
  it('is one block in text: the group, file:line, domain, before and after once, the exceptions apart, every member named; 52 members in at most 60 lines', () => {
    const text = renderText(planOf(groupScenario(52)), OPTIONS);
    expect(text.split('\n').length).toBeLessThanOrEqual(60);
    expect(text).toContain('  ↻ pins    group "Sales team"  deals · 52 members  pins/sales.yaml:4\n');
    expect(text).toContain(
      [
        '↻ deals tabs of group "Sales team" (52 members)  pins/sales.yaml:4',
        '    now:     All deals · Pipeline this month',
        `    after:   ${AFTER}`,
        '    kept first for 3 members: their private tabs (member0000@acme.com: Deals of member 0;',
        '      member0001@acme.com: Deals of member 1; member0002@acme.com: Deals of member 2)',
        '    members: member0000@acme.com, member0001@acme.com, member0002@acme.com, member0003@acme.com,',
      ].join('\n'),
    );
    expect(count(text, AFTER)).toBe(1);
    for (let index = 0; index < 52; index += 1) expect(text).toContain(memberEmail(index));
    expect(text).toContain('Plan: 0 to create, 0 to update, 0 to delete, 52 pin lists, 0 drifts.');
  });

  it('is one row and one block in markdown: 52 members in at most 8 KB', () => {
    const markdown = renderMarkdown(planOf(groupScenario(52)), OPTIONS);
    expect(byteSize(markdown)).toBeLessThanOrEqual(8 * 1024);
    expect(markdown).toContain('**0 creates · 0 updates · 0 deletes · 52 pin lists · 0 drifts**');
    expect(markdown).toContain('| 📌 | Pins | group "Sales team" · deals · 52 members | `pins/sales.yaml:4` |');
    expect(count(markdown, '| 📌 |')).toBe(1);
    expect(count(markdown, AFTER)).toBe(1);
    expect(markdown).toContain(
      '- kept first for 3 members: their private tabs (member0000@acme.com: Deals of member 0; member0001@acme.com: Deals of member 1; member0002@acme.com: Deals of member 2)',
    );
    expect(markdown).toContain(`- members: ${Array.from({ length: 52 }, (_, index) => memberEmail(index)).join(', ')}`);
    expect(markdown).not.toContain('left out');
  });

  it('tells members whose lists differ apart, each distinct list once with its members', () => {
    const scenario = groupScenario(20, 0);
    // Five members pin only "All deals" today.
    for (let index = 15; index < 20; index += 1)
      scenario.live.pins[`deals:${memberEmail(index)}`] =
        scenario.live.pins[`deals:${memberEmail(index)}`]?.slice(0, 1) ?? [];
    const plan = planOf(scenario);
    const text = renderText(plan, OPTIONS);
    expect(text).toContain(
      '    now:     All deals · Pipeline this month (15 members)\n             All deals (5 members: member0015@acme.com, member0016@acme.com, member0017@acme.com, … 2 more)\n',
    );
    expect(count(text, AFTER)).toBe(1);
    const markdown = renderMarkdown(plan, OPTIONS);
    expect(markdown).toContain(
      '- now (15 members): All deals · Pipeline this month\n- now (5 members: member0015@acme.com, member0016@acme.com, member0017@acme.com, … 2 more): All deals\n',
    );
  });

  it('reaching 1,082 members still fits one comment with every detail, and names every member', () => {
    const plan = planOf(groupScenario(1082, 40));
    const markdown = renderMarkdown(plan, OPTIONS);
    expect(byteSize(markdown)).toBeLessThanOrEqual(COMMENT_LIMIT);
    expect(markdown).not.toContain('left out');
    expect(markdown).toContain('<details><summary>📌 deals tabs of group "Sales team" (1,082 members)</summary>');
    expect(markdown).toContain(
      '- kept first for 40 members: their private tabs (member0000@acme.com: Deals of member 0; member0001@acme.com: Deals of member 1; member0002@acme.com: Deals of member 2; … 37 more)',
    );
    for (let index = 0; index < 1082; index += 1) expect(markdown).toContain(mdText(memberEmail(index)));
  });
});

describe('many views created by one cause', () => {
  it("600 creates fit one comment: one row naming every view, the shared attributes once, each view's own as far as they fit, and what was left out", () => {
    const plan = computePlan(createsScenario(600).desired, createsScenario(600).live).plan;
    const markdown = renderMarkdown(plan, { ...OPTIONS, detailsUrl: 'https://ci.example.com/runs/7' });
    expect(byteSize(markdown)).toBeLessThanOrEqual(COMMENT_LIMIT);
    expect(count(markdown, '| ➕ |')).toBe(1);
    expect(markdown).toContain('| ➕ | RecordingView × 600 | Team 0000 calls · Team 0001 calls · ');
    for (const change of plan.changes) expect(markdown).toContain(`${mdText(change.name)} · `.replace(/ · $/, ''));
    expect(markdown).toContain('Every one sets:\n\n```diff\n+columns:\n');
    expect(markdown).toContain('- Team 0000 calls: `filters.labelIdIn: [ label_0_0, ');
    expect(markdown).toMatch(
      /- … [\d,]+ more views, left out to fit one comment \(the full plan lists them\)\n<\/details>/,
    );
    expect(markdown.trimEnd().split('\n').at(-1)).toBe(
      '*Left out to fit one comment: part of 1 grouped detail (marked "left out"). Everything is in [the full plan](https://ci.example.com/runs/7) (`plan.json`); `viewctl show` prints it.*',
    );
  });

  it("600 creates in text: one summary line, the shared attributes once, each view's own wrapped in a few lines", () => {
    const plan = computePlan(createsScenario(600).desired, createsScenario(600).live).plan;
    const text = renderText(plan, OPTIONS);
    const lines = text.split('\n');
    expect(lines.length).toBeLessThan(3 * 600 + 50);
    expect(lines.filter((line) => line.startsWith('  + create')).length).toBe(1);
    expect(text).toContain('  + create  RecordingView × 600  in views/recordings/\n');
    expect(text).toContain('+ 600 RecordingViews in views/recordings/, owner ops@acme.com\n    every one sets:\n');
    expect(count(text, 'sourceIn:')).toBe(1);
    for (const change of plan.changes) expect(text).toContain(`"${change.name}": filters.labelIdIn`);
    // Wrapped: no line longer than the digest's.
    expect(
      Math.max(...lines.filter((line) => !line.startsWith('Digest')).map((line) => line.length)),
    ).toBeLessThanOrEqual(110);
  });
});

describe('many views deleted by prune', () => {
  it('are one line per kind and owner that names every deletion, in text and markdown', () => {
    const live = emptyLive();
    live.views.recordings = [
      ...Array.from({ length: 30 }, (_, index) => view(`rv_${index}`, `Old ${index}`)),
      ...(live.views.recordings ?? []),
    ];
    const desired = emptyDesired({ prune: true });
    desired.views = [declared('recordings', 'Kept')];
    const plan = computePlan(desired, live).plan;
    const text = renderText(plan, OPTIONS);
    expect(text).toContain(
      '  - delete  RecordingView × 30  owner ops@acme.com  prune: not declared\n      "Old 0" (rv_0), "Old 1" (rv_1), ',
    );
    const markdown = renderMarkdown(plan, OPTIONS);
    expect(count(markdown, '| 🗑️ |')).toBe(1);
    for (let index = 0; index < 30; index += 1) {
      expect(text).toContain(`"Old ${index}" (rv_${index})`);
      expect(markdown).toContain(`**Old ${index}** (rv\\_${index})`);
    }
  });
});

describe('the JSON plan', () => {
  // The hashes are of main's JSON for these plans before grouping came in (JSON rendering is untouched by it).
  it('keeps every change, byte for byte as before grouping (SHA-256 of the rendering)', () => {
    // `requests.recheck` came later (what apply --plan re-reads): left out, the rest is main's JSON as it was.
    const sha = (plan: Plan): string => {
      const before = structuredClone(plan);
      delete before.requests.recheck;
      return createHash('sha256').update(renderJson(before)).digest('hex');
    };
    const group = planOf(groupScenario(52));
    expect(group.changes).toHaveLength(52);
    expect(sha(group)).toBe('940a8c9ea87755b135cc877a559d73a9faf9ac18389c9d966e5c4fff7676ba55');
    const creates = computePlan(createsScenario(600).desired, createsScenario(600).live).plan;
    expect(creates.changes).toHaveLength(600);
    expect(sha(creates)).toBe('6b9a872d871602311e17d30e1c5aa3048f7e40202d6bbbdd394d7fb159bda1fb');
  });
});
