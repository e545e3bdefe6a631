/**
 * Progress on long work: one redrawn status line on stderr when stderr is a TTY and not in CI;
 * nothing at all otherwise, so logs and pipes stay clean.
 */
export interface Progress {
  /** A phase with optional done/total; redrawn at most ten times a second. */
  update(label: string, done?: number, total?: number): void;
  /** A line that stays (a finished variant). */
  log(line: string): void;
  done(): void;
}

export function progressFor(stream: NodeJS.WriteStream = process.stderr, env = process.env): Progress {
  const enabled = stream.isTTY === true && !env.CI && env.NDD_BENCH_NO_PROGRESS === undefined;
  if (!enabled) return { update() {}, log() {}, done() {} };
  const started = Date.now();
  let last = 0;
  let shown = false;
  const clear = (): void => {
    if (shown) stream.write('\r\x1b[2K');
    shown = false;
  };
  return {
    update(label, done, total) {
      const now = Date.now();
      if (now - last < 100 && !(total !== undefined && done === total)) return;
      last = now;
      const elapsed = ((now - started) / 1000).toFixed(1);
      let text = `${label}`;
      if (done !== undefined && total !== undefined && total > 0) {
        const pct = ((100 * done) / total).toFixed(0);
        text += ` ${done.toLocaleString('en-US')}/${total.toLocaleString('en-US')} (${pct}%)`;
      } else if (done !== undefined) {
        text += ` ${done.toLocaleString('en-US')}`;
      }
      const width = (stream.columns ?? 100) - 1;
      const line = `[${elapsed}s] ${text}`.slice(0, width);
      stream.write(`\r\x1b[2K${line}`);
      shown = true;
    },
    log(line) {
      clear();
      stream.write(`${line}\n`);
    },
    done() {
      clear();
    },
  };
}
