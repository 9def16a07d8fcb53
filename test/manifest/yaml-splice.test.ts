import { parseAllDocuments } from 'yaml';
import { describe, expect, it } from 'vitest';
import { spliceDocument, SpliceError, type Splice, type ValueEdit } from '../../src/manifest/yaml-splice.js';

/**
 * unchangedOutside checks, byte by byte, that `next` is `old` with only the spliced
 * ranges replaced: every byte before, between and after them is the old one, at its
 * shifted place. The replacements' own bytes are the only difference.
 */
function unchangedOutside(old: string, next: string, splices: readonly Splice[]): void {
  const before = Buffer.from(old);
  let shift = 0;
  let at = 0;
  for (const splice of splices) {
    expect(next.slice(at + shift, splice.start + shift)).toBe(old.slice(at, splice.start));
    shift += splice.text.length - (splice.end - splice.start);
    at = splice.end;
  }
  expect(next.slice(at + shift)).toBe(old.slice(at));
  // And in bytes: the UTF-8 of the text before the first splice is the old file's own.
  const head = old.slice(0, splices[0]?.start ?? old.length);
  expect(Buffer.from(next).subarray(0, Buffer.byteLength(head))).toEqual(before.subarray(0, Buffer.byteLength(head)));
}

/** splice runs one document's edits and checks what it must always hold: bytes outside kept, and the values read back. */
function splice(text: string, edits: ValueEdit[], index = 0): { text: string; splices: Splice[] } {
  const result = spliceDocument(text, index, edits);
  unchangedOutside(text, result.text, result.splices);
  const documents = parseAllDocuments(result.text);
  const document = Array.isArray(documents) ? documents[index] : undefined;
  expect(document?.errors ?? ['missing']).toEqual([]);
  for (const edit of edits) expect(valueAt(document?.toJS(), edit.path)).toEqual(edit.value);
  return result;
}

function valueAt(value: unknown, path: readonly (string | number)[]): unknown {
  return path.reduce<unknown>((node, step) => (node as Record<string | number, unknown> | undefined)?.[step], value);
}

describe('splicing a new value into a manifest in place', () => {
  it('replaces a plain scalar and keeps the comment beside it and every other byte', () => {
    const text = 'kind: RecordingView\nname: Customer calls   # renamed in review #42\nviewId: rv_1\nicon: telephone\n';
    const { text: next, splices } = splice(text, [{ path: ['name'], value: 'Team calls' }]);
    expect(next).toBe(
      'kind: RecordingView\nname: Team calls   # renamed in review #42\nviewId: rv_1\nicon: telephone\n',
    );
    expect(splices).toEqual([{ start: 26, end: 40, text: 'Team calls' }]);
  });

  it('keeps single and double quotes, and quotes a plain scalar only when the new value needs it', () => {
    const text = 'name: \'Calls\'\nviewId: "rv_1"\nicon: phone\n';
    expect(
      splice(text, [
        { path: ['name'], value: "Ana's calls" },
        { path: ['viewId'], value: 'rv_2' },
        { path: ['icon'], value: 'true' },
      ]).text,
    ).toBe('name: \'Ana\'\'s calls\'\nviewId: "rv_2"\nicon: "true"\n');
    expect(splice('name: Calls\n', [{ path: ['name'], value: 'Calls: # all' }]).text).toBe('name: "Calls: # all"\n');
    expect(splice('icon: phone\n', [{ path: ['icon'], value: null }]).text).toBe('icon: null\n');
  });

  it('writes a block scalar as one double-quoted line', () => {
    expect(splice('name: |\n  Calls\nicon: x\n', [{ path: ['name'], value: 'Team\ncalls' }]).text).toBe(
      'name: "Team\\ncalls"\nicon: x\n',
    );
  });

  it('splices only the members of a flow sequence that changed, and quotes inside flow where plain would break it', () => {
    const text = 'filters:\n  sourceIn: [Call, Zoom]  # phone only\n  createdAfterRelative: 30\n';
    expect(
      splice(text, [{ path: ['filters'], value: { sourceIn: ['Call', 'Meet'], createdAfterRelative: 30 } }]).text,
    ).toBe('filters:\n  sourceIn: [Call, Meet]  # phone only\n  createdAfterRelative: 30\n');
    expect(splice('tabs: [a, b]\n', [{ path: ['tabs'], value: ['a', 'x, y'] }]).text).toBe('tabs: [a, "x, y"]\n');
  });

  it('replaces only the item of a block sequence that changed, keeping the comments beside the others', () => {
    const text =
      'columns:\n  - {type: Default, columnId: title}     # always first\n  - {type: Default,  columnId: owner}  # who\n  - {type: Default, columnId: date}      # when\n';
    expect(
      splice(text, [
        {
          path: ['columns'],
          value: [
            { type: 'Default', columnId: 'title' },
            { type: 'Default', columnId: 'owner' },
            { type: 'Default', columnId: 'createdAt' },
          ],
        },
      ]).text,
    ).toBe(
      'columns:\n  - {type: Default, columnId: title}     # always first\n  - {type: Default,  columnId: owner}  # who\n  - {type: Default, columnId: createdAt}      # when\n',
    );
  });

  it('rewrites a flow sequence of another length in flow style, on its line', () => {
    const text = 'recordings: [Customer calls, All recordings]   # team tabs\ndeals: [All deals]\n';
    expect(
      splice(text, [{ path: ['recordings'], value: ['All recordings', 'Customer calls', 'Deals at risk'] }]).text,
    ).toBe('recordings: [All recordings, Customer calls, Deals at risk]   # team tabs\ndeals: [All deals]\n');
  });

  it('edits a block sequence of another length line by line: shared items keep their lines and comments, new ones get a line at their place', () => {
    const text =
      "kind: PinnedViews\nrecordings:\n  # the team's order\n  - Customer calls\n  - {viewId: rv_9}  # private\ndeals:\n  - All deals\n";
    const { text: next } = splice(text, [
      { path: ['recordings'], value: ['All recordings', { viewId: 'rv_9' }, 'Customer calls'] },
    ]);
    // "Customer calls" moved: it loses its line and gets a new one; the private tab keeps its comment.
    expect(next).toBe(
      "kind: PinnedViews\nrecordings:\n  # the team's order\n  - All recordings\n  - {viewId: rv_9}  # private\n  - Customer calls\ndeals:\n  - All deals\n",
    );
    expect(splice('tabs:\n- A  # one\n- B  # two\n- C\n', [{ path: ['tabs'], value: ['A', 'C'] }]).text).toBe(
      'tabs:\n- A  # one\n- C\n',
    );
    expect(splice('tabs:\n  - A\nnext: 1\n', [{ path: ['tabs'], value: ['A', 'x, y', { viewId: 'v' }] }]).text).toBe(
      'tabs:\n  - A\n  - x, y\n  - {viewId: v}\nnext: 1\n',
    );
  });

  it('rewrites a block sequence that shares no item with the new one whole, in block style at its indentation', () => {
    expect(splice('tabs:\n  - A  # gone\n  - B\nnext: 1\n', [{ path: ['tabs'], value: ['C'] }]).text).toBe(
      'tabs:\n  - C\nnext: 1\n',
    );
  });

  it("keeps a block sequence at its parent's indentation, and writes an empty one as []", () => {
    expect(
      splice('sort:\n- {field: Date, order: Desc}\nicon: x\n', [
        {
          path: ['sort'],
          value: [
            { field: 'Date', order: 'Asc' },
            { field: 'Title', order: 'Asc' },
          ],
        },
      ]).text,
    ).toBe('sort:\n- {field: Date, order: Asc}\n- {field: Title, order: Asc}\nicon: x\n');
    expect(
      splice('columns:\n  - {type: Default, columnId: title}\nicon: x\n', [{ path: ['columns'], value: [] }]).text,
    ).toBe('columns:\n  []\nicon: x\n');
  });

  it('rewrites a block mapping whose keys changed in block style, keeping the comment above it', () => {
    const text = 'filters:   # what the team watches\n  sourceIn: [Call]\n  createdAfterRelative: 30\nsort: []\n';
    expect(splice(text, [{ path: ['filters'], value: { sourceIn: ['Call'], durationMin: 60 } }]).text).toBe(
      'filters:   # what the team watches\n  sourceIn: [Call]\n  durationMin: 60\nsort: []\n',
    );
  });

  it('adds and removes the entries of a block mapping line by line, keeping the comments beside the others', () => {
    const text =
      'filters:\n  # phone only\n  sourceIn: [Call]   # no video\n  createdAfterRelative: 30  # a month\n  title: {contains: demo}\nsort: []\n';
    const { text: next } = splice(text, [
      {
        path: ['filters'],
        value: {
          sourceIn: ['Call', 'Zoom'],
          title: { contains: 'demo' },
          durationMin: 60,
          insights: [{ type: 'boolean', fieldId: 'f' }],
        },
      },
    ]);
    expect(next).toBe(
      'filters:\n  # phone only\n  sourceIn: [Call, Zoom]   # no video\n  title: {contains: demo}\n  durationMin: 60\n  insights: [{type: boolean, fieldId: f}]\nsort: []\n',
    );
    expect(splice('filters:\n  a: 1\n  b: 2', [{ path: ['filters'], value: { a: 1, c: 'x: y' } }]).text).toBe(
      'filters:\n  a: 1\n  c: "x: y"',
    );
    expect(splice('filters:\n  a: 1\n  b: 2\nsort: []\n', [{ path: ['filters'], value: {} }]).text).toBe(
      'filters:\n  {}\nsort: []\n',
    );
    expect(splice('filters: {a: 1,  b: 2}  # flow\n', [{ path: ['filters'], value: { a: 1 } }]).text).toBe(
      'filters: {a: 1}  # flow\n',
    );
  });

  it('keeps CRLF line endings, in a replaced block too', () => {
    const text = 'kind: PinnedViews\r\nuserEmail: ana@acme.test\r\nrecordings:\r\n  - A\r\ndeals: [B]\r\n';
    const { text: next } = splice(text, [
      { path: ['recordings'], value: ['B', 'A'] },
      { path: ['deals'], value: ['C', 'B'] },
    ]);
    expect(next).toBe(
      'kind: PinnedViews\r\nuserEmail: ana@acme.test\r\nrecordings:\r\n  - B\r\n  - A\r\ndeals: [C, B]\r\n',
    );
  });

  it('edits the one document of a multi-document file it is asked to, by index', () => {
    const text =
      'kind: Workspace\nprune: false\n---\n# calls\nkind: RecordingView\nname: Calls\nicon: x\n---\nkind: RecordingView\nname: Calls\nicon: x\n';
    expect(splice(text, [{ path: ['icon'], value: 'y' }], 1).text).toBe(
      'kind: Workspace\nprune: false\n---\n# calls\nkind: RecordingView\nname: Calls\nicon: y\n---\nkind: RecordingView\nname: Calls\nicon: x\n',
    );
  });

  it('keeps a byte-order mark, and counts an empty document as the loader does', () => {
    const text = '\uFEFFkind: Workspace\n---\n# nothing here\n---\nkind: RecordingView\nname: Calls\n';
    expect(splice(text, [{ path: ['name'], value: 'Team calls' }], 2).text).toBe(
      '\uFEFFkind: Workspace\n---\n# nothing here\n---\nkind: RecordingView\nname: Team calls\n',
    );
  });

  it('keeps unicode around the splice, and writes unicode values as they are', () => {
    const text = 'name: Appels clients 📞  # équipe\nicon: téléphone\n';
    expect(splice(text, [{ path: ['name'], value: 'Appels équipe 📞' }]).text).toBe(
      'name: Appels équipe 📞  # équipe\nicon: téléphone\n',
    );
  });

  it('leaves a value that already means the new one as it is', () => {
    const text = 'filters: {sourceIn: [Zoom, Call]}\n';
    const result = spliceDocument(
      text,
      0,
      [{ path: ['filters'], value: { sourceIn: ['Call', 'Zoom'] } }],
      (_path, a, b) =>
        JSON.stringify(Array.isArray(a) ? [...a].sort() : a) === JSON.stringify(Array.isArray(b) ? [...b].sort() : b),
    );
    expect(result).toEqual({ text, splices: [], replaced: [] });
  });

  it('refuses, changing nothing, a value the document does not write, an alias or an anchor', () => {
    expect(() => spliceDocument('name: A\n', 0, [{ path: ['icon'], value: 'x' }])).toThrow(SpliceError);
    expect(() => spliceDocument('a: &x [A]\nrecordings: *x\n', 0, [{ path: ['recordings'], value: ['B'] }])).toThrow(
      /alias/,
    );
    expect(() => spliceDocument('a: &x [A]\nrecordings: *x\n', 0, [{ path: ['a'], value: ['B'] }])).toThrow(/anchor/);
  });
  it('writes a value over an empty one after a space, so that `name:` does not become the key `name:x`', () => {
    expect(splice('name:\nicon: x\n', [{ path: ['name'], value: 'Calls' }]).text).toBe('name: Calls\nicon: x\n');
    expect(splice('tabs:\n  -\n  - B\n', [{ path: ['tabs', 0], value: 'A' }]).text).toBe('tabs:\n  - A\n  - B\n');
  });

  it('adds an entry holding a multi-line string on one line of its own, double-quoted', () => {
    expect(splice('columns:\n  a: x\n', [{ path: ['columns'], value: { a: 'x', b: 'one\ntwo' } }]).text).toBe(
      'columns:\n  a: x\n  b: "one\\ntwo"\n',
    );
  });
  it('moves the lines of a re-ordered block sequence, so each comment stays beside its own item', () => {
    const text =
      'recordings:\n  - {viewId: rv_mine}  # my follow-ups\n  - Zoom calls\n  - Team calls  # new in May\nicon: x\n';
    expect(
      splice(text, [{ path: ['recordings'], value: ['Team calls', { viewId: 'rv_mine' }, 'Zoom calls'] }]).text,
    ).toBe(
      'recordings:\n  - Team calls  # new in May\n  - {viewId: rv_mine}  # my follow-ups\n  - Zoom calls\nicon: x\n',
    );
  });
  it('quotes a new text that YAML 1.1 tools read as a boolean (yes, No, on, off): viewctl reads it as text, yamllint and older parsers would not', () => {
    expect(splice('name: Calls\n', [{ path: ['name'], value: 'yes' }]).text).toBe('name: "yes"\n');
    expect(splice('tabs: [A]\n', [{ path: ['tabs'], value: ['No', 'on', 'y', 'Yes please'] }]).text).toBe(
      'tabs: ["No", "on", y, Yes please]\n',
    );
    expect(splice('tabs:\n  - A\n', [{ path: ['tabs'], value: ['OFF', 'B'] }]).text).toBe('tabs:\n  - "OFF"\n  - B\n');
  });
});
