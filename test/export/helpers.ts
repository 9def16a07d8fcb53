import { PassThrough } from 'node:stream';
import { Command } from 'commander';
import { registerExportCommand } from '../../src/cli/export-command.js';
import type { CliIo } from '../../src/cli/io.js';
import { ViewctlError } from '../../src/errors.js';
import type { ManifestSource } from '../../src/manifest/source.js';
import type { Problem } from '../../src/manifest/types.js';
import type { Plan } from '../../src/plan/types.js';
import { createServiceClient } from '../../src/service/client.js';
import type { ServiceClient } from '../../src/service/types.js';
import { planManifests as planFlow } from '../../src/flows/plan-manifests.js';
import { connected } from '../../src/flows/run-edges.js';
import { ManifestInvalidError } from '../../src/manifest/format-problems.js';

/** FAST_LIMITS raise the emulator's limits: these tests are not about the limit. */
export const FAST_LIMITS = { rate: 1000, burst: 1000, quota: 1_000_000 } as const;

/** ExportRun is what one in-process `viewctl export` printed and returned. */
export interface ExportRun {
  code: number;
  stdout: string;
  stderr: string;
  error?: ViewctlError;
}

function collector(): { stream: PassThrough; text: () => string } {
  const stream = new PassThrough();
  const chunks: string[] = [];
  stream.on('data', (chunk: Buffer) => chunks.push(chunk.toString()));
  return { stream, text: () => chunks.join('') };
}

/**
 * runExport runs `viewctl export ARGS` in-process, on a program holding only the
 * export command, and reports a ViewctlError the way the top-level catch does.
 */
export async function runExport(
  args: string[],
  options: { cwd: string; env?: Record<string, string> },
): Promise<ExportRun> {
  const stdout = collector();
  const stderr = collector();
  const io: CliIo = {
    stdout: stdout.stream,
    stderr: stderr.stream,
    stdin: new PassThrough(),
    env: options.env ?? {},
    cwd: options.cwd,
  };
  const outcome = { exitCode: 0 };
  const program = new Command('viewctl').exitOverride().configureOutput({
    writeOut: (text) => stdout.stream.write(text),
    writeErr: (text) => stderr.stream.write(text),
  });
  registerExportCommand(program, io, outcome);
  try {
    await program.parseAsync(['export', ...args], { from: 'user' });
    return { code: outcome.exitCode, stdout: stdout.text(), stderr: stderr.text() };
  } catch (error) {
    if (!(error instanceof ViewctlError)) throw error;
    return { code: error.exitCode, stdout: stdout.text(), stderr: stderr.text(), error };
  }
}

/** clientFor opens a fast client on a running emulator. */
export function clientFor(emulator: { url: string; apiKey: string }): ServiceClient {
  return createServiceClient({ baseUrl: emulator.url, apiKey: emulator.apiKey, rate: 1000, burst: 1000 });
}

/** PlanCheck is a plan of manifests against live state, and the validation problems met on the way. */
export interface PlanCheck {
  problems: Problem[];
  plan?: Plan;
}

/** planManifests loads, validates and plans the manifests under `paths` against the service: the flow `viewctl plan` calls. */
export async function planManifests(
  paths: string[],
  source: ManifestSource,
  client: ServiceClient,
): Promise<PlanCheck> {
  const problems: Problem[] = [];
  try {
    const { plan } = await planFlow(
      { paths, scope: {}, recordTrees: false },
      { cwd: process.cwd(), files: source, connect: connected(client), onWarnings: (found) => problems.push(...found) },
    );
    return { problems, plan };
  } catch (error) {
    if (error instanceof ManifestInvalidError) return { problems: [...error.problems] };
    throw error;
  }
}
