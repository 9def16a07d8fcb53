import { describe, expect, it } from 'vitest';
import { computePlan } from '../../src/plan/diff.js';
import type { Plan, PlanWarning } from '../../src/plan/types.js';
import { renderMarkdown } from '../../src/render/markdown.js';
import { renderText } from '../../src/render/text.js';
import { mixedScenario, noChangeScenario } from '../plan/fixtures.js';

// The plan's own warnings: one line per code (the first, the count, the places), or
// each with its position under --show-warnings.

const at = (file: string, line: number) => ({ file, line, column: 16 });
/** 37 members who unpinned a private tab their file still lists: each file needs an edit. */
const leftOut: PlanWarning[] = Array.from({ length: 37 }, (_, index) => ({
  code: 'pins.left-out',
  message: `rv_p${index} is left out of the recordings tabs of m${index}@acme.com: they no longer pin it`,
  source: at(`pins/m${String(index).padStart(2, '0')}.yaml`, 3),
}));
const kept: PlanWarning[] = ['recordings', 'deals', 'companies', 'contacts', 'recordings'].map((domain, index) => ({
  code: 'prune.kept-by-ignore',
  message: `ignore "Scratch ${index}" keeps 1 undeclared view in ${domain}`,
}));

function withWarnings(base: Plan, warnings: PlanWarning[]): Plan {
  return { ...base, warnings };
}

describe('plan warnings in the text and markdown plans', () => {
  const { desired, live } = noChangeScenario();
  const plan = withWarnings(computePlan(desired, live).plan, [...leftOut, ...kept]);

  it('are one entry per code: every place of one that asks for an edit, the count of the others', () => {
    const text = renderText(plan, { color: false });
    const lines = text.split('\n');
    const first = lines.findIndex((line) => line.startsWith('warning: pins/m00.yaml:3:16: rv_p0 is left out'));
    expect(lines[first]).toBe(
      'warning: pins/m00.yaml:3:16: rv_p0 is left out of the recordings tabs of m0@acme.com: they no longer pin it; 36 more like it, each to act on (--show-warnings lists each):',
    );
    const places = [...text.matchAll(/pins\/m\d\d\.yaml:3:16/g)].map((match) => match[0]);
    expect(places).toEqual(leftOut.map((warning) => `pins/${warning.source?.file.slice(5)}:3:16`));
    expect(lines.filter((line) => line.startsWith('warning: '))).toEqual([
      lines[first],
      'warning: ignore "Scratch 0" keeps 1 undeclared view in recordings; 4 more like it (--show-warnings lists each)',
    ]);
    expect(Math.max(...lines.map((line) => line.length))).toBeLessThanOrEqual(200);
  });

  it('are each on its own line, with its position, under --show-warnings', () => {
    const lines = renderText(plan, { color: false, showWarnings: true })
      .split('\n')
      .filter((line) => line.startsWith('warning: '));
    expect(lines).toHaveLength(42);
    expect(lines[36]).toBe(
      'warning: pins/m36.yaml:3:16: rv_p36 is left out of the recordings tabs of m36@acme.com: they no longer pin it',
    );
  });

  it('are grouped in markdown too, each line of an entry quoted', () => {
    const { desired: mixedDesired, live: mixedLive } = mixedScenario();
    const mixed = withWarnings(computePlan(mixedDesired, mixedLive).plan, [...kept, ...leftOut]);
    const lines = renderMarkdown(mixed, { color: false })
      .split('\n')
      .filter((line) => line.startsWith('>'));
    expect(lines[0]).toBe(
      '> ⚠️ ignore "Scratch 0" keeps 1 undeclared view in recordings; 4 more like it (--show-warnings lists each)',
    );
    expect(lines[1]).toMatch(/^> ⚠️ pins\/m00\.yaml:3:16: rv\\_p0 is left out .*; 36 more like it, each to act on/);
    expect(lines[2]).toMatch(/^> pins\/m01\.yaml:3:16, pins\/m02\.yaml:3:16,/);
    expect(
      renderMarkdown(mixed, { color: false, showWarnings: true })
        .split('\n')
        .filter((line) => line.startsWith('> ⚠️')),
    ).toHaveLength(42);
  });
});
