import { DEFAULT_RATE } from '../../src/domain/domains.js';

/**
 * The benchmark table: the rate-limit floor every live row is judged against, the
 * verdict per row and the plain-text rendering. Pure: run.ts measures and prints.
 */

/** RateLimits are a service's per-endpoint limits: steady requests per second and burst. */
export interface RateLimits {
  rate: number;
  burst: number;
}

/**
 * SERVICE_LIMITS are the emulator's defaults, which are the service's limits
 * (the service: 3 per second per endpoint; the emulator's burst allowance is 3).
 */
export const SERVICE_LIMITS: RateLimits = { rate: DEFAULT_RATE, burst: 3 };

/** RATIO_TARGET is the largest wall/floor ratio a live row may show. */
export const RATIO_TARGET = 1.15;

/** LiveMeasurement is one run against the emulator, with the requests it saw. */
export interface LiveMeasurement {
  wallMs: number;
  /** Requests the emulator received, 429s included. */
  requests: number;
  /** The request floor of the task, and how it adds up. */
  minimumRequests: number;
  minimumBreakdown: string;
  /** The emulator's `stats().byEndpoint`: requests per `METHOD /route/template`. */
  byEndpoint: Record<string, number>;
  /** 429s the emulator answered. */
  rateLimited: number;
  limits: RateLimits;
  /** Where the wall time went, or what was done, for the footnotes. */
  detail?: string;
}

/** RateFloor is the least time the requests could take under the limits, and the endpoint that sets it. */
export interface RateFloor {
  floorMs: number;
  endpoint: string | undefined;
  calls: number;
}

/**
 * rateFloor is max over endpoints of max(0, (calls − burst) / rate) seconds: an idle
 * endpoint takes `burst` calls at once, then one every 1/rate s. No client can finish
 * sooner, whatever it overlaps.
 */
export function rateFloor(byEndpoint: Record<string, number>, limits: RateLimits): RateFloor {
  let floor: RateFloor = { floorMs: 0, endpoint: undefined, calls: 0 };
  for (const [endpoint, calls] of Object.entries(byEndpoint)) {
    const floorMs = (Math.max(0, calls - limits.burst) / limits.rate) * 1000;
    if (floor.endpoint === undefined || floorMs > floor.floorMs) floor = { floorMs, endpoint, calls };
  }
  return floor;
}

/** BenchRow is one line of the table: a timed computation, a live run, or a row that threw. */
export type BenchRow =
  | { kind: 'timed'; id: string; label: string; wallMs: number; targetMs: number }
  /** Two tools on the same input in the same run: met when ours takes no longer than the peer. */
  | {
      kind: 'peer';
      id: string;
      label: string;
      peerName: string;
      oursMs: number;
      peerMs: number;
      oursRssKb?: number;
      peerRssKb?: number;
    }
  | { kind: 'live'; id: string; label: string; measured: LiveMeasurement }
  /**
   * A scoped or budgeted run: met when it sent at most `targetRequests` and every check
   * held (`checks` lists those that did not); `fullPlanRequests` is what a full plan of
   * the same workspace needs, shown beside it.
   */
  | {
      kind: 'budgeted';
      id: string;
      label: string;
      wallMs: number;
      requests: number;
      targetRequests: number;
      fullPlanRequests: number;
      checks: string[];
      detail: string;
    }
  | { kind: 'failed'; id: string; label: string; error: string };

/** Verdict says whether a row met its targets and, if not, why. */
export interface Verdict {
  met: boolean;
  reasons: string[];
}

/** verdict judges one row: timed rows against their wall target; live rows on ratio, 429s and requests. */
export function verdict(row: BenchRow): Verdict {
  if (row.kind === 'failed') return { met: false, reasons: [`threw: ${row.error}`] };
  if (row.kind === 'peer') {
    const ratio = row.oursMs / row.peerMs;
    return ratio <= 1
      ? { met: true, reasons: [] }
      : { met: false, reasons: [`${ratio.toFixed(2)} × ${row.peerName}'s wall time (target ≤ 1.00)`] };
  }
  if (row.kind === 'budgeted') {
    const reasons = [
      ...(row.requests <= row.targetRequests ? [] : [`${row.requests} requests, above ${row.targetRequests}`]),
      ...row.checks,
    ];
    return { met: reasons.length === 0, reasons };
  }
  if (row.kind === 'timed') {
    return row.wallMs < row.targetMs
      ? { met: true, reasons: [] }
      : { met: false, reasons: [`${formatMs(row.wallMs)} is not under ${formatMs(row.targetMs)}`] };
  }
  const { measured } = row;
  const reasons: string[] = [];
  const ratio = wallRatio(measured);
  if (!(ratio <= RATIO_TARGET)) reasons.push(`wall/floor ${ratio.toFixed(2)} is above ${RATIO_TARGET}`);
  if (measured.rateLimited > 0) reasons.push(`the emulator answered ${measured.rateLimited} × 429`);
  if (measured.requests > measured.minimumRequests) {
    reasons.push(
      `${measured.requests} requests, ${measured.requests - measured.minimumRequests} above the floor of ${measured.minimumRequests}`,
    );
  }
  return { met: reasons.length === 0, reasons };
}

/** MachineInfo says where the figures were taken, so they can be judged. */
export interface MachineInfo {
  node: string;
  platform: string;
  cpus: number;
  cpuModel: string;
  loadAverage: readonly number[];
}

/** renderTable renders the header, the table, its footnotes and the reasons for any ✗. */
export function renderTable(rows: readonly BenchRow[], machine: MachineInfo, totalMs: number): string {
  const load = machine.loadAverage.map((value) => value.toFixed(2)).join(' ');
  const header = `viewctl bench · node ${machine.node} · ${machine.platform} · ${machine.cpus} CPUs (${machine.cpuModel}) · load average at start ${load} (1, 5, 15 min)`;
  const cells = [COLUMNS, ...rows.map(rowCells)];
  const widths = COLUMNS.map((_, column) => Math.max(...cells.map((line) => width(line[column] ?? ''))));
  const lines = cells.map((line) =>
    line
      .map((cell, column) => pad(cell, widths[column] ?? 0))
      .join('  ')
      .trimEnd(),
  );
  lines.splice(1, 0, widths.map((size) => '─'.repeat(size)).join('  '));
  return [
    header,
    '',
    ...lines,
    '',
    ...footnotes(rows),
    ...failures(rows),
    '',
    `total ${formatSeconds(totalMs)}`,
    '',
  ].join('\n');
}

const COLUMNS = ['#', 'benchmark', 'wall', 'target', 'floor¹', 'wall/floor', 'requests/min²', '429s', 'naive³', 'met'];

function rowCells(row: BenchRow): string[] {
  const mark = verdict(row).met ? '✓' : '✗';
  if (row.kind === 'failed') return [row.id, row.label, 'threw', '', '', '', '', '', '', mark];
  if (row.kind === 'timed')
    return [row.id, row.label, formatMs(row.wallMs), `< ${formatMs(row.targetMs)}`, '', '', '', '', '', mark];
  if (row.kind === 'budgeted') {
    return [
      row.id,
      row.label,
      formatSeconds(row.wallMs),
      `≤ ${row.targetRequests} requests`,
      '',
      '',
      `${row.requests} (full plan ${row.fullPlanRequests.toLocaleString('en-US')})`,
      '',
      '',
      mark,
    ];
  }
  if (row.kind === 'peer') {
    const rss = (kb: number | undefined): string => (kb === undefined ? '' : `, ${Math.round(kb / 1024)} MiB peak`);
    return [
      row.id,
      row.label,
      `${formatMs(row.oursMs)}${rss(row.oursRssKb)}`,
      `≤ ${row.peerName}: ${formatMs(row.peerMs)}${rss(row.peerRssKb)}`,
      '',
      `${(row.oursMs / row.peerMs).toFixed(2)} × peer`,
      '',
      '',
      '',
      mark,
    ];
  }
  const { measured } = row;
  const floor = rateFloor(measured.byEndpoint, measured.limits);
  return [
    row.id,
    row.label,
    formatSeconds(measured.wallMs),
    `≤ ${RATIO_TARGET} × floor, 0 × 429`,
    formatSeconds(floor.floorMs),
    wallRatio(measured).toFixed(2),
    `${measured.requests} / ${measured.minimumRequests}`,
    String(measured.rateLimited),
    `${formatSeconds((measured.requests / measured.limits.rate) * 1000)} (computed)`,
    mark,
  ];
}

function footnotes(rows: readonly BenchRow[]): string[] {
  const live = rows.filter((row): row is Extract<BenchRow, { kind: 'live' }> => row.kind === 'live');
  const limits = live[0]?.measured.limits ?? SERVICE_LIMITS;
  const notes = [
    `¹ floor = max over endpoints of max(0, (calls − burst) / rate) s, calls as counted by the emulator, rate ${limits.rate}/s and burst ${limits.burst}`,
    "  (its defaults): the least time any client needs, however it overlaps endpoints. viewctl's client never bursts",
    '  (it starts calls to one endpoint at least 1/rate s apart), so its own best is (calls − 1) / rate on the busiest endpoint.',
    '² requests the emulator received (429s included) / the floor of the task; a live row needs requests ≤ minimum.',
    `³ naive = requests / rate: one request at a time at ${limits.rate}/s; computed, not run.`,
  ];
  for (const row of rows) if (row.kind === 'budgeted') notes.push(`row ${row.id}: ${row.detail}`);
  for (const row of live) {
    const { measured } = row;
    const floor = rateFloor(measured.byEndpoint, measured.limits);
    if (measured.detail !== undefined) notes.push(`row ${row.id}: ${measured.detail}`);
    notes.push(
      `row ${row.id}: minimum ${measured.minimumRequests} = ${measured.minimumBreakdown}; floor set by ${floor.endpoint ?? '(no requests)'} (${floor.calls} calls)`,
    );
    const spread = Object.entries(measured.byEndpoint)
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([endpoint, calls]) => `${endpoint} ${calls}`);
    notes.push(`  requests by endpoint: ${spread.join(', ')}`);
  }
  return notes;
}

function failures(rows: readonly BenchRow[]): string[] {
  const lines: string[] = [];
  for (const row of rows) {
    const { met, reasons } = verdict(row);
    if (!met) lines.push(`✗ row ${row.id} (${row.label}): ${reasons.join('; ')}`);
  }
  return lines.length === 0 ? [] : ['', ...lines];
}

function wallRatio(measured: LiveMeasurement): number {
  const floor = rateFloor(measured.byEndpoint, measured.limits).floorMs;
  return floor === 0 ? Number.POSITIVE_INFINITY : measured.wallMs / floor;
}

/** formatMs is a duration in whole milliseconds with thousands separators. */
export function formatMs(ms: number): string {
  return `${Math.round(ms).toLocaleString('en-US')} ms`;
}

/** formatSeconds is a duration in seconds with two decimals. */
export function formatSeconds(ms: number): string {
  return `${(ms / 1000).toFixed(2)} s`;
}

// Code points, not UTF-16 units, so × and ✓ pad like any other character.
function width(text: string): number {
  return [...text].length;
}

function pad(text: string, size: number): string {
  return text + ' '.repeat(Math.max(0, size - width(text)));
}
