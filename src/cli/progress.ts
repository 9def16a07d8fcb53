/**
 * progressReporter prints progress of a long run on stderr: nothing for short runs
 * (under 20 requests), otherwise a line at each quarter, so CI logs stay short.
 */
export function progressReporter(stream: NodeJS.WritableStream, label: string): (done: number, total: number) => void {
  let lastQuarter = 0;
  return (done, total) => {
    if (total < 20) return;
    const quarter = Math.floor((done / total) * 4);
    if (quarter <= lastQuarter) return;
    lastQuarter = quarter;
    stream.write(`${label}: ${done}/${total} requests\n`);
  };
}
