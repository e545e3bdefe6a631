/**
 * Dollar cost of EMR instances: per-second billing with a one-minute minimum per instance,
 * at the EC2 on-demand rate plus the EMR fee (research doc §3.1–3.3). Pure arithmetic; the
 * intervals come from ListInstances timelines or, before those exist, from the configured
 * instance groups and the cluster's creation time.
 */

/** One instance's billable life. `endMs` is the termination time or "now" for a live instance. */
export interface InstanceInterval {
  readonly instanceType: string;
  readonly startMs: number;
  readonly endMs: number;
}

export type RateLookup = (instanceType: string) => number;

/** Billed seconds for one instance: whole seconds rounded up, at least 60. */
export function billedSeconds(startMs: number, endMs: number): number {
  const s = Math.ceil(Math.max(0, endMs - startMs) / 1000);
  return Math.max(60, s);
}

/** USD for the instances up to `untilMs` (instances started after it cost nothing yet). */
export function instancesCost(intervals: readonly InstanceInterval[], rate: RateLookup, untilMs: number): number {
  let usd = 0;
  for (const i of intervals) {
    if (i.startMs >= untilMs) continue;
    usd += (rate(i.instanceType) * billedSeconds(i.startMs, Math.min(i.endMs, untilMs))) / 3600;
  }
  return usd;
}

/** Sum of the hourly rates of the instances alive at `atMs`: the cluster's burn rate. */
export function clusterRatePerHour(intervals: readonly InstanceInterval[], rate: RateLookup, atMs: number): number {
  let r = 0;
  for (const i of intervals) if (i.startMs <= atMs && atMs < i.endMs) r += rate(i.instanceType);
  return r;
}

/**
 * The cost attributed to a step: its own interval × the cluster's hourly rate, without the
 * one-minute minimum (that applies to instances, not to steps).
 */
export function stepCost(ratePerHour: number, startMs: number, endMs: number): number {
  return (ratePerHour * Math.max(0, endMs - startMs)) / 3_600_000;
}

/** Instances a configured group will run, all assumed to start at `startMs` (for estimates and the cost cap). */
export function groupIntervals(
  groups: readonly { readonly type: string; readonly count: number }[],
  startMs: number,
  endMs: number,
): InstanceInterval[] {
  const out: InstanceInterval[] = [];
  for (const g of groups) for (let k = 0; k < g.count; k++) out.push({ instanceType: g.type, startMs, endMs });
  return out;
}
