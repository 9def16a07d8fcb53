import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { computePlan } from '../../src/plan/diff.js';
import type { Plan } from '../../src/plan/types.js';
import type { Desired, Live } from '../../src/state/types.js';
import { renderJson } from '../../src/render/json.js';
import { renderMarkdown } from '../../src/render/markdown.js';
import type { RenderOptions } from '../../src/render/options.js';
import { renderText } from '../../src/render/text.js';
import { largeScenario, mixedScenario, noChangeScenario } from '../plan/fixtures.js';

/** Golden files: rendered plans compared byte for byte. `UPDATE_GOLDEN=1` rewrites them on purpose. */
const GOLDEN = new URL('../golden/plan/', import.meta.url);
const OPTIONS: RenderOptions = { color: false, planFile: 'plan.json', elapsedMs: 2100 };

function checkGolden(name: string, actual: string): void {
  const file = new URL(name, GOLDEN);
  if (process.env.UPDATE_GOLDEN === '1' || !existsSync(file)) {
    if (process.env.UPDATE_GOLDEN !== '1') throw new Error(`missing golden file ${name}: run with UPDATE_GOLDEN=1`);
    mkdirSync(GOLDEN, { recursive: true });
    writeFileSync(file, actual);
  }
  expect(actual).toBe(readFileSync(file, 'utf8'));
}

function planOf({ desired, live }: { desired: Desired; live: Live }): Plan {
  return computePlan(desired, live).plan;
}

describe('golden plans', () => {
  for (const [name, build] of [
    ['mixed', mixedScenario],
    ['no-change', noChangeScenario],
  ] as const) {
    it(`renders the ${name} plan as text, markdown and json`, () => {
      const plan = planOf(build());
      checkGolden(`${name}.txt`, renderText(plan, OPTIONS));
      checkGolden(`${name}.md`, renderMarkdown(plan, OPTIONS));
      checkGolden(`${name}.json`, renderJson(plan));
    });
  }

  // 600 changes: the markdown is cut to fit one comment. Text and JSON of this plan are
  // too large to be useful as golden files; their properties are tested elsewhere.
  it('renders the large plan as markdown', () => {
    checkGolden('large.md', renderMarkdown(planOf(largeScenario(600)), OPTIONS));
  });
});
