import type { Plan } from '../plan/types.js';
import { jsonText } from '../text/json-text.js';

// The rule is a text helper (a plan file is written by it too, outside rendering); renderers name it here.
export { jsonText };

/** renderJson is the machine-readable plan: the Plan itself, indented, with a final newline. */
export function renderJson(plan: Plan): string {
  return jsonText(plan);
}
