/**
 * Progress on long work: one redrawn status line on stderr when stderr is a TTY and not in CI;
 * nothing at all otherwise, so logs and pipes stay clean.
 */
import { grouped } from './format.ts';

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
  let phase = '';
  let phaseStarted = started;
  const clear = (): void => {
    if (shown) stream.write('\r\x1b[2K');
    shown = false;
  };
  return {
    update(label, done, total) {
      const now = Date.now();
      if (label !== phase) {
        phase = label;
        phaseStarted = now;
      }
      if (now - last < 100 && !(total !== undefined && done === total)) return;
      last = now;
      const elapsed = ((now - started) / 1000).toFixed(1);
      let text = `${label}`;
      if (done !== undefined && total !== undefined && total > 0) {
        const pct = ((100 * done) / total).toFixed(0);
        text += ` ${grouped(done)}/${grouped(total)} (${pct}%)${rateAndEta(done, total, now - phaseStarted)}`;
      } else if (done !== undefined) {
        text += ` ${grouped(done)}${rateAndEta(done, undefined, now - phaseStarted)}`;
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

/** ` 412/s, ETA 12 s` once a phase has run long enough to say (half a second). */
export function rateAndEta(done: number, total: number | undefined, phaseMs: number): string {
  if (phaseMs < 500 || done <= 0) return '';
  const rate = (1000 * done) / phaseMs;
  const shownRate = rate >= 100 ? grouped(Math.round(rate)) : rate.toPrecision(2);
  if (total === undefined || done >= total) return `, ${shownRate}/s`;
  const eta = (total - done) / rate;
  const shownEta = eta >= 90 ? `${Math.round(eta / 60)} min` : `${Math.ceil(eta)} s`;
  return `, ${shownRate}/s, ETA ${shownEta}`;
}
