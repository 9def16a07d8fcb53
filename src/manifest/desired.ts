import type { JsonObject } from '../domain/api-types.js';
import { sortedAppOwns, type AppOwnable } from '../domain/app-owns.js';
import { DOMAINS, domainOfKind, type Domain, type ViewKind } from '../domain/domains.js';
import type {
  Desired,
  DesiredAutomations,
  DesiredPinGroup,
  DesiredPins,
  DesiredView,
  DesiredWorkspace,
  ExpectedAutomation,
  ManagedViewAttributes,
  PinRef,
} from '../domain/desired.js';
import type { AdminAutomations, Manifest, PinnedViews, Workspace } from './generated/manifest-types.js';
import type { ManifestDocument } from './types.js';
import { encodePointer } from './yaml-positions.js';
import { withSlices } from './kind-manifests.js';

type ViewManifest = Extract<Manifest, { kind: ViewKind }>;

/**
 * toDesired turns validated documents into the Desired state the planner compares
 * with live state. Call it only when loading found no error: it trusts the schemas.
 * Omitted view attributes stay absent from `managed` (unmanaged); `icon: null` is
 * kept, meaning "remove the icon".
 */
export function toDesired(documents: readonly ManifestDocument[]): Desired {
  const workspaceDocument = documents.find((document) => document.kind === 'Workspace');
  const automationsDocument = documents.find((document) => document.kind === 'AdminAutomations');
  const pinDocuments = documents.filter((document) => document.kind === 'PinnedViews');
  const desired: Desired = {
    workspace: workspaceDocument === undefined ? { prune: false, ignore: [] } : toWorkspace(workspaceDocument),
    views: [],

    pins: pinDocuments.filter((document) => !isGroupDocument(document)).flatMap(toPins),
  };
  // A view's own `appOwns` replaces the Workspace's default (README, Manifests).
  desired.views = documents.flatMap((document) => {
    const domain = domainOfKind(document.kind);
    return domain === undefined ? [] : [toView(document, domain, desired.workspace.appOwns)];
  });
  const pinGroups = pinDocuments.filter(isGroupDocument).flatMap(toPinGroups);
  if (pinGroups.length > 0) desired.pinGroups = pinGroups;
  if (automationsDocument !== undefined) desired.automations = toAutomations(automationsDocument);
  return withSlices(desired, documents);
}

function toWorkspace(document: ManifestDocument): DesiredWorkspace {
  const body = document.body as unknown as Workspace;
  return {
    ...(body.workspaceId === undefined ? {} : { workspaceId: body.workspaceId }),
    ...(body.creatorEmail === undefined ? {} : { creatorEmail: body.creatorEmail }),
    prune: body.prune ?? false,
    ignore: body.ignore ?? [],
    ...(body.appOwns === undefined || body.appOwns.length === 0 ? {} : { appOwns: sortedAppOwns(body.appOwns) }),
    source: document.position,
    ...(body.workspaceId === undefined ? {} : { workspaceIdSource: document.positionOf('/workspaceId') }),
    ...(body.creatorEmail === undefined ? {} : { creatorEmailSource: document.positionOf('/creatorEmail') }),
  };
}

function toView(document: ManifestDocument, domain: Domain, workspaceAppOwns?: AppOwnable[]): DesiredView {
  const body = document.body as unknown as ViewManifest;
  const managed: ManagedViewAttributes = {};
  if (body.icon !== undefined) managed.icon = body.icon;
  if (body.columns !== undefined) managed.columns = body.columns as unknown as JsonObject[];
  if (body.filters !== undefined) managed.filters = body.filters as unknown as JsonObject;
  if (body.sort !== undefined) managed.sort = body.sort as unknown as JsonObject[];
  const appOwns = body.appOwns === undefined ? workspaceAppOwns : sortedAppOwns(body.appOwns);
  return {
    domain,
    name: body.name,
    ...(body.viewId === undefined ? {} : { viewId: body.viewId }),
    managed,
    ...(appOwns === undefined || appOwns.length === 0 ? {} : { appOwns }),
    source: document.position,
    nameSource: document.positionOf('/name'),
    ...(body.viewId === undefined ? {} : { viewIdSource: document.positionOf('/viewId') }),
  };
}

/** isGroupDocument tells a group `PinnedViews` document (`users` / `roles`) from a per-member one. */
export function isGroupDocument(document: ManifestDocument): boolean {
  return document.body.users !== undefined || document.body.roles !== undefined;
}

/** PinLists is what a per-member and a group document share: one ordered list per domain listed. */
type PinLists = Pick<DesiredPins, 'domain' | 'refs' | 'unpinPrivate' | 'mode' | 'unpin' | 'source' | 'refSources'>;

function pinLists(document: ManifestDocument): PinLists[] {
  const body = document.body as unknown as PinnedViews;
  return DOMAINS.flatMap((domain) => {
    const list = body[domain];
    if (list === undefined) return [];
    const refs: PinRef[] = list.map((entry) =>
      typeof entry === 'string' ? { name: entry } : { viewId: entry.viewId },
    );
    return [
      {
        domain,
        refs,
        unpinPrivate: body.unpinPrivate ?? false,
        ...(body.mode === 'include' ? { mode: 'include' as const } : {}),
        ...(body.unpin === undefined
          ? {}
          : {
              unpin: body.unpin.map((name, index) => ({
                name,
                source: document.positionOf(encodePointer(['unpin', index])),
              })),
            }),
        source: document.positionOf(`/${domain}`),
        refSources: list.map((_, index) => document.positionOf(encodePointer([domain, index]))),
      },
    ];
  });
}

function toPins(document: ManifestDocument): DesiredPins[] {
  const body = document.body as unknown as PinnedViews;
  return pinLists(document).map((list) => ({ userEmail: body.userEmail ?? '', ...list }));
}

function toPinGroups(document: ManifestDocument): DesiredPinGroup[] {
  const body = document.body as unknown as PinnedViews;
  const users = (body.users ?? []).map((pattern, index) => ({
    pattern,
    isGlob: isMemberGlob(pattern),
    source: document.positionOf(encodePointer(['users', index])),
  }));
  return pinLists(document).map((list) => ({
    group: { name: body.name ?? '', source: document.position },
    users,
    roles: [...(body.roles ?? [])],
    ...(body.roles === undefined ? {} : { rolesSource: document.positionOf('/roles') }),
    ...list,
  }));
}

/** isMemberGlob tells a `users` glob (it holds `*` or `?`) from an email. */
export function isMemberGlob(pattern: string): boolean {
  return /[*?]/.test(pattern);
}

function toAutomations(document: ManifestDocument): DesiredAutomations {
  const body = document.body as unknown as AdminAutomations;
  const automations = body.automations.map(
    (entry, index): ExpectedAutomation => ({
      name: entry.name,
      ...(entry.color === undefined ? {} : { color: entry.color }),
      ...(entry.disallowUserOverride === undefined ? {} : { disallowUserOverride: entry.disallowUserOverride }),
      ...(entry.filters === undefined ? {} : { filters: entry.filters as unknown as JsonObject[] }),
      ...(entry.actions === undefined ? {} : { actions: entry.actions as unknown as JsonObject }),
      source: document.positionOf(encodePointer(['automations', index])),
    }),
  );
  return { automations, source: document.position };
}
