import { Option } from 'commander';

/**
 * showWarningsOption is `--show-warnings` (validate, plan, apply): every warning on a
 * line of its own with its position, instead of one line per code with the count and
 * the places (README, "Warnings").
 */
export function showWarningsOption(): Option {
  return new Option(
    '--show-warnings',
    'list every warning with its position, instead of one line per code with the count and the places',
  );
}
