import { ViewctlError } from '../errors.js';
import type { RefusalReason } from '../domain/refusal-reason.js';
import { formatPosition } from '../domain/source-position.js';
import { compareCodePoints } from '../kinds/canonical.js';
import { safeText } from '../text/safe-text.js';

export type { RefusalReason };

/** sortReasons orders reasons by file, line, column, then code, so output is deterministic. */
export function sortReasons(reasons: readonly RefusalReason[]): RefusalReason[] {
  const key = (reason: RefusalReason): [string, number, number] =>
    reason.source === undefined ? ['', 0, 0] : [reason.source.file, reason.source.line, reason.source.column];
  return [...reasons].sort((a, b) => {
    const [fa, la, ca] = key(a);
    const [fb, lb, cb] = key(b);
    return (
      compareCodePoints(fa, fb) ||
      la - lb ||
      ca - cb ||
      compareCodePoints(a.code, b.code) ||
      compareCodePoints(a.message, b.message)
    );
  });
}

/**
 * PlanRefusedError carries every reason the fail-safe rules refused a plan, all at
 * once, so one run shows everything to fix. Its `code` is the first reason's code;
 * exit code 1 (an error before any write).
 */
export class PlanRefusedError extends ViewctlError {
  readonly reasons: readonly RefusalReason[];

  constructor(reasons: readonly RefusalReason[]) {
    const sorted = sortReasons(reasons);
    const first = sorted[0];
    if (first === undefined) throw new Error('PlanRefusedError needs at least one reason');
    const single = sorted.length === 1;
    super(
      first.code,
      single ? describeOne(first) : describeAll(sorted),
      single ? { hint: safeText(first.wayOut) } : {},
    );
    this.reasons = sorted;
  }
}

// Each reason is one line, escaped here: a name holding a line feed must not forge another line.
function describeOne(reason: RefusalReason): string {
  const where = reason.source === undefined ? '' : `${formatPosition(reason.source)}: `;
  return `${safeText(where)}${safeText(reason.message)}; nothing was written`;
}

function describeAll(reasons: readonly RefusalReason[]): string {
  const lines = [`the plan is refused for ${reasons.length} reasons; nothing was written:`];
  for (const reason of reasons) {
    const where = reason.source === undefined ? '' : `${formatPosition(reason.source)} `;
    lines.push(
      `  ${safeText(where)}[${reason.code}] ${safeText(reason.message)}`,
      `      way out: ${safeText(reason.wayOut)}`,
    );
  }
  return lines.join('\n');
}
