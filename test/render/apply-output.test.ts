import { describe, expect, it } from 'vitest';
import { computePlan } from '../../src/plan/diff.js';
import { applyResultText, type ApplyOutputOptions } from '../../src/render/apply-output.js';
import { noChangeScenario } from '../plan/fixtures.js';

/** A self-heal night that only swept because a reviewed apply is due: its own lines fit the terminal too. */
describe('applyResultText, review due, in text', () => {
  const { desired, live } = noChangeScenario();
  const shown = { plan: computePlan(desired, live).plan, elapsedMs: 10 };
  const due = {
    lead: 'a reviewed apply is due',
    why: 'the manifests at HEAD (abc1234) are not those of the last applied commit (def5678): what was merged since is not applied yet, and no reviewer saw it applied',
    hint: 'merge the pull request that carries it, or approve the recover job of the last apply run',
  };
  const options = (width?: number): ApplyOutputOptions => ({
    format: 'text',
    color: false,
    maxDeletes: 5,
    maxPinChanges: 100,
    budget: 1000,
    ...(width === undefined ? {} : { width }),
  });

  it('wraps the heading, why and way out to the width, words whole', () => {
    const text = applyResultText({ type: 'review-due', shown, due }, options(60));
    for (const line of text.split('\n')) expect(line.length, line).toBeLessThanOrEqual(60);
    expect(text.replace(/\s+/g, ' ')).toContain('no reviewer saw it applied');
  });

  it('keeps each of those lines whole off a terminal', () => {
    const text = applyResultText({ type: 'review-due', shown, due }, options());
    expect(text).toContain(`Way out: ${due.hint}.`);
    expect(text.split('\n').some((line) => line.length > 100)).toBe(true);
  });
});
