import type { JsonObject } from '../../src/domain/api-types.js';
import type { ResourceKind } from '../../src/domain/domains.js';
import { ServiceError } from '../../src/errors.js';
import type { DriftLabels, Presentation, Repairs, SavedPlanChecks } from '../../src/kinds/capabilities.js';
import type { ExecutionContext } from '../../src/kinds/execution.js';
import { stepOf, type Kind, type SavedPlan, type VerifyContext } from '../../src/kinds/kind.js';
import type { ServiceClient, ServiceRequest } from '../../src/service/types.js';
import type { LiveRead } from '../../src/state/live-read.js';
import type { Desired, Live } from '../../src/state/types.js';

/**
 * A toy resource kind, written here and nowhere in src/: the workspace's notes, each a
 * title, which the manifests list (`desired.notes`). It shows what a new kind answers
 * (README, "Adding a kind"), as data: what it reads (`GET /v1/notes`, stored as
 * `live.notes`), how desired and live differ (a note to add, one to drop), the step
 * that carries each change out, the stale hash, the verification, the saved-plan rule
 * re-check and the "changed outside" comparison. The engine runs it through every flow.
 */

/** Note is one note as the service holds it. */
export interface Note {
  id: string;
  title: string;
}

/** NoteChange adds a note the manifests list, or drops one they do not. */
export interface NoteChange {
  action: 'add-note' | 'drop-note';
  target: string;
  kind: 'Note';
  name: string;
  id?: string;
  before: Note | null;
  after: { title: string } | null;
}

/** NotesDesired is the desired state with the notes the manifests list. */
export type NotesDesired = Desired & { notes?: string[] };

const NOTES_READ: LiveRead = { request: { method: 'GET', route: '/v1/notes' }, into: 'notes' };

const notesOf = (live: Partial<Live>): Note[] => (live.notes as Note[] | undefined) ?? [];
const noteTarget = (title: string): string => `note:${title}`;

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
 * after everything else (phase 50). A kind in src/ adds its change to the `Change`
 * union; a test cannot, so the shape is checked against `Kind` and each answer types
 * its change by hand.
 */
export const NOTES: Kind<any> & SavedPlanChecks<any> & DriftLabels<any> & Repairs<any> & Presentation<any> = {
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
  planReads: (desired: Desired) => ((desired as NotesDesired).notes === undefined ? [] : [NOTES_READ]),
  wantsUsers: () => false,
  diff(desired: Desired, live: Live) {
    const wanted = (desired as NotesDesired).notes;
    if (wanted === undefined) return { changes: [], reasons: [], warnings: [] };
    const held = notesOf(live);
    const adds = wanted
      .filter((title) => !held.some((note) => note.title === title))
      .map(
        (title): NoteChange => ({
          action: 'add-note',
          target: noteTarget(title),
          kind: 'Note',
          name: title,
          before: null,
          after: { title },
        }),
      );
    const drops = held
      .filter((note) => !wanted.includes(note.title))
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
  sortKey: (change: NoteChange) => change.id ?? '',
  creates: () => undefined,
  reads: () => ({ reads: [NOTES_READ] }),
  steps: (change: NoteChange, index: number) => [
    stepOf(
      index,
      change.action === 'add-note'
        ? { method: 'POST', route: '/v1/notes', body: { title: change.name } }
        : { method: 'DELETE', route: '/v1/notes/{noteId}', params: { noteId: change.id ?? '' } },
    ),
  ],
  hashed(target: string, live: Live) {
    if (!target.startsWith('note:')) return undefined;
    return { notes: notesOf(live).filter((note) => noteTarget(note.title) === target) };
  },
  subject: (change: NoteChange) => ({ name: change.name, ...(change.id === undefined ? {} : { id: change.id }) }),
  async execute(change: NoteChange, { client, request, signal }: ExecutionContext) {
    const answered = await client.request<Note | undefined>(request, { signal });
    return { viewId: answered?.id ?? change.id };
  },
  verifyReads: () => [NOTES_READ],
  verify(change: NoteChange, _landed: unknown, { readBack }: VerifyContext) {
    const there = notesOf(readBack).some((note) => note.title === change.name);
    if (change.action === 'add-note') return there ? undefined : 'the note is not there after apply';
    return there ? 'the note is still there after apply' : undefined;
  },
  // Already applied when verification would accept the notes as they are.
  landed(change: NoteChange, live: Live) {
    return NOTES.verify(change, {}, { readBack: live, createdIds: new Map() }) === undefined
      ? change.id === undefined
        ? {}
        : { viewId: change.id }
      : undefined;
  },
  target: (change: NoteChange) => noteTarget(change.name),
  identityProblems: (change: NoteChange) =>
    change.name === (change.after?.title ?? change.before?.title) ? [] : ['its name is not its title'],
  recheck(plan: SavedPlan, live: Live) {
    const changes = plan.changes as readonly unknown[] as readonly NoteChange[];
    return changes.flatMap((change, index) =>
      change.action === 'drop-note' && !notesOf(live).some((note) => note.id === change.id)
        ? [{ index, problem: 'the note to drop is gone' }]
        : [],
    );
  },
  askedAlike: () => ({ test: () => false }),
  describe: (change: NoteChange) => `note "${change.name}"`,
  // Self-heal adds a note back, never drops one: the toy decides, as a built-in kind does.
  driftCause: () => 'edited',
  repair: (change: NoteChange) =>
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

/** noteKind is the `kind` the toy's changes carry, as the plan types it. */
export const NOTE_KIND = 'Note' as ResourceKind;
