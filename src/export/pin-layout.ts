import { UsageError } from '../errors.js';

/** PinLayout is how `export` writes pinned lists: shared by groups, or one document per member. */
export type PinLayout = 'groups' | 'per-member';

/** PIN_LAYOUTS are the values of `--pins`, the default first. */
export const PIN_LAYOUTS: readonly PinLayout[] = ['groups', 'per-member'];

/** PinLayoutChoice is what decides the layout: `--pins` as given, and the options that need per-member files. */
interface PinLayoutChoice {
  pinLayout?: PinLayout;
  merge?: boolean;
  budget?: number;
}

/**
 * choosePinLayout is `--pins`, else `groups`, except for `--merge` and `--budget`: a
 * group is found among every member's lists at once, while a merge adds files without
 * rewriting any and a budgeted export reads its members over several runs, so both
 * write one document per member (a later run cannot add a member to a group document
 * without rewriting it). Asking for groups with either is refused, before any request.
 */
export function choosePinLayout(choice: PinLayoutChoice): PinLayout {
  const perRun = choice.merge === true ? '--merge' : choice.budget !== undefined ? '--budget' : undefined;
  if (perRun === undefined) return choice.pinLayout ?? 'groups';
  if (choice.pinLayout === 'groups') {
    throw new UsageError(
      'usage.conflicting-options',
      `--pins groups and ${perRun} were both given: ${perRun === '--merge' ? 'a merge adds files and never rewrites one' : 'a budgeted export reads its members over several runs'}, so it cannot gather members who share a list into one group document`,
      `drop --pins groups (${perRun} writes one document per member), or export every member at once without ${perRun} into a new folder`,
    );
  }
  return 'per-member';
}
