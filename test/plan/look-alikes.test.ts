import { describe, expect, it } from 'vitest';
import { computePlan } from '../../src/plan/diff.js';
import { lookAlikeKey, lookAlikeWarnings } from '../../src/kinds/look-alikes.js';
import type { Change } from '../../src/plan/types.js';
import { renderJson } from '../../src/render/json.js';
import { renderMarkdown } from '../../src/render/markdown.js';
import { renderText } from '../../src/render/text.js';
import { RECORDING_DEFAULTS, declared, emptyDesired, emptyLive, view } from './fixtures.js';

function prunePlan(manifestName: string, liveName: string) {
  const live = emptyLive();
  live.views.recordings = [view('rv_9', liveName), ...RECORDING_DEFAULTS];
  const desired = emptyDesired({ prune: true });
  desired.views = [
    declared('recordings', manifestName, {}, { source: { file: 'views/team.yaml', line: 2, column: 1 } }),
  ];
  return computePlan(desired, live).plan;
}

describe('look-alike names under prune', () => {
  it.each([
    [
      'NFC and NFD',
      'Caf\u00e9',
      'Cafe\u0301',
      'at code point 4, the manifest has U+00E9 where the live name has U+0065 U+0301',
    ],
    [
      'a trailing space',
      'Team calls',
      'Team calls ',
      'at code point 11, the manifest has nothing where the live name has U+0020',
    ],
    [
      'a zero-width character',
      'Team calls',
      'Team\u200b calls',
      'at code point 5, the manifest has nothing where the live name has U+200B',
    ],
    ['case', 'Team calls', 'team calls', 'at code point 1, the manifest has U+0054 where the live name has U+0074'],
  ])('%s: warns, shows the code points and suggests viewId', (_what, manifestName, liveName, difference) => {
    const plan = prunePlan(manifestName, liveName);
    expect(plan.changes.map((change) => change.action)).toEqual(['create', 'delete']);
    const [warning] = plan.warnings;
    expect(warning?.code).toBe('plan.look-alike-names');
    expect(warning?.message).toContain(
      `look-alike names: the plan creates RecordingView "${manifestName}" (views/team.yaml:2) and deletes "${liveName}" (rv_9)`,
    );
    expect(warning?.message).toContain(difference);
    expect(warning?.message).toContain('bind the manifest with `viewId: rv_9` so the plan renames it');
    expect(renderText(plan, { color: false })).toContain(`warning: look-alike names: the plan creates RecordingView`);
    expect(renderMarkdown(plan, { color: false })).toContain(`> ⚠️ look-alike names: the plan creates RecordingView`);
    expect((JSON.parse(renderJson(plan)) as { warnings: unknown[] }).warnings).toEqual([warning]);
  });

  it('shows invisible characters visibly in text, and stays quiet for different names', () => {
    expect(renderText(prunePlan('Team calls', 'Team\u200b calls'), { color: false })).toContain(
      'deletes "Team\\u{200b} calls" (rv_9)',
    );
    expect(prunePlan('Team calls', 'Team talks').warnings).toEqual([]);
    expect(lookAlikeKey(' \u200bCAFE\u0301\u00a0')).toBe('caf\u00e9');
  });

  it('compares a create only with the deletes of its own domain', () => {
    const create = {
      action: 'create',
      domain: 'recordings',
      name: 'Team calls',
      after: { name: 'Team calls' },
    } as unknown as Change;
    const remove = (domain: string) =>
      ({ action: 'delete', domain, id: 'x_9', name: 'team calls' }) as unknown as Change;
    expect(lookAlikeWarnings([create, remove('deals')])).toEqual([]);
    expect(lookAlikeWarnings([create, remove('recordings')])).toHaveLength(1);
  });
});
