import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  byteSize,
  COMMENT_LIMIT,
  fitComment,
  type CommentPart,
  type LeftOut,
} from '../../src/render/comment-budget.js';
import { mdText, renderMarkdown } from '../../src/render/markdown.js';
import type { Change } from '../../src/plan/types.js';
import { arbitraryPlan } from './arbitrary-plans.js';
import { driftGroups } from '../../src/plan/drift-causes.js';
import { NAMES_SHOWN } from '../../src/render/drift-words.js';
import { GROUP_THRESHOLD } from '../../src/render/review-entries.js';

const DETAILS_URL = 'https://github.com/acme/views/actions/runs/4242';

/** outsideName is how an outside change is named in its row. */
function outsideName(change: Change): string {
  return mdText(change.action === 'pin' ? change.userEmail : change.name);
}

describe('the markdown plan within one comment, on random large plans', () => {
  it('never passes 64,000 bytes, names every deletion and every change made outside, and says what it left out with a link', () => {
    fc.assert(
      fc.property(arbitraryPlan, fc.boolean(), (plan, showWarnings) => {
        const markdown = renderMarkdown(plan, {
          color: false,
          planFile: 'plan.json',
          detailsUrl: DETAILS_URL,
          showWarnings,
        });
        expect(byteSize(markdown)).toBeLessThanOrEqual(COMMENT_LIMIT);
        expect(markdown.length).toBeLessThanOrEqual(COMMENT_LIMIT);
        for (const change of plan.changes) {
          if (change.action === 'delete')
            expect(markdown).toContain(`**${mdText(change.name)}** (${mdText(change.id)}`);
        }
        // Every change made (or maybe made) in the app is named, one line per cause: a cause of more than GROUP_THRESHOLD names its first few and counts the rest.
        const counted = new Set<Change>();
        for (const group of driftGroups(plan.changes)) {
          const named =
            group.cause === 'created' || group.changes.length <= GROUP_THRESHOLD
              ? group.changes
              : group.changes.slice(0, NAMES_SHOWN);
          for (const change of group.changes.slice(named.length)) counted.add(change);
          if (group.origin === 'membership') continue;
          if (named.length < group.changes.length)
            expect(markdown).toContain(`… ${group.changes.length - NAMES_SHOWN} more`);
          for (const change of named) expect(markdown).toContain(outsideName(change));
        }
        const last = markdown.trimEnd().split('\n').at(-1) ?? '';
        if (last.startsWith('*Left out')) {
          expect(last).toMatch(
            /^\*Left out to fit one comment: (the details of [\d,]+ changes? \(|part of [\d,]+ grouped details?|the summary rows of|names in|[\d,]+ warnings?)/,
          );
          expect(last).toContain(`[the full plan](${DETAILS_URL})`);
          expect(last).not.toContain('the names of');
        } else {
          // Nothing left out: every change has its row or its block, or is counted in its cause's line (members listed once, "… N more").
          for (const change of plan.changes.filter((change) => !counted.has(change)))
            expect(markdown).toContain(change.action === 'pin' ? mdText(change.userEmail) : mdText(change.name));
        }
        // Shrinking plans of thousands of changes takes longer than it helps; the seed printed replays a failure.
      }),
      { numRuns: 20, endOnFailure: true },
    );
  });
});

/** part is a piece of the comment for fitComment's own tests. */
function part(role: CommentPart['role'], text: string, covers: Change[] = []): CommentPart {
  return { role, items: 0, render: () => text, covers };
}

/** listPart is a piece naming `names`, which the budget may cut after the first few. */
function listPart(role: CommentPart['role'], names: string[]): CommentPart {
  return {
    role,
    items: names.length,
    render: (keep) =>
      `${names.slice(0, keep).join(', ')}${keep < names.length ? ` … ${names.length - keep} more` : ''}`,
  };
}

const noted = (leftOut: LeftOut): string =>
  `NOTE details=${leftOut.details.length} cut=${leftOut.cutDetails} rows=${leftOut.rows.length} cutRows=${leftOut.cutRows} warnings=${leftOut.warnings} cutMust=${leftOut.cutMust}`;
const change = { action: 'create' } as Change;
const deletion = { action: 'delete' } as Change;

describe('fitComment', () => {
  it('joins everything with no note when it fits', () => {
    expect(fitComment([part('fixed', 'head'), part('detail', 'd')], 100, noted)).toBe('head\nd\n');
  });

  it('leaves out details first (the largest first, what deletions delete last), then warnings, then cuts rows; never a must part while anything else can go', () => {
    const parts = [
      part('fixed', 'head'),
      part('must', 'M'.repeat(40), [deletion]),
      listPart(
        'row',
        Array.from({ length: 30 }, (_, index) => `n${index}`),
      ),
      part('warning', 'W'.repeat(20)),
      part('detail', 'small', [change]),
      part('detail', 'L'.repeat(200), [change]),
      part('detail', 'D'.repeat(30), [deletion]),
    ];
    const roomy = fitComment(parts, 330, noted);
    expect(roomy).toContain('small');
    expect(roomy).toContain('D'.repeat(30));
    expect(roomy).not.toContain('L'.repeat(200));
    expect(roomy).toContain('NOTE details=1 cut=0 rows=0 cutRows=0 warnings=0 cutMust=0');
    const tight = fitComment(parts, 200, noted);
    expect(tight).toContain('M'.repeat(40));
    expect(tight).toContain('n9 … 20 more');
    expect(tight).not.toContain('W'.repeat(20));
    expect(tight).toContain('warnings=1');
    expect(byteSize(tight)).toBeLessThanOrEqual(200);
  });

  it('cuts the names of a must part only when nothing else is left, and counts them', () => {
    const names = Array.from({ length: 100 }, (_, index) => `deleted-view-${index}`);
    const text = fitComment(
      [part('fixed', 'head'), listPart('must', names), part('warning', 'W'.repeat(50))],
      600,
      noted,
    );
    expect(byteSize(text)).toBeLessThanOrEqual(600);
    expect(text).not.toContain('W'.repeat(50));
    const kept = Number(/ … (\d+) more/.exec(text)?.[1]);
    expect(kept).toBeGreaterThan(0);
    expect(text).toContain(`warnings=1 cutMust=${kept}`);
  });

  it('cuts even what is fixed as a last guard, so the limit always holds', () => {
    const text = fitComment(
      [part('fixed', 'head'), part('fixed', 'T'.repeat(80)), part('fixed', 'T'.repeat(80)), part('fixed', 'foot')],
      150,
      noted,
    );
    expect(byteSize(text)).toBeLessThanOrEqual(150);
    expect(text).toBe(`head\n${'T'.repeat(80)}\n*… cut here to fit one comment: the full plan has the rest.*\n`);
  });

  it('counts bytes, not characters: a list of three-byte names keeps a third as many', () => {
    const text = fitComment(
      [
        part('fixed', 'head'),
        listPart(
          'detail',
          Array.from({ length: 200 }, () => '日本語'),
        ),
      ],
      300,
      noted,
    );
    expect(byteSize(text)).toBeLessThanOrEqual(300);
    // 11 bytes a name with its separator, 5 characters: counted in characters, twice as many would be kept.
    const kept = 200 - Number(/ … (\d+) more/.exec(text)?.[1]);
    expect(kept).toBeGreaterThan(10);
    expect(kept).toBeLessThan(25);
  });
});
