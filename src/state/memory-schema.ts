import { readFileSync } from 'node:fs';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import { schemaProblem } from '../text/schema-problem.js';
import { InternalError } from '../errors.js';

/**
 * The sweep memory file's shape is written once, in `schemas/ledger/ledger.schema.json`
 * (the `SweepMemory` type of sweep-memory.ts), and ajv checks a file against it before
 * any of it is used, as the plan file is checked against its schema.
 */

/** LEDGER_SCHEMA_FILE is the schema's location in the package; the same path works from `src/` and `dist/`. */
export const LEDGER_SCHEMA_FILE = new URL('../../schemas/ledger/ledger.schema.json', import.meta.url);

let validator: ValidateFunction | undefined;

/**
 * memoryShapeProblems lists where `data` departs from the ledger schema, as
 * `path: what` strings (the JSON pointer of the part); empty when it fits. A schema that
 * cannot be read or compiled is viewctl's fault, never the file's: an InternalError.
 */
export function memoryShapeProblems(data: unknown): string[] {
  validator ??= compile();
  if (validator(data)) return [];
  // A key that breaks `propertyNames` is reported once, by that keyword, not also by the pattern inside it.
  const errors = (validator.errors ?? []).filter(
    (error) => error.keyword === 'propertyNames' || error.propertyName === undefined,
  );
  return [...new Set(errors.map((error) => schemaProblem(error)))];
}

function compile(): ValidateFunction {
  try {
    return new Ajv2020({ allErrors: true, strict: true }).compile(
      JSON.parse(readFileSync(LEDGER_SCHEMA_FILE, 'utf8')) as object,
    );
  } catch (error) {
    const why =
      error instanceof Error && 'code' in error
        ? String(error.code)
        : error instanceof Error
          ? error.message
          : String(error);
    throw new InternalError(
      `the sweep memory schema (schemas/ledger/ledger.schema.json in the installed package) cannot be loaded: ${why}`,
      { cause: error },
    );
  }
}
