import { Option } from 'commander';
import { DEFAULT_MAX_PIN_CHANGES } from '../domain/max-pin-changes.js';
import { parseCount } from './parse-options.js';

/**
 * maxPinChangesOption is `--max-pin-changes N` (default 100): apply refuses a plan
 * rewriting more members' pinned lists, self-heal repairs that many at most, and plan
 * takes the same flag to say so at review time, as `--max-deletes` does for views.
 */
export function maxPinChangesOption(description: string): Option {
  return new Option('--max-pin-changes <n>', description)
    .default(DEFAULT_MAX_PIN_CHANGES)
    .argParser((value) => parseCount(value, '--max-pin-changes'));
}
