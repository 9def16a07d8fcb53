import { ViewctlError } from '../../src/errors.js';

/**
 * errorCodeOf runs `run` and says how it failed: the code of a ViewctlError, 'other'
 * for any other throw (a bug), undefined when it did not throw.
 */
export function errorCodeOf(run: () => unknown): string | undefined {
  try {
    run();
  } catch (error) {
    return error instanceof ViewctlError ? error.code : 'other';
  }
  return undefined;
}
