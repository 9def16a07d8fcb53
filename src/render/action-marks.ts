import type { JsonValue } from '../domain/api-types.js';
import { actionTraits, type ActionCount } from '../plan/action-traits.js';
import type { Change } from '../plan/types.js';
import { quoted, safeText } from '../text/safe-text.js';
import { valueText } from './format.js';
import { codeSpan, mdText } from './markdown-text.js';

/**
 * How the plans mark an action, asked of the action's traits (`KindAction`: what it is
 * counted as, its verb), never of its name: a created thing is a green `+` (➕), an
 * updated one a yellow `~` (✏️), a deleted one a red `-` (🗑️), a replaced list a cyan
 * `↻` (📌), what is only shown a magenta `!` (⚠️). A registered kind's actions are marked
 * as what they are, and its changes, which no renderer knows the fields of, are shown
 * by the generic rows and details below: kind, name, id, source, before and after.
 */

/** ActionMark is an action's mark in the text plan (symbol, colour, label) and in the markdown plan (icon). */
export interface ActionMark {
  symbol: string;
  color: 'green' | 'yellow' | 'red' | 'cyan' | 'magenta';
  icon: string;
  /** The action's verb, as the summary lines name it. */
  label: string;
}

const MARKS: Readonly<Record<ActionCount | 'shown', Omit<ActionMark, 'label'>>> = {
  created: { symbol: '+', color: 'green', icon: '➕' },
  updated: { symbol: '~', color: 'yellow', icon: '✏️' },
  deleted: { symbol: '-', color: 'red', icon: '🗑️' },
  pinned: { symbol: '↻', color: 'cyan', icon: '📌' },
  shown: { symbol: '!', color: 'magenta', icon: '⚠️' },
};

/** actionMark is how the plans mark a change's action: as its traits say (`countedAs`, `verb`). */
export function actionMark(change: Pick<Change, 'action'>): ActionMark {
  const traits = actionTraits(change);
  // A destructive action is marked as a deletion whatever it is counted as: it must stand out.
  const mark = MARKS[traits.destructive === true ? 'deleted' : (traits.countedAs ?? 'shown')];
  return { ...mark, label: traits.verb };
}

/** GenericChange is what the plans show of a change whose fields no renderer knows: its common fields and its before and after as JSON. */
interface GenericChange {
  action: string;
  kind: string;
  name: string;
  id?: unknown;
  source?: { file: string; line: number };
  before?: unknown;
  after?: unknown;
}

/** genericRow is a change's summary row in the text plan: its kind, its name (and id) and where it is declared. */
export function genericRow(change: GenericChange): { kind: string; name: string; source: string } {
  return {
    kind: safeText(change.kind),
    name: `${quoted(change.name)}${idText(change, safeText)}`,
    source: change.source === undefined ? '' : `${safeText(change.source.file)}:${change.source.line}`,
  };
}

/** genericLines are a change's details in the text plan: its mark, kind and name, then what it is now and what it becomes. */
export function genericLines(change: GenericChange, paint: (text: string) => string): string[] {
  const { symbol } = actionMark(change as Pick<Change, 'action'>);
  return [
    paint(`${symbol} ${safeText(change.kind)} ${quoted(change.name)}${idText(change, safeText)}`),
    `    now:   ${valueText(json(change.before))}`,
    `    after: ${valueText(json(change.after))}`,
  ];
}

/** genericTableRow is a change's row in the markdown plan's table. */
export function genericTableRow(change: GenericChange, source: string): string {
  const { icon } = actionMark(change as Pick<Change, 'action'>);
  return `| ${icon} | ${mdText(change.kind)} | ${mdText(change.name)}${idText(change, mdText)} | ${source} |`;
}

/** genericBlock is a change's collapsed block in the markdown plan: what it is now and what it becomes, as JSON. */
export function genericBlock(change: GenericChange): string {
  const { icon } = actionMark(change as Pick<Change, 'action'>);
  return [
    `<details><summary>${icon} ${mdText(change.name)}${idText(change, mdText)}</summary>`,
    '',
    `- now: ${codeSpan(JSON.stringify(json(change.before)) ?? 'null')}`,
    `- after: ${codeSpan(JSON.stringify(json(change.after)) ?? 'null')}`,
    '</details>',
  ].join('\n');
}

function idText(change: GenericChange, escaped: (text: string) => string): string {
  return typeof change.id === 'string' ? ` (${escaped(change.id)})` : '';
}

/** json is a plan's value as JSON: a plan is JSON throughout, absent is null. */
function json(value: unknown): JsonValue {
  return (value ?? null) as JsonValue;
}
