import { DOMAINS, type Domain } from '../domain/domains.js';
import type { SourcePosition } from '../domain/source-position.js';
import { formatCount, plural } from '../text/plural.js';
import { safeText } from '../text/safe-text.js';
import { fitText } from '../text/wrap.js';
import { skippedRows } from './merge-skipped.js';
import { posix } from 'node:path';

/**
 * What `viewctl export` prints once its files are written: on stdout, what it wrote
 * (a plain export's counts per domain, or a merge's new files and what it skipped);
 * on stderr, the notes a reviewer should read. Pure: the export flow answers the figures.
 */

/** PlainExport is what a plain export answers for its summary. */
interface PlainExport {
  merged: false;
  workspace: { id: string; name: string };
  views: Record<Domain, number>;
  automations: number | null;
  pinUsers: number;
  /** How many documents hold the pinned lists: groups members share, and members' own. */
  pinDocuments: { groups: number; members: number };
  written: number;
  untouched: readonly string[];
  notes: readonly string[];
  pinsChosen: boolean;
  requests: number;
  layout: { workspaceFile: string; automationsFile: string; pinsFolder: string };
}

/** MergedExport is what `export --merge` answers for its summary. */
interface MergedExport {
  merged: true;
  workspace: { id: string; name: string };
  written: readonly { path: string; target: string }[];
  skipped: readonly { target: string; declaredAt: SourcePosition }[];
  schemaCopies: number;
  schemasFolder: string;
  notes: readonly string[];
  pinsChosen: boolean;
  requests: number;
}

/** ExportSummary is either kind of export's outcome, as the summary reads it. */
export type ExportSummary = PlainExport | MergedExport;

/** exportNotes are the `note:` lines an export prints on stderr: the export's own, pinned views not asked for, files left as they were. */
export function exportNotes(outcome: ExportSummary): string {
  if (outcome.merged) {
    const lines = outcome.notes.map((note) => `note: ${safeText(note)}\n`);
    if (!outcome.pinsChosen)
      lines.push('note: pinned views not merged: name members with --users a@x.com,b@x.com, or pass --all-users\n');
    return lines.join('');
  }
  const lines = outcome.notes.map((note) => `note: ${note}\n`);
  if (!outcome.pinsChosen)
    lines.push('note: pinned views not exported: name members with --users a@x.com,b@x.com, or pass --all-users\n');
  if (outcome.untouched.length > 0)
    lines.push(
      `note: left as they were, not written by this export (plan reads them too): ${outcome.untouched.join(', ')}\n`,
    );
  return lines.join('');
}

/** exportSummary is what an export wrote into `shown` (`--out` as given), on stdout, wrapped to a terminal's `width` when given. */
export function exportSummary(shown: string, outcome: ExportSummary, width?: number): string {
  return fitText(outcome.merged ? mergeSummary(shown, outcome) : plainSummary(shown, outcome), width);
}

function plainSummary(shown: string, outcome: PlainExport): string {
  const { views, automations, pinUsers, workspace, layout } = outcome;
  const total = DOMAINS.reduce((sum, domain) => sum + views[domain], 0);
  const perDomain = DOMAINS.map((domain) => `${views[domain]} ${domain}`).join(', ');
  const lines = [
    `exported workspace ${JSON.stringify(workspace.name)} (${workspace.id}) to ${shown}`,
    `  ${layout.workspaceFile}`,
    `  ${total} view${total === 1 ? '' : 's'} (${perDomain})`,
  ];
  if (automations !== null)
    lines.push(`  ${layout.automationsFile}: ${automations} admin automation${automations === 1 ? '' : 's'}`);
  if (pinUsers > 0) lines.push(`  ${layout.pinsFolder}/: ${pinsLine(pinUsers, outcome.pinDocuments)}`);
  lines.push(
    `${formatCount(outcome.written)} files written, ${formatCount(outcome.requests)} requests used; nothing was changed in the workspace`,
  );
  return `${lines.join('\n')}\n`;
}

/** pinsLine says whose pinned views were exported, and in how many documents when they are grouped. */
function pinsLine(members: number, documents: { groups: number; members: number }): string {
  const whose = `pinned views of ${members} member${members === 1 ? '' : 's'}`;
  if (documents.groups === 0 && documents.members === members) return whose;
  return `${whose} in ${documents.groups} group document${documents.groups === 1 ? '' : 's'} and ${documents.members} member document${documents.members === 1 ? '' : 's'}`;
}

function mergeSummary(shown: string, outcome: MergedExport): string {
  const where = (path: string): string => posix.join(shown.split('\\').join('/'), path);
  const { workspace } = outcome;
  const lines = [`merged workspace ${JSON.stringify(workspace.name)} (${workspace.id}) into ${shown}`];
  if (outcome.written.length === 0) lines.push('nothing to add: every live target is declared already');
  else {
    lines.push(`written, ${plural(outcome.written.length, 'new file')}:`);
    lines.push(...columns(outcome.written.map((file) => [where(file.path), file.target])));
  }
  if (outcome.skipped.length > 0) {
    lines.push(`skipped, already declared (${outcome.skipped.length}):`);
    lines.push(...columns(skippedRows(outcome.skipped)));
  }
  const copies = outcome.schemaCopies;
  const schemaNote =
    copies === 0
      ? ''
      : ` (and ${plural(copies, 'JSON Schema copy', 'JSON Schema copies')} into ${outcome.schemasFolder}/)`;
  lines.push(
    `${plural(outcome.written.length, 'manifest')} written${schemaNote}, no existing file changed, ${plural(outcome.requests, 'request')} used; nothing was changed in the workspace`,
  );
  // Names, emails and paths are user and service data: escaped for the terminal.
  return `${lines.map(safeText).join('\n')}\n`;
}

/** columns indents rows of two cells, the first padded to the widest. */
function columns(rows: readonly (readonly [string, string])[]): string[] {
  const width = Math.max(...rows.map(([first]) => first.length));
  return rows.map(([first, second]) => `  ${first.padEnd(width)}  ${second}`);
}
