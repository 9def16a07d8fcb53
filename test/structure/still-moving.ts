/**
 * STILL_MOVING are the CLI files that still carry a flow's steps while other tasks move
 * them out, in parallel with the structure tests (cli-imports.test.ts and
 * contributor-map.test.ts skip them): `apply` with its sweep-memory steps and
 * self-heal's git checks (apply-command.ts, ledger-advance.ts, applied-manifests.ts) go
 * to src/flows/ with the apply-and-self-heal flow (issue 32, apply and self-heal with one
 * review gate). Delete each entry when its move
 * is merged: the tests then hold the file to the rule like every other.
 */
export const STILL_MOVING: readonly string[] = [
  'cli/apply-command.ts',
  'cli/ledger-advance.ts',
  'cli/applied-manifests.ts',
];
