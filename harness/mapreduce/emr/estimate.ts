/**
 * The estimate of an EMR run before it runs: hours and dollars for the collection's size, from
 * the local cost curve of each variant (CPU-seconds against megabytes of text, curve-fit.ts)
 * scaled to the cluster's vCPUs, on demand and on spot side by side, each with its range.
 *
 * The model, stated so that it can be argued with (docs/emr.md, "Estimates"):
 * - a variant's steps need the CPU-seconds its curve predicts at the collection's MB, and the
 *   cluster's core and task vCPUs share them perfectly (no skew, no idle reducers);
 * - a vCPU does the work of one core of the machine the curve was measured on;
 * - the cluster takes `STARTUP_S` to start, billed, before the first step;
 * - the master runs on demand; core and task nodes at the market they are configured with,
 *   spot ones at the spot price (history, or `DEFAULT_SPOT_RATIO` of on demand), plus the EMR
 *   fee, which does not change with the market.
 * The range is each variant's prediction interval summed, which is wider than the interval of
 * the sum: an honest bound, not a confidence level of the total.
 */
import { chooseFit, formula, predict, type Prediction } from './curve-fit.ts';
import { variantKey, type CostCurves } from './cost-curves.ts';
import { findPrice, type PriceTable } from './prices.ts';

/** Seconds from RunJobFlow to the first step: provisioning plus the Node bootstrap action (stated, not measured here). */
export const STARTUP_S = 600;
/** The EC2 spot price as a share of on demand when no history is at hand (stated, not measured here). */
export const DEFAULT_SPOT_RATIO = 0.4;
/** The prediction interval's level. */
export const ESTIMATE_LEVEL = 0.9;

export interface EstimateNodes {
  readonly role: 'master' | 'core' | 'task';
  readonly type: string;
  readonly count: number;
  /** the configured market (instance fleets); when no role is SPOT, the spot column prices core and task as if they were */
  readonly market?: 'ON_DEMAND' | 'SPOT';
}

/** EC2 spot prices per instance type in USD per hour, and where they come from. */
export interface SpotPrices {
  readonly usdPerHour: Readonly<Record<string, number>>;
  readonly source: string;
}

export interface EmrEstimateInput {
  readonly region: string;
  /** the cluster's instances; the master runs on demand whatever the market of the others */
  readonly nodes: readonly EstimateNodes[];
  readonly variants: readonly { readonly variant: string; readonly algorithm: string; readonly params: unknown }[];
  /** the collection: documents, UTF-8 bytes of their text, and whether that is known or assumed */
  readonly documents: { readonly count: number; readonly textBytes: number; readonly exact: boolean };
  readonly curves: CostCurves;
  /** where the curves come from, for the lines people read */
  readonly curvesFile: string;
  readonly prices: PriceTable;
  /** spot history; without it, DEFAULT_SPOT_RATIO of the on-demand EC2 rate */
  readonly spot?: SpotPrices;
}

export interface VariantEstimate {
  readonly variant: string;
  /** the fit and what it was fitted to; null when no curve has this variant's parameters */
  readonly curve: {
    readonly model: 'linear' | 'power';
    readonly formula: string;
    readonly points: number;
    readonly mbRange: readonly [number, number];
    readonly rmsLog: number;
    /** how far beyond the largest measured size the estimate reaches */
    readonly extrapolation: number;
  } | null;
  readonly cpuS: Prediction | null;
  readonly hours: Prediction | null;
  readonly missing?: string;
}

export interface MarketCost {
  readonly usdPerHour: number;
  readonly usd: Prediction;
}

export interface EmrEstimate {
  readonly kind: 'emr-estimate';
  readonly level: number;
  readonly documents: { readonly count: number; readonly mb: number; readonly exact: boolean };
  readonly curvesFile: string;
  readonly curvesMeasured: string;
  readonly vcpus: number;
  readonly startupS: number;
  readonly variants: readonly VariantEstimate[];
  /** hours from the request to the last step, over the variants with a curve */
  readonly hours: Prediction;
  readonly onDemand: MarketCost;
  /** the roles on spot: the configured fleets', else core and task as if they were */
  readonly spot: MarketCost & { readonly source: string; readonly roles: readonly string[]; readonly configured: boolean };
  /** variants the totals leave out, for want of a curve */
  readonly missing: readonly string[];
  readonly assumptions: readonly string[];
}

const MB = 1024 * 1024;

function scale(p: Prediction, f: number, plus = 0): Prediction {
  return { value: p.value * f + plus, low: p.low * f + plus, high: p.high * f + plus };
}

function rateOf(prices: PriceTable, region: string, type: string): { ec2: number; emr: number; vcpu: number } {
  const p = findPrice(prices, region, type);
  if (!p) throw new Error(`no price for ${type} in ${region} in the price table dated ${prices.fetchedAt}`);
  return { ec2: p.ec2, emr: p.emr, vcpu: p.vcpu };
}

/**
 * The estimate of a run of `variants` on the cluster `nodes`: the one function the EMR dry run,
 * the EMR backend's first line and an EMR Spark step's estimate call.
 */
export function estimateEmrRun(input: EmrEstimateInput): EmrEstimate {
  const mb = input.documents.textBytes / MB;
  const byKey = new Map<string, { x: number; y: number }[]>();
  for (const p of input.curves.points) {
    const k = variantKey(p.algorithm, p.params);
    byKey.set(k, [...(byKey.get(k) ?? []), { x: p.text_bytes / MB, y: p.cpu_s }]);
  }
  let vcpus = 0;
  let onDemandRate = 0;
  let spotRate = 0;
  const configured = input.nodes.some((n) => n.market === 'SPOT');
  const onSpot = (n: EstimateNodes): boolean => n.role !== 'master' && (configured ? n.market === 'SPOT' : true);
  for (const n of input.nodes) {
    const r = rateOf(input.prices, input.region, n.type);
    if (n.role !== 'master') vcpus += r.vcpu * n.count;
    onDemandRate += (r.ec2 + r.emr) * n.count;
    const spotEc2 = input.spot?.usdPerHour[n.type] ?? r.ec2 * DEFAULT_SPOT_RATIO;
    spotRate += (onSpot(n) ? spotEc2 : r.ec2) * n.count + r.emr * n.count;
  }
  const spotRoles = input.nodes.filter(onSpot).map((n) => n.role);
  if (vcpus === 0) throw new Error('the cluster has no core or task vCPUs to run steps on');

  const missing: string[] = [];
  const variants = input.variants.map((v): VariantEstimate => {
    const points = byKey.get(variantKey(v.algorithm, v.params)) ?? [];
    const sizes = new Set(points.map((p) => p.x));
    if (points.length < 3 || sizes.size < 2) {
      missing.push(v.variant);
      return { variant: v.variant, curve: null, cpuS: null, hours: null, missing: `${points.length} point${points.length === 1 ? '' : 's'} at ${sizes.size} size${sizes.size === 1 ? '' : 's'} in ${input.curvesFile} for these parameters; a curve needs 3 points at 2 sizes` };
    }
    const chosen = chooseFit(points, mb);
    const cpuS = predict(chosen.fit, mb, ESTIMATE_LEVEL);
    const xs = points.map((p) => p.x);
    const maxX = Math.max(...xs);
    return {
      variant: v.variant,
      curve: {
        model: chosen.fit.model,
        formula: formula(chosen.fit),
        points: points.length,
        mbRange: [Math.min(...xs), maxX],
        rmsLog: chosen.fit.model === 'linear' ? chosen.linear.rmsLog : (chosen.power?.rmsLog ?? NaN),
        extrapolation: mb / maxX,
      },
      cpuS,
      hours: scale(cpuS, 1 / (vcpus * 3600)),
    };
  });
  const sum = (pick: (p: Prediction) => number): number => variants.reduce((t, v) => t + (v.hours ? pick(v.hours) : 0), 0);
  const hours: Prediction = { value: sum((p) => p.value) + STARTUP_S / 3600, low: sum((p) => p.low) + STARTUP_S / 3600, high: sum((p) => p.high) + STARTUP_S / 3600 };
  const spotSource = input.spot?.source ?? `no spot price history: ${DEFAULT_SPOT_RATIO} × the on-demand EC2 rate (stated default)`;
  return {
    kind: 'emr-estimate',
    level: ESTIMATE_LEVEL,
    documents: { count: input.documents.count, mb, exact: input.documents.exact },
    curvesFile: input.curvesFile,
    curvesMeasured: input.curves.measured,
    vcpus,
    startupS: STARTUP_S,
    variants,
    hours,
    onDemand: { usdPerHour: onDemandRate, usd: scale(hours, onDemandRate) },
    spot: { usdPerHour: spotRate, usd: scale(hours, spotRate), source: spotSource, roles: spotRoles, configured },
    missing,
    assumptions: [
      `each variant's CPU-seconds from its local cost curve at ${mb.toFixed(0)} MB, the ${Math.round(ESTIMATE_LEVEL * 100)}% prediction interval as the range`,
      `the ${vcpus} core and task vCPUs share the work perfectly, each doing the work of one core of the curve's machine`,
      `${STARTUP_S} s of cluster start-up before the first step, billed`,
      'the master on demand; the EMR fee the same on every market; spot capacity found within the fleet timeout (else on demand: the on-demand column)',
    ],
  };
}

const usd = (v: number): string => (v < 0.01 ? '<$0.01' : v < 100 ? `$${v.toFixed(2)}` : `$${Math.round(v).toLocaleString('en-US')}`);
const hrs = (h: number): string => (h < 1 ? `${Math.round(h * 60)} min` : `${h < 10 ? h.toFixed(1) : Math.round(h).toLocaleString('en-US')} h`);

/** The estimate in a few lines, on demand and spot side by side; the first line is the whole answer. */
export function estimateLines(e: EmrEstimate): string[] {
  const range = (p: { value: number; low: number; high: number }, f: (v: number) => string): string => `${f(p.value)} (${f(p.low)}–${f(p.high)})`;
  const lines = [
    `EMR estimate: ${range(e.hours, hrs)} on ${e.vcpus} vCPUs for ${e.documents.count.toLocaleString('en-US')} documents, ${Math.round(e.documents.mb).toLocaleString('en-US')} MB${e.documents.exact ? '' : ' (assumed)'}: on demand ${range(e.onDemand.usd, usd)}, spot ${range(e.spot.usd, usd)}`,
    `  rates: on demand $${e.onDemand.usdPerHour.toFixed(3)}/h, spot $${e.spot.usdPerHour.toFixed(3)}/h (${e.spot.roles.join(' and ')} on spot${e.spot.configured ? ', as configured' : ' if fleets put them there'}; ${e.spot.source}); ranges are ${Math.round(e.level * 100)}% prediction intervals summed over the variants`,
  ];
  for (const v of e.variants) {
    lines.push(
      v.curve && v.cpuS
        ? `  ${v.variant}: ${range(v.cpuS, (s) => `${Number(s.toPrecision(3)).toLocaleString('en-US')} CPU-s`)}; ${v.curve.model} fit ${v.curve.formula} to ${v.curve.points} points at ${v.curve.mbRange[0].toFixed(1)}–${v.curve.mbRange[1].toFixed(1)} MB (rms ln residual ${v.curve.rmsLog.toFixed(3)}), ×${Number(v.curve.extrapolation.toPrecision(2)).toLocaleString('en-US')} beyond the largest`
        : `  ${v.variant}: not estimated: ${v.missing ?? 'no curve'}`,
    );
  }
  if (e.missing.length > 0) lines.push(`  the totals leave out ${e.missing.length} variant${e.missing.length === 1 ? '' : 's'} without a curve`);
  lines.push(`  curves: ${e.curvesFile} (${e.curvesMeasured})`);
  return lines;
}
