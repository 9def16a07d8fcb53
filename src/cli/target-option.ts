import { Option } from 'commander';
import { parseTargetSelector, type TargetSelector } from '../flows/plan-options.js';

/**
 * targetOption is `--target SELECTOR` of `plan` and `apply`, repeatable; each value is
 * parsed once, here, into a TargetSelector (a bad one is `usage.bad-target` before
 * anything is loaded).
 */
export function targetOption(): Option {
  return new Option(
    '--target <selector>',
    'read and plan only this target: KIND/NAME, pins/EMAIL or automations (repeatable)',
  ).argParser((value: string, previous: TargetSelector[] | undefined) => [
    ...(previous ?? []),
    parseTargetSelector(value),
  ]);
}
