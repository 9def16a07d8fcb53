import { LineCounter, parseDocument } from 'yaml';
import { FORGET_AFTER_DAYS } from './memory-observe.js';
import type { SweepMemory } from './sweep-memory.js';

/**
 * The sweep memory's dates are input, checked as such (README, "The sweep memory"). A
 * date that names no instant (`2026-13-45T99:99:99Z`, a 30th of February) makes the
 * file `ledger.invalid`: it would sort after every real date and shadow each fresh
 * read. A real date after the run's clock (a runner whose clock is ahead, a hand edit,
 * `9999-12-31T23:59:59Z`) cannot be told from a forgery, and trusted it would put a
 * list's next read off for ever: beyond `FUTURE_TOLERANCE_MS` its entry is unknown (the
 * list is due, as one never read), within it the date is clamped to the run's clock.
 */

/** FUTURE_TOLERANCE_MS is the clock skew between runners tolerated (and clamped): five minutes. */
export const FUTURE_TOLERANCE_MS = 5 * 60 * 1000;

const DAY_MS = 24 * 60 * 60 * 1000;

/** MemoryDate is one date of a memory: its JSON path (the keys from the top) and its text. */
export interface MemoryDate {
  path: string[];
  value: string;
}

/** memoryDates lists every date a memory holds, in the file's order of parts. */
export function memoryDates(memory: SweepMemory): MemoryDate[] {
  const dates: MemoryDate[] = [];
  for (const [key, list] of Object.entries(memory.lists))
    dates.push({ path: ['lists', key, 'lastRead'], value: list.lastRead });
  for (const [key, view] of Object.entries(memory.views))
    dates.push({ path: ['views', key, 'lastSeen'], value: view.lastSeen });
  for (const [key, member] of Object.entries(memory.members)) {
    dates.push({ path: ['members', key, 'lastSeen'], value: member.lastSeen });
    if (member.since !== undefined) dates.push({ path: ['members', key, 'since'], value: member.since });
  }
  if (memory.lastApplied !== undefined) dates.push({ path: ['lastApplied', 'at'], value: memory.lastApplied.at });
  return dates;
}

/**
 * isRealTime tells whether `value` (already in the schema's `YYYY-MM-DDTHH:MM:SS[.fff]Z`
 * form) names the instant it spells: the parsed instant, written back, gives the same
 * date and time (a 30th of February would come back as a 2nd of March).
 */
export function isRealTime(value: string): boolean {
  const time = Date.parse(value);
  return !Number.isNaN(time) && new Date(time).toISOString().slice(0, 19) === value.slice(0, 19);
}

/**
 * unrealDateProblems says each date of `memory` that names no instant, as `JSON-PATH:
 * what, at FILE:LINE:COLUMN` (the position found in `text`, the file as read).
 */
export function unrealDateProblems(memory: SweepMemory, text: string, file: string): string[] {
  const unreal = memoryDates(memory).filter((date) => !isRealTime(date.value));
  if (unreal.length === 0) return [];
  const where = positionsIn(text);
  return unreal.map((date) => {
    const at = where(date.path);
    return `${pointer(date.path)}: ${JSON.stringify(date.value)} is not a real date and time${at === undefined ? '' : `, at ${file}:${at}`}`;
  });
}

/** FutureDates is a memory with its future dates made unknown (`distrustFuture`), and those dates. */
export interface FutureDates {
  memory: SweepMemory;
  /** The dates beyond the tolerance, made unknown: their JSON paths and values. */
  future: MemoryDate[];
}

/**
 * distrustFuture is `memory` as a run whose clock says `now` (milliseconds) may use it:
 * an entry dated after now + `FUTURE_TOLERANCE_MS` is unknown (a list, a view, a member
 * dropped: the list is due, the view and the member as never seen; a member's `since`
 * alone is dropped, as in memories that predate it; the last applied commit, a fact the
 * repository checks, keeps its commit and takes now as its time); a date within the
 * tolerance is clamped to now.
 */
export function distrustFuture(memory: SweepMemory, now: number): FutureDates {
  const future: MemoryDate[] = [];
  const clampedNow = new Date(now).toISOString();
  const judge = (path: string[], value: string): string | undefined => {
    const time = Date.parse(value);
    if (!(time > now)) return value;
    if (time <= now + FUTURE_TOLERANCE_MS) return clampedNow;
    future.push({ path, value });
    return undefined;
  };
  const lists = keep(memory.lists, (key, list) => {
    const lastRead = judge(['lists', key, 'lastRead'], list.lastRead);
    return lastRead === undefined ? undefined : { ...list, lastRead };
  });
  const views = keep(memory.views, (key, view) => {
    const lastSeen = judge(['views', key, 'lastSeen'], view.lastSeen);
    return lastSeen === undefined ? undefined : { ...view, lastSeen };
  });
  const members = keep(memory.members, (key, member) => {
    const lastSeen = judge(['members', key, 'lastSeen'], member.lastSeen);
    if (lastSeen === undefined) return undefined;
    const { since: before, ...rest } = member;
    const since = before === undefined ? undefined : judge(['members', key, 'since'], before);
    return { ...rest, lastSeen, ...(since === undefined ? {} : { since }) };
  });
  const applied = memory.lastApplied;
  const at = applied === undefined ? undefined : judge(['lastApplied', 'at'], applied.at);
  return {
    memory: {
      ...memory,
      lists,
      views,
      members,
      ...(applied === undefined ? {} : { lastApplied: { ...applied, at: at ?? clampedNow } }),
    },
    future,
  };
}

/**
 * futureGivesWay is `held` (what the store holds at write time) without the entries
 * dated after now + `FUTURE_TOLERANCE_MS` that `known` (what this run knows) also has:
 * such a date must never win the merge over this run's (it would shadow a fresh read
 * for as long as it is ahead). An entry only the store has is kept as it is (another
 * runner saw it, and every run that loads it distrusts its date, `distrustFuture`),
 * unless it is dated more than `FORGET_AFTER_DAYS` ahead: no runner's clock is that
 * far off, so it is forgotten as an entry that old would be, instead of being warned
 * about on every run while nothing reads its list again (a member who left).
 */
export function futureGivesWay(held: SweepMemory, known: SweepMemory, now: number): SweepMemory {
  const ahead = (value: string | undefined): boolean =>
    value !== undefined && Date.parse(value) > now + FUTURE_TOLERANCE_MS;
  const beyond = (value: string | undefined): boolean =>
    value !== undefined && Date.parse(value) > now + FORGET_AFTER_DAYS * DAY_MS;
  const yielding = <T>(
    record: Record<string, T>,
    mine: Record<string, T>,
    dates: (entry: T) => (string | undefined)[],
  ) =>
    Object.fromEntries(
      Object.entries(record).filter(
        ([key, entry]) => !dates(entry).some(beyond) && !(Object.hasOwn(mine, key) && dates(entry).some(ahead)),
      ),
    );
  const { lastApplied, ...rest } = held;
  const keepApplied = lastApplied !== undefined && !(known.lastApplied !== undefined && ahead(lastApplied.at));
  return {
    ...rest,
    lists: yielding(held.lists, known.lists, (list) => [list.lastRead]),
    views: yielding(held.views, known.views, (view) => [view.lastSeen]),
    members: yielding(held.members, known.members, (member) => [member.lastSeen, member.since]),
    ...(keepApplied ? { lastApplied } : {}),
  };
}

/** MemoryWarning is a warning about the memory: its stable code and what it says. */
export interface MemoryWarning {
  code: string;
  message: string;
}

/** futureWarning is the warning about `future` dates a memory held (none: undefined). */
export function futureWarning(future: readonly MemoryDate[], file: string, now: number): MemoryWarning | undefined {
  if (future.length === 0) return undefined;
  const latest = [...future].sort((a, b) => Date.parse(b.value) - Date.parse(a.value))[0] as MemoryDate;
  const count = future.length === 1 ? 'a date' : `${future.length} dates`;
  const lists = future.filter((date) => date.path[0] === 'lists').length;
  const due = lists === 0 ? '' : `; ${lists === 1 ? 'its list is' : `${lists} lists are`} due, as if never read`;
  return {
    code: 'ledger.future-date',
    message: `--ledger ${file} holds ${count} after this run's clock (${new Date(now).toISOString()}), such as ${pointer(latest.path)} ${latest.value} (a runner whose clock is ahead, or an edit): not trusted, those entries are unknown${due}`,
  };
}

function keep<T>(record: Record<string, T>, judge: (key: string, entry: T) => T | undefined): Record<string, T> {
  const kept: Record<string, T> = {};
  for (const [key, entry] of Object.entries(record)) {
    const judged = judge(key, entry);
    if (judged !== undefined) kept[key] = judged;
  }
  return kept;
}

/** pointer is a JSON pointer (RFC 6901) to `path`, as the schema's problems name places. */
function pointer(path: readonly string[]): string {
  return path.map((key) => `/${key.replaceAll('~', '~0').replaceAll('/', '~1')}`).join('');
}

/**
 * positionsIn answers `LINE:COLUMN` of the value at a JSON path of `text` (JSON is YAML
 * 1.2, so the manifests' parser gives positions), or undefined where it cannot tell.
 */
function positionsIn(text: string): (path: readonly string[]) => string | undefined {
  const lineCounter = new LineCounter();
  const document = parseDocument(text, { lineCounter, uniqueKeys: false });
  return (path) => {
    const node = document.getIn(path, true) as { range?: [number, number, number] } | undefined;
    if (node?.range === undefined) return undefined;
    const { line, col } = lineCounter.linePos(node.range[0]);
    return `${line}:${col}`;
  };
}
