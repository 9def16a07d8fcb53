/** PROGRESS_INTERVAL_MS is the longest a long run stays silent on stderr. */
const PROGRESS_INTERVAL_MS = 5_000;

/**
 * progressReporter prints progress of a long run on stderr: nothing for short runs
 * (under 20 requests), otherwise a line every PROGRESS_INTERVAL_MS and one at the
 * end, so a CI log shows the run is alive without a line per request. `now` is the
 * clock in milliseconds (injected by tests).
 */
export function progressReporter(
  stream: NodeJS.WritableStream,
  label: string,
  now: () => number = () => performance.now(),
): (done: number, total: number) => void {
  let last: number | undefined;
  return (done, total) => {
    if (total < 20) return;
    const at = now();
    last ??= at;
    if (done < total && at - last < PROGRESS_INTERVAL_MS) return;
    last = at;
    stream.write(`${label}: ${done}/${total} requests\n`);
  };
}
