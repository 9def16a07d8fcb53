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

/** viewctlErrorOf is the ViewctlError `run` throws, or undefined when it throws none; any other throw is rethrown (a bug). */
export function viewctlErrorOf(run: () => unknown): ViewctlError | undefined {
  try {
    run();
  } catch (error) {
    if (error instanceof ViewctlError) return error;
    throw error;
  }
  return undefined;
}

/** thrownViewctlError is the ViewctlError `run` must throw. */
export function thrownViewctlError(run: () => unknown): ViewctlError {
  const error = viewctlErrorOf(run);
  if (error === undefined) throw new Error('expected an error');
  return error;
}
