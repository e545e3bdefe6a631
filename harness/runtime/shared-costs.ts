/**
 * What a variant would cost run alone. Variants of one run share values (`KernelContext.cached`
 * and `stored`: the fingerprint features above all): the first variant pays for them and the
 * others reuse them, so a variant's own time is its marginal cost in this run, not its cost. A
 * leaderboard of quality against runtime would rank what a variant reused.
 *
 * So every shared value's computation is timed (wall and whole-process CPU) and charged
 * exclusively: its own time less that of the shared values computed inside it, which it lists as
 * its dependencies. A variant's standalone cost is its marginal cost plus the exclusive cost of
 * every shared value it reused, with their dependencies, each once. A value replayed from the
 * store (stored values) brings the cost recorded when it was computed; one recorded by an older
 * version has none, and the standalone cost is then unknown rather than wrong.
 *
 * Shared values computed concurrently in one variant would each be charged the time they
 * overlapped; the kernels compute them one after another.
 */
import { AsyncLocalStorage } from 'node:async_hooks';

export interface SharedCost {
  /** seconds of wall-clock time, the shared values computed inside it excluded */
  readonly wallS: number;
  /** CPU-seconds of the whole process (worker threads included), likewise */
  readonly cpuS: number;
  /** the shared values it used: computed inside it, or reused */
  readonly deps: readonly string[];
}

/** The shared values' costs of one run over one document set (beside the values themselves). */
export type SharedCosts = Map<string, SharedCost | 'unknown'>;

interface Frame {
  /** wall and CPU of the shared values computed inside this computation (inclusive) */
  nestedWallS: number;
  nestedCpuS: number;
  readonly used: Set<string>;
  /** a cost recorded elsewhere (the store's) that replaces the measured one */
  recorded?: SharedCost | 'unknown';
}

const frames = new AsyncLocalStorage<Frame>();

/** Seconds of wall-clock time and of the process's CPU, from any origin. */
export type CostClock = () => { readonly wallS: number; readonly cpuS: number };

const processClock: CostClock = () => {
  const c = process.cpuUsage();
  return { wallS: performance.now() / 1000, cpuS: (c.user + c.system) / 1e6 };
};

const newFrame = (): Frame => ({ nestedWallS: 0, nestedCpuS: 0, used: new Set() });

/** One kernel's use of the shared values: what it reused and what its reuse is worth. */
export class SharedCostScope {
  private readonly top = newFrame();
  /** the values this scope computed (their cost is in its own time) */
  private readonly computed = new Set<string>();
  /** the values it found computed, by the kernel or inside one of its own computations */
  private readonly hits = new Set<string>();
  /** the time it spent replaying stored values, which running alone would spend computing them instead */
  private replayWallS = 0;
  private replayCpuS = 0;

  constructor(
    private readonly costs: SharedCosts,
    private readonly clock: CostClock = processClock,
  ) {}

  /** Marks `key` used by the computation running now (or by the kernel itself); `reused`: it was computed already. */
  use(key: string, o: { readonly reused: boolean }): void {
    (frames.getStore() ?? this.top).used.add(key);
    if (o.reused) this.hits.add(key);
  }

  /** Runs `compute` as the computation of `key`, timing it and recording its exclusive cost. */
  measure<T>(key: string, compute: () => Promise<T>): Promise<T> {
    const parent = frames.getStore() ?? this.top;
    const own = newFrame();
    const start = this.clock();
    return frames.run(own, compute).then((value) => {
      const end = this.clock();
      const wallS = end.wallS - start.wallS;
      const cpuS = end.cpuS - start.cpuS;
      parent.nestedWallS += wallS;
      parent.nestedCpuS += cpuS;
      // A value replayed from the store was computed by an earlier run: this kernel reused it.
      if (own.recorded === undefined) this.computed.add(key);
      else {
        this.hits.add(key);
        this.replayWallS += wallS;
        this.replayCpuS += cpuS;
      }
      this.costs.set(key, own.recorded ?? { wallS: wallS - own.nestedWallS, cpuS: cpuS - own.nestedCpuS, deps: [...own.used] });
      return value;
    });
  }

  /** Inside `measure`: the value was replayed, and this is what computing it cost when it was computed. */
  recordCost(cost: SharedCost | 'unknown'): void {
    const frame = frames.getStore();
    if (frame) frame.recorded = cost;
  }

  /** The shared values it reused, computed by earlier variants or replayed from the store, in the order it first asked. */
  reusedValues(): string[] {
    return [...this.hits].filter((k) => !this.computed.has(k));
  }

  /**
   * What running alone adds to this kernel's own time: the exclusive cost of every shared value
   * it reused, with their dependencies, each once, less the time it spent replaying stored ones;
   * 'unknown' when one of them has no cost.
   */
  reused(): { readonly wallS: number; readonly cpuS: number } | 'unknown' {
    const c = closureCost(this.costs, [...this.hits], this.computed);
    return c === 'unknown' ? c : { wallS: c.wallS - this.replayWallS, cpuS: c.cpuS - this.replayCpuS };
  }
}

/**
 * The cost of `key` with every value it depends on, as one cost with no dependencies: what a
 * store keeps, since a later run that replays the value computes none of them.
 */
export function wholeCost(costs: SharedCosts, key: string): SharedCost | 'unknown' {
  const c = closureCost(costs, [key], new Set());
  return c === 'unknown' ? c : { ...c, deps: [] };
}

function closureCost(costs: SharedCosts, from: readonly string[], skip: ReadonlySet<string>): { readonly wallS: number; readonly cpuS: number } | 'unknown' {
  let wallS = 0;
  let cpuS = 0;
  const seen = new Set<string>();
  const stack = [...from];
  while (stack.length > 0) {
    const key = stack.pop() as string;
    if (seen.has(key) || skip.has(key)) continue;
    seen.add(key);
    const cost = costs.get(key);
    if (cost === undefined || cost === 'unknown') return 'unknown';
    wallS += cost.wallS;
    cpuS += cost.cpuS;
    stack.push(...cost.deps);
  }
  return { wallS, cpuS };
}
