import { describe, expect, it } from 'vitest';
import { computePlan } from '../../src/plan/diff.js';
import { renderMarkdown } from '../../src/render/markdown.js';
import { renderText } from '../../src/render/text.js';
import { mixedScenario, noChangeScenario } from '../plan/fixtures.js';

/** What a scoped plan says about the lists it left unread, and where it lists the changes made in the app. */

const base = { ref: 'origin/main', commit: 'abcdef1'.padEnd(40, '0') };

function scopedMixed(): ReturnType<typeof computePlan>['plan'] {
  const { desired, live } = mixedScenario();
  // The pull request's own change is Mia's list; the rest was changed in the app.
  return computePlan(desired, live, {
    scope: { base, lists: 40, unread: 39 },
    outside: (change) => change.action !== 'pin',
  }).plan;
}

describe('a scoped plan in text', () => {
  it('says what it read and why, and lists the changes made in the app apart, after the pull request\'s own', () => {
    const text = renderText(scopedMixed(), { color: false });
    expect(text).toContain('\nScope: read 1 of 40 pinned lists (--base origin/main (abcdef1): the others ask for what they asked then and name no view this plan creates, renames or deletes); the 39 unread lists were not checked for drift.\n');
    const [own = '', outside = ''] = text.split('Changed outside viewctl since origin/main: applying reverts them\n');
    expect(own).toMatch(/↻ pins {4}mia@acme\.com/);
    expect(own).not.toMatch(/\+ create|~ update|- delete|! drift/);
    expect(outside.split('\n\n')[0]).toMatch(/^ {2}\+ create .*\n {2}~ update .*\n {2}- delete .*\n {2}! drift /);
  });

  it('states a budget\'s slice, and the scope of a plan with nothing to do', () => {
    const { desired, live } = noChangeScenario();
    desired.workspace.ignore = [];
    live.views.deals = live.views.deals?.filter((view) => view.viewId !== 'dv_12');
    const plan = computePlan(desired, live, { scope: { budget: 400, lists: 4000, unread: 3605, slice: { index: 3, count: 11 } } }).plan;
    expect(renderText(plan, { color: false }).split('\n')[1]).toBe(
      'Scope: read 395 of 4,000 pinned lists, slice 3 of 11 (--budget 400: the slice rotates by UTC day, so 11 daily runs cover every list); the 3,605 unread lists were not checked for drift.',
    );
  });
});

describe('a scoped plan in markdown', () => {
  it('puts the changes made in the app in a table of their own under its heading', () => {
    const markdown = renderMarkdown(scopedMixed(), { color: false });
    expect(markdown).toContain('*Scope: read 1 of 40 pinned lists (--base origin/main (abcdef1)');
    const [own = '', outside = ''] = markdown.split('**Changed outside viewctl since origin/main: applying reverts them**');
    expect(own).toMatch(/\| 📌 \| Pins \| mia@acme\.com · recordings \|/);
    expect(own).not.toContain('| ➕ |');
    expect(outside).toMatch(/^\n\n\| \| kind \| name \| source \|\n\|---\|---\|---\|---\|\n\| ➕ \| RecordingView \| Team calls/);
    expect(outside).toContain('| 🗑️ | DealView | **Old pipeline**');
  });
});
