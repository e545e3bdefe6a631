/**
 * Work a run's main thread does behind later variants (issue 26): a variant's error step is
 * run in pieces while the next variants' evaluations wait on the runtime's threads (the truth's
 * lookups, the pairs files), instead of between two variants where nothing else can go on.
 *
 * Never during a kernel: a variant's `cpu_s` and `runtime_s` are measured over the whole process
 * around its kernel (mapreduce/local/backend.ts), so a piece running then would be counted in
 * them. The runner holds the lane for the kernel's time (`hold`, `release`); a piece already
 * running is let finish first, and none starts until the lane is released.
 *
 * The work comes in steps (`begin`), a variant's each: a step's pieces run one at a time, each
 * after the event loop has had a turn (so that what the evaluation awaits is taken up between
 * two pieces), and only once every step begun before it has ended. What the pieces compute does
 * not depend on when they run: only the time of the run does.
 */
export class IdleLane {
  #held = 0;
  #running = false;
  /** the pieces waiting for the lane to be released */
  #whenReleased: (() => void)[] = [];
  /** the holders waiting for the running piece to end */
  #whenStill: (() => void)[] = [];
  /** the end of the last step begun: the next one's pieces start after it */
  #lastStep: Promise<void> = Promise.resolve();

  /** `signal`: once aborted, a piece not yet started is not started (it rejects with the abort's reason) */
  constructor(private readonly signal?: AbortSignal) {}

  /** A step, whose pieces run after those of every step begun before, once that one has ended. */
  begin(): LaneStep {
    const before = this.#lastStep;
    let end!: () => void;
    this.#lastStep = new Promise<void>((resolve) => (end = resolve));
    return { run: (work) => this.#piece(before, work), end: () => end() };
  }

  /** Stops pieces from starting until `release`; resolves once none is running. */
  async hold(): Promise<void> {
    this.#held++;
    while (this.#running) await new Promise<void>((r) => this.#whenStill.push(r));
  }

  release(): void {
    if (this.#held === 0) throw new Error('IdleLane.release without hold');
    if (--this.#held === 0) for (const w of this.#whenReleased.splice(0)) w();
  }

  async #piece<T>(after: Promise<void>, work: () => T | Promise<T>): Promise<T> {
    await after;
    await new Promise<void>((r) => setImmediate(r));
    while (this.#held > 0 || this.#running) await new Promise<void>((r) => (this.#held > 0 ? this.#whenReleased : this.#whenStill).push(r));
    this.signal?.throwIfAborted();
    // Set in the same step as the checks above: a hold or another piece cannot come between them.
    this.#running = true;
    try {
      return await work();
    } finally {
      this.#running = false;
      for (const w of this.#whenStill.splice(0)) w();
    }
  }
}

/** A variant's work on the lane: its pieces, in order, then `end` (whatever became of them). */
export interface LaneStep {
  /** Runs `work` as one piece, once the pieces given before it are done (the caller awaits each) */
  run<T>(work: () => T | Promise<T>): Promise<T>;
  end(): void;
}

/** Runs `work` at once: a step that is not run behind later variants. */
export function atOnce<T>(work: () => T | Promise<T>): Promise<T> {
  return Promise.resolve().then(work);
}
