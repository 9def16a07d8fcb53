import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ApplyReport } from '../../src/apply/report.js';
import { renderReportJson, renderReportMarkdown, renderReportText } from '../../src/render/apply-report.js';
import { formatProblems } from '../../src/manifest/format-problems.js';
import { loadManifests } from '../../src/manifest/load.js';
import { memoryManifestSource } from '../../src/manifest/source.js';
import { computePlan } from '../../src/plan/diff.js';
import type { Plan } from '../../src/plan/types.js';
import { quoted, safeText } from '../../src/text/safe-text.js';
import { renderJson } from '../../src/render/json.js';
import { mdText, renderMarkdown } from '../../src/render/markdown.js';
import { renderText } from '../../src/render/text.js';
import { mixedScenario, view } from '../plan/fixtures.js';

/** One escaping rule per output format, for every string from a manifest or the service. */

const UNSAFE = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Cs}]/u;
const HOSTILE = [
  '\u001b[2J',
  '\r',
  '\n',
  '\u0007',
  '\u009b',
  '\u202e',
  '\u2066',
  '\u200b',
  '\u200d',
  '\ufeff',
  '\u2028',
  '\ud800',
  '[click me](http://evil.example)',
  '<img src=x>',
  '![i](x)',
  '|',
  '`',
  '``',
  '*',
  '_',
  '#',
  '\\',
  '&amp;',
  'www.evil.example',
  '<script>',
];
const names = fc
  .array(fc.oneof(fc.constantFrom(...HOSTILE), fc.string({ unit: 'binary', maxLength: 6 })), {
    minLength: 1,
    maxLength: 6,
  })
  .map((parts) => parts.join(''));

function planNaming(created: string, deleted: string): Plan {
  const { desired, live } = mixedScenario();
  const first = desired.views[0];
  if (first !== undefined) first.name = `X${created}`;
  desired.pins = [];
  live.views.deals = live.views.deals?.map((candidate) =>
    candidate.viewId === 'dv_9' ? view('dv_9', `Y${deleted}`, { ownerId: 'u_max' }) : candidate,
  );
  return computePlan(desired, live).plan;
}

/**
 * withoutFences drops fenced code blocks (the YAML of creates, updates and deletes):
 * nothing forms inside one, and its fence is longer than any backtick run it holds.
 */
function withoutFences(markdown: string): string {
  return markdown.replace(/^(`{3,})diff\n[\s\S]*?\n\1$/gm, '');
}

/** withoutEscapes drops markdown backslash escapes, so what is left is what renders as syntax. */
function withoutEscapes(markdown: string): string {
  return markdown.replace(/\\[\s\S]/g, '');
}

describe('escaping arbitrary names in every output format', () => {
  it('text: no raw control, invisible or bidi character, and the name stays visible', () => {
    fc.assert(
      fc.property(names, names, (created, deleted) => {
        const text = renderText(planNaming(created, deleted), { color: false });
        expect(text.replace(/\n/g, '')).not.toMatch(UNSAFE);
        expect(text).toContain(quoted(`X${created}`));
        expect(text).toContain(quoted(`Y${deleted}`));
      }),
      { numRuns: 150 },
    );
  });

  it('markdown: no link, image, autolink or HTML can form, table rows hold, the name stays visible', () => {
    fc.assert(
      fc.property(names, names, (created, deleted) => {
        const markdown = renderMarkdown(planNaming(created, deleted), { color: false });
        expect(markdown.replace(/\n/g, '')).not.toMatch(UNSAFE);
        // A `<details><summary>` line is an HTML block, where markdown is not parsed: entities escape it, never backslashes.
        const isHtml = (line: string) => line.startsWith('<details><summary>');
        const lines = withoutFences(markdown).split('\n');
        const syntax = withoutEscapes(lines.filter((line) => !isHtml(line)).join('\n'));
        expect(syntax).not.toContain('[');
        expect(syntax).not.toMatch(/:\/\/|www\./i);
        expect(syntax.replace(/<\/?(details|summary)>/g, '')).not.toContain('<');
        for (const line of lines.filter(isHtml)) {
          const inner = line.replace(/<\/?(details|summary|code)>/g, '');
          expect(inner).not.toMatch(/[<>]|:\/\/|www\./i);
          expect(inner).not.toMatch(/&(?!amp;|lt;|gt;|quot;|#58;|#46;)/);
        }
        for (const row of markdown.split('\n').filter((line) => line.startsWith('| '))) {
          expect(withoutEscapes(row).split('|')).toHaveLength(6);
        }
        expect(markdown).toContain(mdText(`X${created}`));
        expect(markdown).toContain(`**${mdText(`Y${deleted}`)}**`);
      }),
      { numRuns: 150 },
    );
  });

  it('json: the data exactly as read, with no control, invisible or bidi character raw in the bytes', () => {
    fc.assert(
      fc.property(names, names, (created, deleted) => {
        const json = renderJson(planNaming(created, deleted));
        expect(json.replace(/\n/g, '')).not.toMatch(UNSAFE);
        const plan = JSON.parse(json) as Plan;
        expect(plan.changes.map((change) => change.name)).toEqual(
          expect.arrayContaining([`X${created}`, `Y${deleted}`]),
        );
      }),
      { numRuns: 100 },
    );
  });

  it('apply report: text escaped, JSON exact, markdown in a fence no name or message can close', () => {
    fc.assert(
      fc.property(names, names, (name, message) => {
        const entry = {
          action: 'update' as const,
          kind: 'RecordingView' as const,
          name,
          domain: 'recordings' as const,
          id: 'rv_1',
        };
        const report: ApplyReport = {
          formatVersion: 1,
          status: 'partial',
          stopped: 'failure',
          workspace: { id: 'ws_1', name: 'W' },
          digest: 'd',
          counts: { created: 0, updated: 1, pinned: 0, deleted: 0 },
          landed: [entry],
          mayHaveLanded: [
            { ...entry, error: { code: 'service.unavailable', message, status: 500, mayHaveLanded: true } },
          ],
          failed: [
            {
              ...entry,
              error: { code: 'service.validation', message, status: 400, errorType: 'validation_error', path: message },
            },
          ],
          notAttempted: [],
          alreadyApplied: [{ ...entry, action: 'create' as const }],
          verification: { problems: [{ changeIndex: 0, kind: 'RecordingView', name, message }] },
          requests: 2,
          elapsedMs: 5,
        };
        const text = renderReportText(report, { color: false });
        expect(text.replace(/\n/g, '')).not.toMatch(UNSAFE);
        expect(text).toContain(quoted(name));
        expect(text).toContain(safeText(message));
        const json = renderReportJson(report);
        expect(json.replace(/\n/g, '')).not.toMatch(UNSAFE);
        expect(JSON.parse(json)).toEqual(report);
        const markdown = renderReportMarkdown(report);
        const fence = /^(`{3,})text\n/.exec(markdown)?.[1] ?? '';
        expect(markdown.endsWith(`\n${fence}\n`)).toBe(true);
        expect(markdown.slice(fence.length, -fence.length - 1)).not.toContain(fence);
      }),
      { numRuns: 150 },
    );
  });

  it('manifest problems: names quoted in messages are escaped for the terminal', async () => {
    const view = 'kind: RecordingView\nname: "Evil\\e[2J\\u202e"\n';
    const { problems } = await loadManifests(['.'], memoryManifestSource({ 'a.yaml': view, 'b.yaml': view }));
    const text = formatProblems(problems, { color: false });
    expect(text).toContain('RecordingView "Evil\\u{1b}[2J\\u{202e}" is declared more than once');
    expect(text.replace(/\n/g, '')).not.toMatch(UNSAFE);
  });
});
