import type { Plan } from '../plan/types.js';
import { renderJson } from './json.js';
import { renderMarkdown } from './markdown.js';
import type { RenderOptions } from './options.js';
import { renderText } from './text.js';

/** OutputFormat is a value of `--format`. */
export type OutputFormat = 'text' | 'markdown' | 'json';

/** renderPlan renders a plan in the chosen format: what `plan` prints and `apply` shows before asking. */
export function renderPlan(plan: Plan, format: OutputFormat, options: RenderOptions): string {
  if (format === 'json') return renderJson(plan);
  if (format === 'markdown') return renderMarkdown(plan, options);
  return renderText(plan, options);
}
