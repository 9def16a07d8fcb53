import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import type { ApiView } from '../../../src/domain/api-types.js';
import { DOMAINS, VIEW_KINDS, type Domain } from '../../../src/domain/domains.js';
import { demoWorkspace } from '../../../src/emulator/demo/demo-workspace.js';

// examples/ is the manifests repository of the demo workspace. It must describe the
// demo exactly, except for the deliberate differences that give `viewctl plan
// examples --emulator` something to show; this test pins both.

const repo = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const examples = join(repo, 'examples');
const data = demoWorkspace();

interface Manifest {
  file: string;
  doc: Record<string, unknown>;
}

/** yamlFiles lists the manifests below `dir`; like the loader, it skips hidden folders (`.github/`). */
function yamlFiles(dir: string): string[] {
  return readdirSync(dir)
    .sort()
    .flatMap((entry) => {
      if (entry.startsWith('.')) return [];
      const path = join(dir, entry);
      if (statSync(path).isDirectory()) return yamlFiles(path);
      return /\.ya?ml$/.test(entry) ? [path] : [];
    });
}

const manifests: Manifest[] = yamlFiles(examples).flatMap((path) =>
  parseAllDocuments(readFileSync(path, 'utf8')).map((doc) => {
    expect(doc.errors, path).toEqual([]);
    return { file: relative(examples, path), doc: doc.toJS() as Record<string, unknown> };
  }),
);
const ofKind = (kind: string): Manifest[] => manifests.filter((manifest) => manifest.doc.kind === kind);

const SCHEMA_OF_KIND: Record<string, string> = {
  Workspace: 'workspace',
  RecordingView: 'recording-view',
  DealView: 'deal-view',
  CompanyView: 'company-view',
  ContactView: 'contact-view',
  PinnedViews: 'pinned-views',
  AdminAutomations: 'admin-automations',
};
/** Attributes the API returns but never accepts (the service's "Deal view"). */
const RESPONSE_ONLY: Partial<Record<Domain, string[]>> = { deals: ['dealAgeRange'] };
const NEW_VIEWS: Record<Domain, string[]> = { recordings: ['Team calls'], deals: [], companies: [], contacts: [] };

const publicSaved = (domain: Domain): ApiView[] =>
  data.views[domain].filter((view) => !view.isDefault && view.visibility === 'Public');
const slug = (name: string): string =>
  name
    .toLowerCase()
    .replace(/'/g, '')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');

describe('examples/', () => {
  it('starts every file with the schema of its kind, at the right relative depth', () => {
    for (const path of yamlFiles(examples)) {
      const firstLine = readFileSync(path, 'utf8').split('\n')[0];
      const kind = manifests.find((manifest) => join(examples, manifest.file) === path)?.doc.kind as string;
      const up = relative(dirname(path), repo);
      expect(firstLine, path).toBe(`# yaml-language-server: $schema=${up}/schemas/${SCHEMA_OF_KIND[kind]}.schema.json`);
    }
  });

  it('declares the demo workspace, created by its Admin, without pruning', () => {
    const [workspace, ...others] = ofKind('Workspace');
    expect(others).toEqual([]);
    const admin = data.users.find((user) => user.role === 'Admin');
    expect(workspace?.doc).toMatchObject({ workspaceId: data.workspace.id, creatorEmail: admin?.email, prune: false });
  });

  it.each(DOMAINS)('declares every public saved %s view as the demo has it, plus the new ones', (domain) => {
    const declared = ofKind(VIEW_KINDS[domain]);
    for (const manifest of declared)
      expect(manifest.file).toBe(`views/${domain}/${slug(String(manifest.doc.name))}.yaml`);
    expect(declared.map((manifest) => manifest.doc.name).sort()).toEqual(
      [...publicSaved(domain).map((view) => view.name), ...NEW_VIEWS[domain]].sort(),
    );
    for (const view of publicSaved(domain)) {
      const doc = declared.find((manifest) => manifest.doc.name === view.name)?.doc ?? {};
      expect(doc.viewId, view.name).toBe(view.viewId);
      expect(doc.icon, view.name).toBe(view.icon);
      expect(doc.columns, view.name).toEqual(view.columns);
      expect(doc.sort, view.name).toEqual(view.sort);
      const managed = Object.fromEntries(
        Object.entries(view.filters).filter(([key]) => !(RESPONSE_ONLY[domain] ?? []).includes(key)),
      );
      if (view.name === 'Zoom and Meet calls') {
        // Deliberate difference: one more source, so plan shows an update.
        expect(doc.filters).toEqual({ ...managed, sourceIn: ['GoogleMeet', 'MsTeams', 'Zoom'] });
        expect(view.filters.sourceIn).toEqual(['GoogleMeet', 'Zoom']);
      } else {
        expect(doc.filters, view.name).toEqual(managed);
      }
    }
    for (const name of NEW_VIEWS[domain]) {
      const doc = declared.find((manifest) => manifest.doc.name === name)?.doc ?? {};
      expect(doc.viewId).toBeUndefined();
      expect(data.views[domain].some((view) => view.name === name)).toBe(false);
    }
  });

  it('pins: Adam reorders his tabs, Mia keeps her private view by id, Noah is in sync', () => {
    const byUser = new Map(
      ofKind('PinnedViews')
        .filter((manifest) => manifest.doc.userEmail !== undefined)
        .map((manifest) => [manifest.doc.userEmail, manifest.doc]),
    );
    expect([...byUser.keys()].sort()).toEqual(['adam.reyes@acme.test', 'mia.chen@acme.test', 'noah.patel@acme.test']);
    const userId = (email: string): string => data.users.find((user) => user.email === email)?.id ?? '';
    const resolve = (domain: Domain, entries: unknown): string[] =>
      (entries as unknown[]).map((entry) => {
        if (typeof entry === 'object' && entry !== null) return (entry as { viewId: string }).viewId;
        const matches = data.views[domain].filter((view) => view.visibility === 'Public' && view.name === entry);
        return matches.length === 1 ? (matches[0]?.viewId ?? '') : `new:${String(entry)}`;
      });

    const adam = resolve('recordings', byUser.get('adam.reyes@acme.test')?.recordings);
    const adamLive = data.pinned.recordings[userId('adam.reyes@acme.test')] ?? [];
    expect(adam).not.toEqual(adamLive);
    expect([...adam].sort()).toEqual([...adamLive].sort());

    const mia = resolve('recordings', byUser.get('mia.chen@acme.test')?.recordings);
    const privateView = data.views.recordings.find((view) => view.viewId === mia[0]);
    expect(privateView).toMatchObject({ visibility: 'Private', ownerId: userId('mia.chen@acme.test') });
    expect(data.pinned.recordings[userId('mia.chen@acme.test')]).toContain(mia[0]);
    expect(mia).toContain('new:Team calls');

    expect(resolve('deals', byUser.get('noah.patel@acme.test')?.deals)).toEqual(
      data.pinned.deals[userId('noah.patel@acme.test')],
    );
  });

  it('pins: one group document gives every Member the built-in company tabs, which only Lena (her private tab ahead) lacks', () => {
    const groups = ofKind('PinnedViews').filter((manifest) => manifest.doc.userEmail === undefined);
    expect(groups.map((manifest) => [manifest.file, manifest.doc.name, manifest.doc.roles])).toEqual([
      ['pins/member-company-tabs.yaml', 'Member company tabs', ['Member']],
    ]);
    const defaults = data.views.companies.filter((view) => view.isDefault);
    expect(groups[0]?.doc.companies).toEqual(defaults.map((view) => view.name));
    const members = data.users.filter((user) => user.role === 'Member');
    expect(
      members
        .filter((user) => user.state !== 'Active')
        .map((user) => user.state)
        .sort(),
    ).toEqual(['Deactivated', 'Invited']);
    const customised = members.filter(
      (user) => user.state === 'Active' && data.pinned.companies[user.id] !== undefined,
    );
    expect(customised.map((user) => user.id)).toEqual(['u_lena']);
    const lenaFirst = data.views.companies.find((view) => view.viewId === data.pinned.companies.u_lena?.[0]);
    expect(lenaFirst).toMatchObject({ visibility: 'Private', ownerId: 'u_lena' });
  });

  it('expects the demo automations, except one color so plan reports drift', () => {
    const [manifest, ...others] = ofKind('AdminAutomations');
    expect(others).toEqual([]);
    const expected = data.automations.map(({ adminAutomationId: _id, ...rest }) => rest);
    const declared = manifest?.doc.automations as Record<string, unknown>[];
    expect(declared[0]?.color).toBe('red');
    expect(expected[0]?.color).toBe('blue');
    expect(declared).toEqual([{ ...expected[0], color: 'red' }, ...expected.slice(1)]);
  });
});
