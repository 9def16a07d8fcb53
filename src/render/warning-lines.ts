import { formatPosition } from '../domain/source-position.js';
import { ACTION_AT_EACH_PLACE, groupLines, groupWarnings } from '../text/warning-groups.js';
import type { PlanWarning } from '../plan/types.js';

/** warningText is one plan warning as a line: where, when a manifest causes it, then what. */
export function warningText(warning: PlanWarning): string {
  return warning.source === undefined ? warning.message : `${formatPosition(warning.source)}: ${warning.message}`;
}

/**
 * warningEntries are the plan's warnings as the text and markdown plans print them:
 * one entry per code (its first warning, then how many more and where; every place
 * when each asks for an edit), or, with `showWarnings`, one per warning. Each entry is
 * its lines, unescaped: the renderer escapes and marks them.
 */
export function warningEntries(warnings: readonly PlanWarning[], showWarnings = false): string[][] {
  if (showWarnings) return warnings.map((warning) => [warningText(warning)]);
  return groupWarnings(warnings, (warning) => warning.code).map((group) =>
    groupLines(
      warningText(group.first),
      group.others.map((warning) => (warning.source === undefined ? undefined : formatPosition(warning.source))),
      ACTION_AT_EACH_PLACE.has(group.code),
    ),
  );
}
