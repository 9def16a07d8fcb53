import { demoWorkspace } from '../../src/emulator/demo/demo-workspace.js';
import type { EmulatorOptions, RunningEmulator } from '../../src/emulator/server.js';
import { startEmulator } from '../../src/emulator/server.js';
import { DEFAULT_RETRY_POLICY } from '../../src/service/retry-policy.js';
import { runCli } from '../e2e/harness.js';
import { comparable } from '../support/cli.js';
import { duplicateNames, runInProcess, type CliResult } from '../support/cli.js';
import { WORKLOAD_FLAGS } from './workload.js';

/**
 * Fault runs through the real CLI: the workload applied against an emulator that
 * injects one kind of fault (or several), re-run until a plan shows nothing to do
 * (at most three applies), then compared with a fault-free run. Shared by the
 * hardening tests and the soak (test/bench/soak.ts).
 */

/** FaultKind names what an emulator injects. */
export type FaultKind = 'latency' | 'fail-503' | 'rate-429' | 'drop-after-commit' | 'restart' | 'mixed' | 'concurrent';

/** Runner runs one CLI invocation: in-process through `run()`, or the built CLI in a child process. */
export type Runner = (args: string[], env: Record<string, string>) => Promise<CliResult>;

/** inProcess runs the CLI through `run()`. */
export const inProcess: Runner = (args, env) => runInProcess(args, { env });

/** spawned runs the built CLI (`npm run build` first) in a child process. */
export const spawned: Runner = async (args, env) => {
  const result = await runCli(args, { env });
  return { code: result.code, stdout: result.stdout, stderr: result.stderr };
};

/** FAST is an emulator without limits in the way, for faults that are not the limits. */
export const FAST: Partial<EmulatorOptions> = { rate: 1000, burst: 1000, quota: 1_000_000 };

/**
 * RETRY_BUDGET_MS is the longest the client backs off over one request's retries with
 * default settings: the sum of each retry's backoff ceiling (500 ms doubling, 10 s cap).
 */
export const RETRY_BUDGET_MS = Array.from({ length: DEFAULT_RETRY_POLICY.maxAttempts - 1 }, (_, retry) =>
  Math.min(DEFAULT_RETRY_POLICY.capMs, DEFAULT_RETRY_POLICY.baseMs * 2 ** retry),
).reduce((sum, ms) => sum + ms, 0);

/** FaultScenario is one emulator configuration and how the CLI is pointed at it. */
export interface FaultScenario {
  kind: FaultKind;
  seed: number;
  emulator: Partial<EmulatorOptions>;
  /** `--rate` of the CLI; above the emulator's rate for 429 scenarios. */
  clientRate: number;
  /** Restart scenarios: close the emulator under the first request after this many writes and start it again on the same port and state file. */
  restart?: { afterWrites: number; statePath: string };
  /** Concurrent scenarios: the first apply is this many applies at once. */
  together?: number;
}

/** ScenarioResult is what came of one scenario. */
export interface ScenarioResult {
  kind: FaultKind;
  seed: number;
  /** Exit code of each apply, in order. */
  applies: number[];
  /** Applies it took until a plan showed nothing to do; null when three did not converge. */
  convergedAfter: number | null;
  faultsInjected: number;
  rateLimited: number;
  /** Restart scenarios: whether the emulator went down while the first apply was running. */
  restartedMidApply: boolean;
  duplicates: string[];
  /** Whether the final workspace equals the fault-free run's. */
  matchesFaultFree: boolean;
  /** Applies whose exit code does not match what their output says happened. */
  wrongExits: string[];
  /** Output of every CLI run, for failure messages. */
  transcript: string[];
}

/**
 * wrongExit says why an apply's exit code contradicts its own account, or undefined
 * when they agree: 0 only when everything applied, 1 only when no write landed or may
 * have, 4 only with the account of a partial run, 3 only for a refusal.
 */
export function wrongExit(result: CliResult): string | undefined {
  const output = result.stdout + result.stderr;
  const partial = /Apply failed part-way|Apply interrupted|Verification found|Applied, but/.test(output);
  const wrote = /Landed:\n {2}(?!\(none\))/.test(output) || /May have landed/.test(output);
  if (/internal error|\n\s+at /.test(output)) return `exit ${result.code} with an internal error`;
  switch (result.code) {
    case 0:
      return partial ? 'exit 0 after a partial run' : undefined;
    case 1:
      return wrote ? 'exit 1 though writes landed or may have' : undefined;
    case 3:
      return /error\[apply\.(max-deletes|digest-unexpected)\]/.test(output) ? undefined : 'exit 3 without a refusal';
    case 4:
      return partial ? undefined : 'exit 4 without an account of what landed';
    default:
      return `exit ${result.code}`;
  }
}

/**
 * faultScenario picks the emulator options of a fault kind for a seed. Rates are
 * chosen so that a workload apply meets a few faults of the kind.
 */
export function faultScenario(kind: FaultKind, seed: number, statePath?: string): FaultScenario {
  const base = { kind, seed, clientRate: 1000 };
  switch (kind) {
    case 'latency':
      return { ...base, emulator: { ...FAST, seed, latencyMs: 5 + (seed % 4) * 10 } };
    case 'fail-503':
      return { ...base, emulator: { ...FAST, seed, failRate: 0.15 } };
    case 'drop-after-commit':
      return { ...base, emulator: { ...FAST, seed, dropAfterCommitRate: 0.25 } };
    case 'rate-429':
      // The service allows 10/s with no burst; the client is told it may send 40/s, and
      // with 40 ms of latency it sends again before an answer says the endpoint is spent.
      return { ...base, clientRate: 40, emulator: { seed, rate: 10, burst: 1, quota: 1_000_000, latencyMs: 40 } };
    case 'restart':
      if (statePath === undefined) throw new Error('a restart scenario needs a state file');
      return { ...base, emulator: { ...FAST, seed }, restart: { afterWrites: 2 + (seed % 5), statePath } };
    case 'mixed':
      return { ...base, emulator: { ...FAST, seed, latencyMs: seed % 7, failRate: 0.1, dropAfterCommitRate: 0.15 } };
    case 'concurrent':
      // Two applies of the same manifests at once, both planning the same creates, under faults.
      return {
        ...base,
        together: 2,
        emulator: { ...FAST, seed, latencyMs: 5 + (seed % 5), failRate: 0.1, dropAfterCommitRate: 0.15 },
      };
  }
}

/** faultFreeState applies the workload once without faults and returns the comparable result. */
export async function faultFreeState(dir: string, runner: Runner): Promise<ReturnType<typeof comparable>> {
  const emulator = await startEmulator({ data: demoWorkspace(), port: 0, ...FAST });
  try {
    const apply = await runner(['apply', dir, ...WORKLOAD_FLAGS, '--rate', '1000'], env(emulator));
    if (apply.code !== 0)
      throw new Error(`the fault-free apply failed (${apply.code}):\n${apply.stdout}\n${apply.stderr}`);
    return comparable(emulator.snapshot());
  } finally {
    await emulator.close();
  }
}

/** runScenario applies the workload in `dir` under a scenario's faults until it converges (three applies at most). */
export async function runScenario(
  scenario: FaultScenario,
  dir: string,
  expected: ReturnType<typeof comparable>,
  runner: Runner,
): Promise<ScenarioResult> {
  const options: EmulatorOptions = { data: demoWorkspace(), port: 0, ...scenario.emulator };
  if (scenario.restart !== undefined) options.statePath = scenario.restart.statePath;
  const counted = { faultsInjected: 0, rateLimited: 0 };
  const transcript: string[] = [];
  const applies: number[] = [];
  let convergedAfter: number | null = null;
  let restartedMidApply = false;
  const args = ['apply', dir, ...WORKLOAD_FLAGS, '--rate', String(scenario.clientRate)];
  let emulator: RunningEmulator;
  let restartedApply: CliResult | undefined;
  if (scenario.restart === undefined) {
    emulator = await startEmulator(options);
  } else {
    const { afterWrites } = scenario.restart;
    const restarted = await applyAcrossRestart(
      options,
      { holds: (_endpoint, writes) => writes >= afterWrites, comesBack: 'at-once' },
      (environment) => runner(args, environment),
      counted,
    );
    ({ emulator, midApply: restartedMidApply } = restarted);
    restartedApply = restarted.apply;
  }
  const applyResults: CliResult[] = [];
  const record = (label: string, result: CliResult): CliResult => {
    transcript.push(`$ viewctl ${label} → ${result.code}\n${result.stdout}${result.stderr}`);
    if (label.startsWith('apply')) applyResults.push(result);
    return result;
  };
  try {
    for (let attempt = 1; attempt <= 3 && convergedAfter === null; attempt += 1) {
      let apply: CliResult;
      if (scenario.together !== undefined && attempt === 1) {
        const runs = await Promise.all(Array.from({ length: scenario.together }, () => runner(args, env(emulator))));
        for (const extra of runs.slice(1)) applies.push(record('apply (concurrent)', extra).code);
        apply = runs[0] as CliResult;
      } else if (restartedApply !== undefined && attempt === 1) {
        apply = restartedApply;
      } else {
        apply = await runner(args, env(emulator));
      }
      applies.push(record('apply', apply).code);
      const plan = record(
        'plan',
        await runner(['plan', dir, '--detailed-exitcode', '--rate', String(scenario.clientRate)], env(emulator)),
      );
      if (plan.code === 0) convergedAfter = attempt;
    }
    const final = emulator.snapshot();
    counted.faultsInjected += emulator.stats().faultsInjected;
    counted.rateLimited += emulator.stats().rateLimited;
    return {
      kind: scenario.kind,
      seed: scenario.seed,
      applies,
      convergedAfter,
      ...counted,
      restartedMidApply,
      duplicates: duplicateNames(final),
      matchesFaultFree: JSON.stringify(comparable(final)) === JSON.stringify(expected),
      wrongExits: applyResults.flatMap((result, index) => {
        const why = wrongExit(result);
        return why === undefined ? [] : [`apply ${index + 1}: ${why}`];
      }),
      transcript,
    };
  } finally {
    await emulator.close();
  }
}

/**
 * Restart says when an apply's emulator is stopped and started again on the same port
 * and state file: under the first request `holds` picks (by its `METHOD /template`
 * endpoint and the writes landed so far), which the emulator holds until it is closed,
 * so that request is in flight when the service goes away, however fast the machine.
 */
export interface Restart {
  holds: (endpoint: string, writes: number) => boolean;
  /** 'at-once': started again as soon as it is down; 'after-apply': only once the apply gave up (an outage past every retry). */
  comesBack: 'at-once' | 'after-apply';
  /** Told as the service goes down and once it is back: a test's clock holds the client's waits in between. */
  onDown?: () => void;
  onUp?: () => void;
}

/**
 * applyAcrossRestart starts an emulator with `options`, starts an apply against it
 * (`start` gets its address), restarts the emulator as `restart` says, and returns the
 * restarted emulator, the apply's result, whether the restart came mid-apply (false
 * when the apply ended before any request was held), the request held, and the
 * requests per endpoint the first emulator received. The emulator's latency hook is
 * the hold: `latencyMs` is 1 and its wait never uses a timer.
 */
export async function applyAcrossRestart(
  options: EmulatorOptions,
  restart: Restart,
  start: (env: Record<string, string>) => Promise<CliResult>,
  counted: { faultsInjected: number; rateLimited: number },
): Promise<{
  emulator: RunningEmulator;
  apply: CliResult;
  midApply: boolean;
  held: string | undefined;
  before: Record<string, number>;
}> {
  const gate = holdingGate(restart.holds);
  const emulator = await startEmulator({ ...options, latencyMs: 1, sleep: gate.sleep });
  gate.watch(emulator);
  const port = Number(new URL(emulator.url).port);
  const running = start(env(emulator));
  const held = await Promise.race([
    gate.held,
    running.then(
      () => undefined,
      () => undefined,
    ),
  ]);
  // Read with no turn of the event loop before the close: nothing reaches this emulator after it.
  const stats = emulator.stats();
  counted.faultsInjected += stats.faultsInjected;
  counted.rateLimited += stats.rateLimited;
  restart.onDown?.();
  // Closing cuts the held request's connection; released, its handler sees the emulator closed and does nothing.
  await emulator.close();
  gate.release();
  if (restart.comesBack === 'after-apply') await running.catch(() => undefined);
  const { latencyMs: _latency, sleep: _sleep, ...plain } = options;
  const restarted = await startEmulator({ ...plain, port });
  restart.onUp?.();
  return { emulator: restarted, apply: await running, midApply: held !== undefined, held, before: stats.byEndpoint };
}

/**
 * holdingGate is an emulator latency hook that holds the first request `holds` picks
 * until released, and tells which one it held. The hook runs right after the emulator
 * counted the request under its endpoint, with no wait in between, so the endpoint
 * whose count grew since the last call is this request's (the limits are raised: no
 * 429 counts a request without reaching the hook).
 */
function holdingGate(holds: Restart['holds']): {
  sleep: (ms: number) => Promise<void>;
  watch(emulator: RunningEmulator): void;
  held: Promise<string>;
  release(): void;
} {
  let emulator: RunningEmulator | undefined;
  let seen: Record<string, number> = {};
  let holding = false;
  let tell: (endpoint: string) => void = () => undefined;
  let release: () => void = () => undefined;
  const held = new Promise<string>((resolve) => (tell = resolve));
  const released = new Promise<void>((resolve) => (release = resolve));
  return {
    watch: (running) => {
      emulator = running;
    },
    sleep: async () => {
      if (emulator === undefined || holding) return;
      const { byEndpoint, writes } = emulator.stats();
      const endpoint = Object.keys(byEndpoint).find((key) => (byEndpoint[key] ?? 0) > (seen[key] ?? 0));
      seen = byEndpoint;
      if (endpoint === undefined || !holds(endpoint, writes)) return;
      holding = true;
      tell(endpoint);
      await released;
    },
    held,
    release,
  };
}

function env(emulator: RunningEmulator): Record<string, string> {
  return { VIEWCTL_BASE_URL: emulator.url, VIEWCTL_API_KEY: emulator.apiKey };
}
