import { DOMAINS, VIEW_KINDS } from '../domain/domains.js';
import { GLOB_INVALID, globProblem } from '../text/glob.js';
import { makeProblem } from './problems.js';
import { pruneOwnedProblems } from './prune-rules.js';
import { pinModeProblems } from './pin-mode-rules.js';
import { formatPosition } from '../domain/source-position.js';
import type { ManifestDocument, Problem } from './types.js';
import { encodePointer } from './yaml-positions.js';
import { isGroupDocument, isMemberGlob } from './desired.js';
import { isJsonObject } from '../domain/api-types.js';

const VIEW_KIND_NAMES: readonly string[] = Object.values(VIEW_KINDS);

/**
 * semanticProblems checks rules that span attributes or documents, on documents that
 * already passed their schema: duplicate identities, duplicate pins, and filters
 * that cannot match what the author meant. (Dates that do not exist are the schema's:
 * `format: date` / `date-time` in full mode.)
 */
export function semanticProblems(documents: readonly ManifestDocument[]): Problem[] {
  const problems: Problem[] = [];
  const ofKind = (kind: string) => documents.filter((document) => document.kind === kind);
  problems.push(...singleton(ofKind('Workspace'), 'workspace.multiple', 'Workspace'));
  problems.push(...singleton(ofKind('AdminAutomations'), 'automations.multiple', 'AdminAutomations'));
  for (const workspace of ofKind('Workspace'))
    problems.push(...ignoreProblems(workspace), ...pruneOwnedProblems(workspace));
  for (const kind of VIEW_KIND_NAMES) {
    const views = ofKind(kind);
    problems.push(
      ...duplicates(
        unboundNames(views),
        'view.duplicate-name',
        (name) => `${kind} "${name}" is declared more than once`,
      ),
    );
    problems.push(
      ...duplicates(
        views.map((view) => identity(view, '/viewId')),
        'view.duplicate-id',
        (id) => `viewId "${id}" is bound by more than one ${kind}`,
      ),
    );
    for (const view of views) problems.push(...viewProblems(view));
  }
  problems.push(...pinProblems(ofKind('PinnedViews')));
  for (const automations of ofKind('AdminAutomations')) {
    const list = automations.body.automations;
    const entries = (Array.isArray(list) ? list : []).map((entry: unknown, index) => ({
      key: isJsonObject(entry) && typeof entry.name === 'string' ? entry.name : undefined,
      document: automations,
      pointer: encodePointer(['automations', index, 'name']),
    }));
    problems.push(
      ...duplicates(entries, 'automations.duplicate-name', (name) => `automation "${name}" is listed more than once`),
    );
  }
  return problems;
}

interface Occurrence {
  key: string | undefined;
  document: ManifestDocument;
  pointer: string;
}

/**
 * unboundNames gives the name occurrences that count as duplicates. The service does
 * not keep names unique, and `viewId` is the contract's way out of an ambiguous name:
 * documents sharing a name are fine when every one of them binds its own `viewId`
 * (distinct ids are checked by `view.duplicate-id`).
 */
function unboundNames(views: readonly ManifestDocument[]): Occurrence[] {
  const names = views.map((view) => identity(view, '/name'));
  const allBound = new Map<string, boolean>();
  names.forEach((occurrence, index) => {
    if (occurrence.key === undefined) return;
    const bound = typeof views[index]?.body.viewId === 'string';
    allBound.set(occurrence.key, (allBound.get(occurrence.key) ?? true) && bound);
  });
  return names.filter((occurrence) => occurrence.key !== undefined && allBound.get(occurrence.key) !== true);
}

function identity(document: ManifestDocument, pointer: string): Occurrence {
  const value = document.body[pointer.slice(1)];
  return { key: typeof value === 'string' ? value : undefined, document, pointer };
}

/** OTHER_PLACES_SHOWN bounds the "also at" list, so a key repeated thousands of times stays readable and linear. */
const OTHER_PLACES_SHOWN = 3;

/** duplicates reports every occurrence of a repeated key, each naming (a few of) the other places. */
function duplicates(occurrences: readonly Occurrence[], code: string, describe: (key: string) => string): Problem[] {
  const groups = new Map<string, Occurrence[]>();
  for (const occurrence of occurrences) {
    if (occurrence.key === undefined) continue;
    const group = groups.get(occurrence.key);
    if (group === undefined) groups.set(occurrence.key, [occurrence]);
    else group.push(occurrence);
  }
  const problems: Problem[] = [];
  for (const [key, group] of groups) {
    if (group.length < 2) continue;
    const positions = group.map((occurrence) => occurrence.document.positionOf(occurrence.pointer));
    group.forEach((occurrence, index) => {
      // The first places but this one, picked from the first few so that each occurrence costs the same.
      const first = positions.slice(0, OTHER_PLACES_SHOWN + 1);
      const others = first
        .filter((_, other) => other !== index)
        .slice(0, OTHER_PLACES_SHOWN)
        .map(formatPosition);
      const more = positions.length - 1 - others.length;
      problems.push(
        makeProblem({
          code,
          message: `${describe(key)}: also at ${others.join(', ')}${more > 0 ? ` and ${more} more ${more === 1 ? 'place' : 'places'}` : ''}`,
          at: positions[index] ?? occurrence.document.position,
          pointer: occurrence.pointer,
          document: occurrence.document.index,
        }),
      );
    });
  }
  return problems;
}

/** GLOB_HINT says how a glob is written, for one that cannot be compiled. */
const GLOB_HINT = 'use * for any run of characters, ? for one, and \\ before a character to match it literally';

/** ignoreProblems reports each `ignore` glob that cannot be compiled, at its position (plan would stop on it). */
function ignoreProblems(workspace: ManifestDocument): Problem[] {
  const globs = workspace.body.ignore;
  if (!Array.isArray(globs)) return [];
  return globs.flatMap((glob: unknown, index) => {
    const why = typeof glob === 'string' ? globProblem(glob) : undefined;
    if (why === undefined) return [];
    const pointer = encodePointer(['ignore', index]);
    return [
      makeProblem({
        code: GLOB_INVALID,
        message: why,
        pointer,
        at: workspace.positionOf(pointer),
        document: workspace.index,
        hint: GLOB_HINT,
      }),
    ];
  });
}

function singleton(documents: readonly ManifestDocument[], code: string, kind: string): Problem[] {
  const [first, ...rest] = documents;
  if (first === undefined) return [];
  return rest.map((document) =>
    makeProblem({
      code,
      message: `only one ${kind} document is allowed; the first is at ${formatPosition(first.position)}`,
      at: document.position,
      document: document.index,
      hint: 'merge the documents into one',
    }),
  );
}

function pinProblems(documents: readonly ManifestDocument[]): Problem[] {
  const problems: Problem[] = [];
  const managed: Occurrence[] = [];
  const groupNames: Occurrence[] = [];
  for (const document of documents) {
    problems.push(...pinMemberProblems(document), ...pinModeProblems(document));
    if (isGroupDocument(document)) groupNames.push(identity(document, '/name'));
    const listed = DOMAINS.filter((domain) => Array.isArray(document.body[domain]));
    if (listed.length === 0) {
      problems.push(
        makeProblem({
          code: 'pins.no-domain',
          message: `PinnedViews lists no domain, so it manages nothing; list one of ${DOMAINS.join(', ')}`,
          at: document.position,
          document: document.index,
        }),
      );
    }
    const email = document.body.userEmail;
    const user = typeof email === 'string' ? email.toLowerCase() : undefined;
    for (const domain of listed) {
      managed.push({ key: user === undefined ? undefined : `${user} ${domain}`, document, pointer: `/${domain}` });
      const entries = (document.body[domain] as unknown[]).map((entry, index) => ({
        key: pinKey(entry),
        document,
        pointer: encodePointer([domain, index]),
      }));
      problems.push(
        ...duplicates(
          entries,
          'pins.duplicate-entry',
          (key) =>
            `${domain} pins ${key.startsWith('id:') ? 'viewId' : 'view'} "${key.slice(key.indexOf(':') + 1)}" twice`,
        ),
      );
    }
  }
  problems.push(
    ...duplicates(managed, 'pins.duplicate-user-domain', (key) => {
      const [user, domain] = key.split(' ');
      return `the ${domain ?? ''} pins of ${user ?? ''} are managed by more than one PinnedViews document`;
    }),
  );
  problems.push(
    ...duplicates(
      groupNames,
      'pins.duplicate-group-name',
      (name) => `the group PinnedViews name "${name}" is used more than once`,
    ),
  );
  const own = ownLists(documents);
  problems.push(...overriddenMembers(documents, own));
  problems.push(
    ...duplicates(listedTwice(documents, own), 'pins.group-overlap', (key) => {
      const [email, domain] = key.split(' ');
      return `${email ?? ''} is listed by more than one group PinnedViews document for ${domain ?? ''}; one group per member and domain`;
    }),
  );
  return problems;
}

/**
 * listedTwice gives, for the emails group documents list by name, one occurrence per
 * document and domain, keyed `email domain`, leaving out members whose own document
 * wins there: the same key from two documents is a member two groups reach, which
 * plan refuses as well (globs and roles need the users, so only plan can tell those).
 */
function listedTwice(documents: readonly ManifestDocument[], own: OwnLists): Occurrence[] {
  const occurrences: Occurrence[] = [];
  for (const document of documents) {
    const seen = new Set<string>();
    for (const { email, pointer } of namedMembers(document)) {
      for (const domain of DOMAINS) {
        const key = `${email.toLowerCase()} ${domain}`;
        if (!Array.isArray(document.body[domain]) || own.has(key) || seen.has(key)) continue;
        seen.add(key);
        occurrences.push({ key, document, pointer });
      }
    }
  }
  return occurrences;
}

/** namedMembers gives the `users` entries of a document that name one member by email (not a glob). */
function namedMembers(document: ManifestDocument): { email: string; pointer: string }[] {
  const users = document.body.users;
  if (!Array.isArray(users)) return [];
  return users.flatMap((entry: unknown, index) => {
    if (typeof entry !== 'string' || isMemberGlob(entry)) return [];
    return [{ email: entry, pointer: encodePointer(['users', index]) }];
  });
}

/** OwnLists maps `email domain` (email lower-cased) to the `userEmail` document that manages that list. */
type OwnLists = ReadonlyMap<string, ManifestDocument>;

function ownLists(documents: readonly ManifestDocument[]): OwnLists {
  const own = new Map<string, ManifestDocument>();
  for (const document of documents) {
    const email = document.body.userEmail;
    if (typeof email !== 'string' || isGroupDocument(document)) continue;
    for (const domain of DOMAINS) {
      const key = `${email.toLowerCase()} ${domain}`;
      if (Array.isArray(document.body[domain]) && !own.has(key)) own.set(key, document);
    }
  }
  return own;
}

/**
 * pinMemberProblems checks whom a PinnedViews document is for: `userEmail`, or a
 * group (`users` and/or `roles`) with a `name`, never both; each `users` entry an
 * email or a glob that compiles.
 */
function pinMemberProblems(document: ManifestDocument): Problem[] {
  const problems: Problem[] = [];
  const error = (code: string, message: string, pointer: string, hint: string): void => {
    problems.push(
      makeProblem({ code, message, pointer, at: document.positionOf(pointer), document: document.index, hint }),
    );
  };
  const hasUser = document.body.userEmail !== undefined;
  if (!hasUser && !isGroupDocument(document)) {
    error(
      'pins.no-member',
      'PinnedViews names no member: it needs `userEmail`, or `users` and/or `roles`',
      '',
      'add `userEmail: <member email>`, or `name`, `users` and/or `roles` for a group of members',
    );
  }
  if (!isGroupDocument(document)) return problems;
  if (hasUser) {
    error(
      'pins.user-and-group',
      'PinnedViews has both `userEmail` and `users`/`roles`; a document is for one member or for a group',
      '/userEmail',
      'remove `userEmail` (list the email in `users`), or move the group into a document of its own',
    );
  }
  if (document.body.name === undefined) {
    error(
      'pins.group-name-required',
      'a group PinnedViews document (`users` or `roles`) needs a `name`, which the plan shows on its changes',
      '',
      'add `name: <group name>`, e.g. `name: Sales team tabs`',
    );
  }
  const users = document.body.users;
  if (!Array.isArray(users)) return problems;
  users.forEach((entry: unknown, index) => {
    if (typeof entry !== 'string') return;
    const pointer = encodePointer(['users', index]);
    if (isMemberGlob(entry)) {
      const why = globProblem(entry);
      if (why !== undefined) error(GLOB_INVALID, why, pointer, GLOB_HINT);
    } else if (!EMAIL.test(entry)) {
      error(
        'email.invalid',
        `${JSON.stringify(entry)} is not a valid email address, nor a glob (\`*\` or \`?\`)`,
        pointer,
        "write a member's email, or a glob such as `*@sales.acme.com`",
      );
    }
  });
  return problems;
}

/** EMAIL is the shape of an address the `users` list accepts: something@domain.tld, no spaces. */
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/**
 * overriddenMembers warns where a group lists an email by name that also has its own
 * `userEmail` document for a domain the group manages: that document wins for the
 * domain, so the group's tabs never reach them there.
 */
function overriddenMembers(documents: readonly ManifestDocument[], own: OwnLists): Problem[] {
  const problems: Problem[] = [];
  for (const document of documents) {
    for (const { email, pointer } of namedMembers(document)) {
      const domains = DOMAINS.filter(
        (domain) => Array.isArray(document.body[domain]) && own.has(`${email.toLowerCase()} ${domain}`),
      );
      const first = domains[0] === undefined ? undefined : own.get(`${email.toLowerCase()} ${domains[0]}`);
      if (first === undefined) continue;
      problems.push(
        makeProblem({
          severity: 'warning',
          code: 'pins.group-overridden',
          message: `${email} has their own PinnedViews document (${formatPosition(first.position)}) for ${domains.join(', ')}, which wins over this group there`,
          pointer,
          at: document.positionOf(pointer),
          document: document.index,
          hint: 'remove the email from `users`, or merge the tabs into one of the two documents',
        }),
      );
    }
  }
  return problems;
}

function pinKey(entry: unknown): string | undefined {
  if (typeof entry === 'string') return `name:${entry}`;
  return isJsonObject(entry) && typeof entry.viewId === 'string' ? `id:${entry.viewId}` : undefined;
}

function viewProblems(view: ManifestDocument): Problem[] {
  const problems: Problem[] = [];
  const warn = (code: string, message: string, pointer: string): void => {
    problems.push(
      makeProblem({ severity: 'warning', code, message, pointer, at: view.positionOf(pointer), document: view.index }),
    );
  };
  const filters = view.body.filters;
  if (isJsonObject(filters)) {
    for (const attribute of ['authorIdNotIn', 'peopleNotIn', 'ownerEmailNotIn']) {
      const entries = filters[attribute];
      if (!Array.isArray(entries)) continue;
      entries.forEach((entry, index) => {
        if (isJsonObject(entry) && entry.type === 'Me') {
          warn(
            'filter.excludes-me',
            `${attribute} excludes Me: listing records with this view through the API returns an empty page`,
            encodePointer(['filters', attribute, index]),
          );
        }
      });
    }
    for (const { pointer, text } of inAndNotIn(filters, ['filters'])) {
      warn('filter.in-and-not-in', `${text} is both included and excluded, so nothing matches it`, pointer);
    }
    for (const pointer of emptyRanges(filters, ['filters'])) {
      warn('filter.empty-range', 'gte is greater than lte: the range matches nothing', pointer);
    }
  }
  const columns = view.body.columns;
  if (Array.isArray(columns)) {
    const seen = new Set<string>();
    columns.forEach((column, index) => {
      if (!isJsonObject(column)) return;
      const id = typeof column.columnId === 'string' ? `column ${column.columnId}` : `field ${String(column.fieldId)}`;
      if (seen.has(id))
        warn('view.duplicate-column', `${id} appears twice in columns`, encodePointer(['columns', index]));
      seen.add(id);
    });
  }
  return problems;
}

/** inAndNotIn finds values listed in both `xIn` and `xNotIn` (or `in` and `notIn`) of one object, at any depth. */
function inAndNotIn(value: unknown, path: (string | number)[]): { pointer: string; text: string }[] {
  if (Array.isArray(value)) return value.flatMap((item, index) => inAndNotIn(item, [...path, index]));
  if (!isJsonObject(value)) return [];
  return Object.entries(value).flatMap(([key, included]) => {
    const below = inAndNotIn(included, [...path, key]);
    const excludedKey =
      key === 'in' ? 'notIn' : key.endsWith('In') && !key.endsWith('NotIn') ? `${key.slice(0, -2)}NotIn` : undefined;
    const excluded = excludedKey === undefined ? undefined : value[excludedKey];
    if (excludedKey === undefined || !Array.isArray(included) || !Array.isArray(excluded)) return below;
    const includedTexts = new Set(included.map((item) => JSON.stringify(item)));
    const both = excluded.flatMap((item, index) => {
      const text = JSON.stringify(item);
      return includedTexts.has(text) ? [{ pointer: encodePointer([...path, excludedKey, index]), text }] : [];
    });
    return [...both, ...below];
  });
}

function emptyRanges(value: unknown, path: (string | number)[]): string[] {
  if (Array.isArray(value)) return value.flatMap((item, index) => emptyRanges(item, [...path, index]));
  if (!isJsonObject(value)) return [];
  const here = typeof value.gte === 'number' && typeof value.lte === 'number' && value.gte > value.lte;
  const below = Object.entries(value).flatMap(([key, child]) => emptyRanges(child, [...path, key]));
  return here ? [encodePointer(path), ...below] : below;
}
