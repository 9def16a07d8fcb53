/**
 * Build step (`npm run build`, after tsc): compiles the validator of each manifest
 * kind to code once and writes it to dist/manifest/kind-validators.cjs with the
 * digest of the schemas, so that a run loads validators instead of compiling the
 * schemas at start-up (most of a one-file validate's time).
 */
import { writeFileSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { _ } from 'ajv';
import standaloneCodeModule from 'ajv/dist/standalone/index.js';
import { KIND_SCHEMAS, KIND_VALIDATORS_FILE, SCHEMA_BASE, newRegistry, schemasDigest } from './schema-registry.js';

const standaloneCode = standaloneCodeModule.default;

/**
 * kindValidatorsSource is the CommonJS module of the kinds' validators: one export
 * per kind, and `schemasDigest`. Ajv writes `require` calls for its runtime helpers
 * and the formats, hence CommonJS; the options are the run-time registry's.
 */
export function kindValidatorsSource(): string {
  const ajv = newRegistry({ source: true, formats: _`require("ajv-formats/dist/formats").fullFormats` });
  const refs = Object.fromEntries(Object.entries(KIND_SCHEMAS).map(([kind, file]) => [kind, SCHEMA_BASE + file]));
  return `${standaloneCode(ajv, refs)}\nexports.schemasDigest = ${JSON.stringify(schemasDigest())};\n`;
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const file = new URL(KIND_VALIDATORS_FILE, import.meta.url);
  writeFileSync(file, kindValidatorsSource());
  process.stdout.write(`wrote ${fileURLToPath(file)}\n`);
}
