import type { ApplyReport, HeldEntry } from '../domain/apply-report.js';

/**
 * What an apply of a saved plan reports of the targets it held (README, "Fail-safe
 * rules"): each held target and why, and the commands that bring them to a review
 * again. The rest of the report is the ordinary one.
 */

/** HeldAdvice is what the advice depends on: the sweep memory's file, and the commit it records as last applied after this apply. */
export interface HeldAdvice {
  /** The `--ledger` file, when the apply was given the sweep memory. */
  ledgerFile?: string;
  /** The memory's last applied commit once this apply is recorded (it holds the held targets when this apply advanced it). */
  lastApplied?: string;
}

/**
 * heldNext is how to carry the held targets out: a new plan of the merged manifests, for
 * a new review. With the sweep memory, `plan --since-applied` plans from the commit it
 * records as last applied (this apply's, when it advanced it, and the memory then holds
 * these targets; an older one's otherwise, whose changes since include them): it costs
 * what changed since; without, a plan of the manifests reads every target. Its apply
 * names the reviewed plan's digest, as every apply of a reviewed plan does. A saved plan
 * does not name its manifest paths, so the command says where they go.
 */
export function heldNext(count: number, advice: HeldAdvice): string {
  const them = count === 1 ? 'The held target needs' : `The ${count} held targets need`;
  const memoryFlag = advice.ledgerFile === undefined ? '' : ` --ledger ${shellWord(advice.ledgerFile)}`;
  const remembered = advice.ledgerFile !== undefined && advice.lastApplied !== undefined;
  const plan = remembered
    ? `viewctl plan <manifests> --since-applied${memoryFlag} --out plan.json`
    : `viewctl plan <manifests>${memoryFlag} --out plan.json`;
  const why = remembered
    ? `(from the last applied commit, ${advice.lastApplied?.slice(0, 7)}: it plans what changed since it, the held targets among them)`
    : '(it reads every target, the held ones as the app has them now)';
  return `${them} a new reviewed plan: in the merged checkout, run \`${plan}\` ${why}, have that plan reviewed, then \`viewctl apply --plan plan.json --expect-digest <digest printed by plan>${memoryFlag}\`.`;
}

/** withHeld is `report` naming the `held` targets and how to carry them out; unchanged when none is held. */
export function withHeld(report: ApplyReport, held: readonly HeldEntry[] | undefined, advice: HeldAdvice): ApplyReport {
  if (held === undefined || held.length === 0) return report;
  return { ...report, held: { targets: [...held], next: heldNext(held.length, advice) } };
}

/** shellWord quotes `text` for a POSIX shell when it holds anything but plain path characters. */
function shellWord(text: string): string {
  return /^[\w@%+=:,./-]+$/.test(text) ? text : `'${text.replace(/'/g, `'\\''`)}'`;
}
