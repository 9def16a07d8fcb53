import { describe, expect, it } from 'vitest';
import { heldNext } from '../../src/apply/held-report.js';

/** How an apply of a saved plan says to carry its held targets out: commands that work as written. */
describe('heldNext', () => {
  it('plans from the commit the memory now records as last applied, with the memory, when it has one', () => {
    expect(heldNext(1, { ledgerFile: '.viewctl/ledger.json', lastApplied: 'c'.repeat(40) })).toBe(
      `The held target needs a new reviewed plan: in the merged checkout, run \`viewctl plan <manifests> --since-applied --ledger .viewctl/ledger.json --out plan.json\` (from the last applied commit, ccccccc: it plans what changed since it, the held targets among them), have that plan reviewed, then \`viewctl apply --plan plan.json --expect-digest <digest printed by plan> --ledger .viewctl/ledger.json\`.`,
    );
  });

  it('plans the whole manifests without the memory, or when it records no commit; a file name a shell would split is quoted', () => {
    expect(heldNext(3, {})).toBe(
      'The 3 held targets need a new reviewed plan: in the merged checkout, run `viewctl plan <manifests> --out plan.json` (it reads every target, the held ones as the app has them now), have that plan reviewed, then `viewctl apply --plan plan.json --expect-digest <digest printed by plan>`.',
    );
    expect(heldNext(2, { ledgerFile: "my memory's.json" })).toContain(
      `run \`viewctl plan <manifests> --ledger 'my memory'\\''s.json' --out plan.json\``,
    );
  });
});
