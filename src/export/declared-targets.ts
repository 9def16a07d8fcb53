import type { ApiView } from '../domain/api-types.js';
import { DOMAINS, domainOfKind, type Domain } from '../domain/domains.js';
import type { SourcePosition } from '../domain/source-position.js';
import type { ManifestDocument } from '../manifest/types.js';
import { pinDocumentMatcher, type PinDocumentTarget, type PinMember } from './pin-coverage.js';

/**
 * What a manifests folder already declares, as `export --merge` needs it: which live
 * views, pinned lists, automations and workspace a new document would declare twice.
 * Built from loaded documents (the loader has checked them), reading each attribute
 * defensively, so that kinds whose shape grows (group `PinnedViews`) are read as
 * they are written.
 */

/** DeclaredView is one view document: its name, the live view it binds, where it is. */
export interface DeclaredView {
  domain: Domain;
  name: string;
  viewId?: string;
  source: SourcePosition;
}

/** DeclaredPins is one `PinnedViews` document: whom it targets, which domains it manages, where it is. */
export interface DeclaredPins extends PinDocumentTarget {
  domains: Domain[];
  source: SourcePosition;
}

/** DeclaredTargets is everything a manifests folder declares that an export could write. */
export interface DeclaredTargets {
  views: DeclaredView[];
  pins: DeclaredPins[];
  workspace?: SourcePosition;
  /** The Workspace's `ignore` globs: names of views left unmanaged on purpose. */
  ignore: string[];
  /** The Workspace's `appOwns`: attributes a new view document leaves out (the app owns them). */
  appOwns?: string[];
  automations?: SourcePosition;
}

export function declaredTargets(documents: readonly ManifestDocument[]): DeclaredTargets {
  const declared: DeclaredTargets = { views: [], pins: [], ignore: [] };
  for (const document of documents) {
    const body = document.body;
    const domain = domainOfKind(document.kind);
    if (domain !== undefined) {
      const viewId = text(body.viewId);
      declared.views.push({
        domain,
        name: text(body.name) ?? '',
        ...(viewId === undefined ? {} : { viewId }),
        source: document.position,
      });
    } else if (document.kind === 'PinnedViews') {
      const userEmail = text(body.userEmail);
      const name = text(body.name);
      declared.pins.push({
        ...(userEmail === undefined ? {} : { userEmail }),
        ...(name === undefined ? {} : { name }),
        users: texts(body.users),
        roles: texts(body.roles),
        domains: DOMAINS.filter((domain) => body[domain] !== undefined),
        source: document.position,
      });
    } else if (document.kind === 'Workspace' && declared.workspace === undefined) {
      declared.workspace = document.position;
      declared.ignore = texts(body.ignore);
      if (body.appOwns !== undefined) declared.appOwns = texts(body.appOwns);
    } else if (document.kind === 'AdminAutomations') {
      declared.automations ??= document.position;
    }
  }
  return declared;
}

/**
 * viewDeclaration answers the manifest that already declares a live public saved
 * view: the one binding its `viewId`, or one declaring its name without a `viewId`
 * (plan matches that by name; another document bound to the view would make
 * validate fail with `view.duplicate-name`).
 */
export function viewDeclaration(declared: DeclaredTargets, domain: Domain, view: ApiView): DeclaredView | undefined {
  const inDomain = declared.views.filter((candidate) => candidate.domain === domain);
  return (
    inDomain.find((candidate) => candidate.viewId === view.viewId) ??
    inDomain.find((candidate) => candidate.viewId === undefined && candidate.name === view.name)
  );
}

/**
 * PinCoverage answers, per member, which domains of their pinned views a document
 * already manages, and the document. A `userEmail` document is preferred over a
 * group document, as plan prefers it.
 */
type PinCoverage = (member: PinMember) => Map<Domain, DeclaredPins>;

/** pinCoverage builds the coverage question over the folder's `PinnedViews` documents (globs compiled once). */
export function pinCoverage(declared: DeclaredTargets): PinCoverage {
  const documents = declared.pins.map((document) => ({ document, matches: pinDocumentMatcher(document) }));
  const ranked = [
    ...documents.filter(({ document }) => document.userEmail !== undefined),
    ...documents.filter(({ document }) => document.userEmail === undefined),
  ];
  return (member) => {
    const covered = new Map<Domain, DeclaredPins>();
    for (const { document, matches } of ranked) {
      if (!matches(member)) continue;
      for (const domain of document.domains) if (!covered.has(domain)) covered.set(domain, document);
    }
    return covered;
  };
}

function text(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

function texts(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((entry): entry is string => typeof entry === 'string') : [];
}
