import type { Plan } from '../plan/types.js';
import type { RenderOptions } from './options.js';

/**
 * renderJson is the machine-readable plan: the Plan itself, indented, with a final
 * newline. It takes the renderers' options for a uniform signature; none applies.
 */
export function renderJson(plan: Plan, _options?: RenderOptions): string {
  return `${JSON.stringify(plan, null, 2)}\n`;
}
