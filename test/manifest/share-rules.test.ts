import { describe, expect, it } from 'vitest';
import { loadManifests } from '../../src/manifest/load.js';
import { memoryManifestSource } from '../../src/manifest/source.js';

/** The manifest rules of appOwns, mode and unpin, each at its file:line:column. */

async function problemsOf(text: string) {
  const result = await loadManifests(['.'], memoryManifestSource({ 'm.yaml': text }));
  return result.problems.map(
    (problem) =>
      `${problem.line}:${problem.column} ${problem.code} ${problem.message}${problem.hint?.startsWith('did you mean') === true ? `; ${problem.hint}` : ''}`,
  );
}

describe('appOwns, mode and unpin in the manifests', () => {
  it('an unknown appOwns attribute or mode is an error with "did you mean"; name is never app-owned', async () => {
    expect(await problemsOf('kind: RecordingView\nname: A\nappOwns: [colums, name]\n')).toEqual([
      '3:11 schema.enum "appOwns" entry 0 is "colums"; expected one of columns, filters, sort, icon; did you mean "columns"?',
      expect.stringMatching(
        /^3:19 schema\.enum "appOwns" entry 1 is "name"; expected one of columns, filters, sort, icon/,
      ),
    ]);
    expect(await problemsOf('kind: Workspace\nappOwns: [sorts]\n')).toEqual([
      '2:11 schema.enum "appOwns" entry 0 is "sorts"; expected one of columns, filters, sort, icon; did you mean "sort"?',
    ]);
    expect(await problemsOf('kind: PinnedViews\nuserEmail: a@acme.com\nmode: inclusive\nrecordings: [A]\n')).toEqual([
      '3:7 schema.enum "mode" is "inclusive"; expected one of exact, include; did you mean "include"?',
    ]);
  });

  it('unpin needs include, unpinPrivate needs exact, and no name is both listed and unpinned', async () => {
    expect(
      await problemsOf(
        'kind: PinnedViews\nuserEmail: a@acme.com\nrecordings: [A, B]\nunpin: [B]\n---\nkind: PinnedViews\nuserEmail: b@acme.com\nmode: include\nunpinPrivate: true\nrecordings: [A]\n',
      ),
    ).toEqual([
      '3:17 pins.listed-and-unpinned "B" is both listed and in `unpin`: the tab cannot be pinned and removed',
      '4:8 pins.unpin-needs-include `unpin` removes tabs from lists the member otherwise keeps: it needs `mode: include`',
      '9:15 pins.unpin-private-needs-exact with `mode: include` the member keeps the tabs the document does not list: `unpinPrivate` has nothing to drop',
    ]);
  });
});
