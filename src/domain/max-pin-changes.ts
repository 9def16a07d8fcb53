/**
 * DEFAULT_MAX_PIN_CHANGES is `--max-pin-changes` when not given: apply refuses a plan
 * rewriting more members' pinned lists (exit 3), and plan says so at review time. A
 * glob typo (`*@*`) in a group document rewrites every member's tabs at once; a real
 * change of that size is rare and deserves saying so on the command line.
 */
export const DEFAULT_MAX_PIN_CHANGES = 100;
