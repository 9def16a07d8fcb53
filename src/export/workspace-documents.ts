import { Document, isMap, isScalar, isSeq } from 'yaml';
import {
  isJsonObject,
  type ApiAdminAutomation,
  type ApiWorkspace,
  type JsonObject,
  type JsonValue,
} from '../domain/api-types.js';
import { canonicalize } from '../kinds/canonical.js';
import { compactLeaves, flowEach, orderKeys, quoted, renderFile } from './yaml-text.js';

/** CREATOR_PLACEHOLDER is the example address of the commented-out `creatorEmail`. */
const CREATOR_PLACEHOLDER = 'someone@example.com';

/**
 * renderWorkspaceFile prints the `Workspace` document: `workspaceId`, so the manifests
 * are never planned against another workspace, and `prune: false`, so nothing live
 * is deleted until the team opts in. `creatorEmail` stays commented out: the service
 * does not say who created a view, so export cannot know whom the team wants as
 * owner of the views apply creates.
 */
export function renderWorkspaceFile(workspace: ApiWorkspace, modeline: string): string {
  const document = new Document({ kind: 'Workspace', workspaceId: workspace.id, prune: false });
  const contents = document.contents;
  if (isMap(contents)) {
    const prune = contents.items.find((pair) => isScalar(pair.key) && pair.key.value === 'prune');
    if (prune !== undefined && isScalar(prune.key)) {
      prune.key.commentBefore = [
        ' creatorEmail is not knowable from the service: set it to the member who will own views apply creates.',
        ` creatorEmail: ${CREATOR_PLACEHOLDER}`,
      ].join('\n');
    }
  }
  const header = [
    `The workspace these manifests describe, ${quoted(workspace.name)}: plan and apply refuse any other.`,
  ];
  return renderFile(document, modeline, header);
}

/** AUTOMATION_KEYS are the attributes an `AdminAutomations` entry can state, in the order written. */
const AUTOMATION_KEYS = ['name', 'color', 'disallowUserOverride', 'filters', 'actions'] as const;

/** AutomationsFile is the rendered document and the live attributes it could not state. */
interface AutomationsFile {
  text: string;
  /** `name: attribute` for every live attribute the manifest format has no place for. */
  dropped: string[];
}

/**
 * renderAutomationsFile prints the `AdminAutomations` document: every live automation,
 * highest priority first, each with all the attributes the format compares (the
 * server's `adminAutomationId` is not one: automations are matched by name).
 */
export function renderAutomationsFile(automations: readonly ApiAdminAutomation[], modeline: string): AutomationsFile {
  const dropped: string[] = [];
  const entries = automations.map((automation): JsonValue => {
    const live = automation as unknown as JsonObject;
    for (const key of Object.keys(live)) {
      if (key !== 'adminAutomationId' && !(AUTOMATION_KEYS as readonly string[]).includes(key)) {
        dropped.push(`${automation.name}: ${key}`);
      }
    }
    const entry: JsonObject = {};
    for (const key of AUTOMATION_KEYS) {
      const value = live[key];
      if (value !== undefined) entry[key] = value;
    }
    const filters = entry.filters;
    if (Array.isArray(filters)) {
      entry.filters = filters.map((filter) =>
        isJsonObject(filter) ? orderKeys(filter, ['type', 'meetingType', 'combineWith', 'not']) : filter,
      );
    }
    const actions = entry.actions;
    if (actions !== undefined) entry.actions = canonicalize(actions);
    return entry;
  });
  const document = new Document({ kind: 'AdminAutomations', automations: entries });
  // One filter per line, one action per line: what a reviewer compares with the admin settings.
  const list = document.get('automations', true);
  if (isSeq(list)) {
    for (const entry of list.items) {
      if (!isMap(entry)) continue;
      flowEach(entry.get('filters', true));
      compactLeaves(entry.get('actions', true));
    }
  }
  const header = [
    'The admin automations expected live, highest priority first; the list is complete.',
    'viewctl never changes them: plan reports every difference as drift.',
  ];
  return { text: renderFile(document, modeline, header), dropped };
}
