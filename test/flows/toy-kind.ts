import type { JsonObject } from '../../src/domain/api-types.js';
import { ServiceError } from '../../src/errors.js';
import type { KindDocument, Manifests, Repairs, SavedPlanChecks, Targets } from '../../src/kinds/capabilities.js';
import type { ChangeShape } from '../../src/kinds/changes.js';
import type { ExecutionContext } from '../../src/kinds/execution.js';
import { stepOf, type Kind, type SavedPlan, type VerifyContext } from '../../src/kinds/kind.js';
import type { ServiceClient, ServiceRequest } from '../../src/service/types.js';
import type { SourcePosition } from '../../src/domain/source-position.js';
import type { LiveRead } from '../../src/state/live-read.js';
import type { Desired, Live } from '../../src/state/types.js';

/**
 * A toy resource kind, written here and nowhere in src/: the workspace's notes, each a
 * title, which `Notes` documents list. It shows what a new kind answers (README,
 * "Adding a kind"), as data: its manifest kind and schema and its slice of the desired
 * state (`Manifests`), what it reads (`GET /v1/notes`, stored as `live.notes`), how
 * desired and live differ (a note to add, one to drop), its actions and their traits
 * (adding is counted as a create, dropping as a delete, which `--max-deletes` counts),
 * the step that carries each change out, the stale hash, the verification, the
 * saved-plan checks and rule re-check, what self-heal may repair, and how `--target
 * Note/TITLE` names one note (`Targets`). It implements no drift labels, memory
 * answers, presentation or export: the defaults stand for them. The engine, the
 * loader and the renderers run it through every flow.
 */

/** Note is one note as the service holds it. */
export interface Note {
  id: string;
  title: string;
}

/** NoteChange adds a note the manifests list, or drops one they do not. */
export interface NoteChange extends ChangeShape {
  action: 'add-note' | 'drop-note';
  kind: 'Note';
  id?: string;
  before: Note | null;
  after: { title: string } | null;
}

/** WantedNote is one title a `Notes` document lists, and where. */
export interface WantedNote {
  title: string;
  source: SourcePosition;
}

const NOTES_READ: LiveRead = { request: { method: 'GET', route: '/v1/notes' }, into: 'notes' };

const notesOf = (live: Partial<Live>): Note[] => (live.notes as Note[] | undefined) ?? [];
const noteTarget = (title: string): string => `note:${title}`;
/** wantedNotes is the kind's slice of the desired state: absent when no `Notes` document is loaded. */
const wantedNotes = (desired: Desired): WantedNote[] | undefined => desired.slices?.notes as WantedNote[] | undefined;
/** onlyNotes are the titles a `--target Note/TITLE` plan selected: the only notes it may add or drop; absent, all. */
const onlyNotes = (desired: Desired): string[] | undefined => desired.slices?.onlyNotes as string[] | undefined;

/** NOTES_SCHEMA is the JSON Schema of a `Notes` document: a list of titles. */
const NOTES_SCHEMA: JsonObject = {
  type: 'object',
  required: ['kind', 'notes'],
  additionalProperties: false,
  properties: {
    kind: { const: 'Notes' },
    notes: { type: 'array', items: { type: 'string', minLength: 1 }, uniqueItems: true },
  },
};

const noteSchema = (action: NoteChange['action']): JsonObject => ({
  type: 'object',
  required: ['before', 'after'],
  additionalProperties: false,
  properties: {
    action: { const: action },
    target: true,
    name: true,
    source: true,
    origin: true,
    kind: { const: 'Note' },
    id: { type: 'string' },
    before:
      action === 'add-note'
        ? { type: 'null' }
        : {
            type: 'object',
            required: ['id', 'title'],
            properties: { id: { type: 'string' }, title: { type: 'string' } },
          },
    after:
      action === 'add-note'
        ? { type: 'object', required: ['title'], properties: { title: { type: 'string' } } }
        : { type: 'null' },
  },
});

/**
 * NOTES is the toy kind: notes added before any view is updated (phase 15), dropped
 * after everything else (phase 50).
 */
export const NOTES: Kind<NoteChange> & Manifests & SavedPlanChecks<NoteChange> & Repairs<NoteChange> & Targets = {
  manifests: [{ kind: 'Notes', schema: NOTES_SCHEMA }],
  slice: 'notes',
  desired: (documents: readonly KindDocument[]): WantedNote[] =>
    documents.flatMap((document) =>
      (document.body.notes as string[]).map((title, index) => ({
        title,
        source: document.positionOf(`/notes/${index}`),
      })),
    ),
  actions: [
    { action: 'add-note', schema: noteSchema('add-note'), phase: 15, verb: 'add', countedAs: 'created' },
    {
      action: 'drop-note',
      schema: noteSchema('drop-note'),
      phase: 50,
      verb: 'drop',
      countedAs: 'deleted',
      destructive: true,
    },
  ],
  targetKind: 'Note',
  targetNames: (desired) => (wantedNotes(desired) ?? []).map((note) => note.title),
  // A plan of some notes adds those and drops none of the others, as a --target plan prunes no view.
  selectedSlices: (desired, names) => ({
    notes: (wantedNotes(desired) ?? []).filter((note) => names.has(note.title)),
    onlyNotes: [...names],
  }),
  planReads: (desired) => (wantedNotes(desired) === undefined ? [] : [NOTES_READ]),
  diff(desired, live) {
    const wanted = wantedNotes(desired);
    if (wanted === undefined) return { changes: [], reasons: [], warnings: [] };
    const held = notesOf(live);
    const adds = wanted
      .filter(({ title }) => !held.some((note) => note.title === title))
      .map(
        ({ title, source }): NoteChange => ({
          action: 'add-note',
          target: noteTarget(title),
          kind: 'Note',
          name: title,
          source,
          before: null,
          after: { title },
        }),
      );
    const only = onlyNotes(desired);
    const drops = held
      .filter((note) => !wanted.some(({ title }) => title === note.title))
      .filter((note) => only === undefined || only.includes(note.title))
      .map(
        (note): NoteChange => ({
          action: 'drop-note',
          target: noteTarget(note.title),
          kind: 'Note',
          name: note.title,
          id: note.id,
          before: note,
          after: null,
        }),
      );
    return { changes: [...adds, ...drops], reasons: [], warnings: [] };
  },
  reads: () => ({ reads: [NOTES_READ] }),
  steps: (change, index) => [
    stepOf(
      index,
      change.action === 'add-note'
        ? { method: 'POST', route: '/v1/notes', body: { title: change.name } }
        : { method: 'DELETE', route: '/v1/notes/{noteId}', params: { noteId: change.id ?? '' } },
    ),
  ],
  hashed(target, live) {
    if (!target.startsWith('note:')) return undefined;
    return { notes: notesOf(live).filter((note) => noteTarget(note.title) === target) };
  },
  async execute(change, { client, request, signal }: ExecutionContext) {
    const answered = await client.request<Note | undefined>(request, { signal });
    return { viewId: answered?.id ?? change.id };
  },
  verifyReads: () => [NOTES_READ],
  verify(change, _landed, { readBack }: VerifyContext) {
    const there = notesOf(readBack).some((note) => note.title === change.name);
    if (change.action === 'add-note') return there ? undefined : 'the note is not there after apply';
    return there ? 'the note is still there after apply' : undefined;
  },
  // Already applied when verification would accept the notes as they are.
  alreadyLive(change, live) {
    return NOTES.verify(change, {}, { readBack: live, createdIds: new Map() }) === undefined
      ? change.id === undefined
        ? {}
        : { viewId: change.id }
      : undefined;
  },
  target: (change) => noteTarget(change.name),
  identityProblems: (change) =>
    change.name === (change.after?.title ?? change.before?.title) ? [] : ['its name is not its title'],
  recheck(plan: SavedPlan, live: Live) {
    const changes = plan.changes as readonly ChangeShape[] as readonly NoteChange[];
    return changes.flatMap((change, index) =>
      change.action === 'drop-note' && !notesOf(live).some((note) => note.id === change.id)
        ? [{ index, problem: 'the note to drop is gone' }]
        : [],
    );
  },
  // Self-heal adds a note back, never drops one: the toy decides, as a built-in kind does.
  repair: (change) =>
    change.action === 'add-note'
      ? { repairable: true, noun: { one: 'note added', many: 'notes added' } }
      : { repairable: false, noun: { one: 'note dropped', many: 'notes dropped' } },
};

/**
 * notesService serves `/v1/notes` in memory in front of another service (`views`), as
 * the service would if it had notes; `notes()` is what it holds now.
 */
export function notesService(views: ServiceClient, initial: Note[]): { client: ServiceClient; notes(): Note[] } {
  let notes = [...initial];
  let next = initial.length + 1;
  let requests = 0;
  const client: ServiceClient = {
    async request<T>(request: ServiceRequest, options?: { signal?: AbortSignal }): Promise<T> {
      if (!request.route.startsWith('/v1/notes')) return views.request<T>(request, options);
      requests += 1;
      if (request.method === 'GET') return structuredClone(notes) as T;
      if (request.method === 'POST') {
        const note = { id: `note_${next}`, title: String((request.body as { title: string }).title) };
        next += 1;
        notes = [...notes, note];
        return note as T;
      }
      const id = request.params?.noteId;
      if (!notes.some((note) => note.id === id))
        throw new ServiceError('service.not-found', `no note ${String(id)}`, {
          endpoint: `${request.method} ${request.route}`,
          status: 404,
        });
      notes = notes.filter((note) => note.id !== id);
      return undefined as T;
    },
    stats: () => ({ ...views.stats(), requests: views.stats().requests + requests }),
  };
  return { client, notes: () => notes };
}
