import { Option } from 'commander';
import { DEFAULT_MAX_DELETES } from '../domain/max-deletes.js';
import { parseCount } from './parse-options.js';

/**
 * maxDeletesOption is `--max-deletes N` (default 5): apply refuses a plan deleting
 * more, and plan takes the same flag to say so at review time, as a Terraform user
 * expects a plan to show what apply will do with the same settings.
 */
export function maxDeletesOption(description: string): Option {
  return new Option('--max-deletes <n>', description)
    .default(DEFAULT_MAX_DELETES)
    .argParser((value) => parseCount(value, '--max-deletes'));
}
