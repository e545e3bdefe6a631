/** run.json of a completed run (results/types.ts `RunRecord`), from what the runner gathered. */
import { relative, resolve } from 'node:path';
import { PRICE_PER_VCPU_HOUR_USD } from '../mapreduce/local/config.ts';
import { gitState, machine } from '../results/environment.ts';
import type { FileEntry } from '../results/manifest.ts';
import type { MeasureInfo } from '../results/measures.ts';
import { RUN_SCHEMA_VERSION, type FigureRecord, type InputsFingerprint, type RunRecord, type VariantRecord } from '../results/types.ts';
import type { BackendConfig, Experiment } from './types.ts';

/** Wall-clock seconds of each phase, and the CPU seconds this process spent outside the variants (reading, studies, writing). */
export interface PhaseTimes {
  readonly read_s: number;
  readonly variants_s: number;
  readonly studies_s: number;
  readonly write_s: number;
  readonly total_s: number;
  readonly outsideVariantsCpuS: number;
}

export interface RunParts {
  readonly exp: Experiment;
  readonly runId: string;
  readonly backend: BackendConfig;
  readonly measures: readonly MeasureInfo[];
  readonly figures: readonly FigureRecord[];
  readonly variants: readonly VariantRecord[];
  readonly corpus: RunRecord['corpus'];
  readonly startedAt: Date;
  readonly finishedAt: Date;
  readonly configFile: string;
  readonly tables: Record<string, string>;
  readonly extraWarnings: readonly string[];
  readonly inputs: InputsFingerprint;
  /** the repository's state, when the runner asked git already (gitStateAsync); else asked now */
  readonly git?: { readonly commit: string | null; readonly dirty: boolean | null };
  readonly files: readonly FileEntry[];
  readonly resumed: readonly string[];
  readonly phases: PhaseTimes;
}

/** Over the runs made: a variant averaged over trials is summed in its trials' rows. */
function sum(variants: readonly VariantRecord[], key: string): number {
  return variants.filter((v) => v.trials === undefined).reduce((s, v) => s + (v.measures[key] ?? 0), 0);
}

export function runRecord(p: RunParts): RunRecord {
  const { exp, variants, corpus } = p;
  const warnings: string[] = [...p.extraWarnings];
  for (const v of variants) for (const w of v.warnings) warnings.push(`${v.name}: ${w}`);
  for (const [reason, n] of Object.entries(corpus.skipped)) warnings.push(`corpus: ${n} records skipped (${reason})`);
  for (const [reason, n] of Object.entries(corpus.recovered)) warnings.push(`corpus: ${n} records read with a fallback (${reason})`);
  if (corpus.subset && corpus.subset.missing > 0) {
    warnings.push(`corpus: ${corpus.subset.missing} of the ${corpus.subset.selected} subset documents are not in the collection`);
  }
  // The variants' CPU is what each backend measured (threads, task processes, a cluster's tasks);
  // reading, the studies and writing ran here and are priced as local CPU.
  const localPrice = p.backend.kind === 'local' ? (p.backend.price_per_vcpu_hour ?? PRICE_PER_VCPU_HOUR_USD) : PRICE_PER_VCPU_HOUR_USD;
  const restCpu = p.phases.outsideVariantsCpuS;
  const cpuS = sum(variants, 'cpu_s') + restCpu;
  return {
    schema_version: RUN_SCHEMA_VERSION,
    status: 'completed',
    experiment: exp.name,
    ...(exp.description !== undefined ? { description: exp.description } : {}),
    run_id: p.runId,
    config_file: relative(process.cwd(), resolve(p.configFile)) || p.configFile,
    config_hash: exp.hash,
    config: exp.resolved,
    started_at: p.startedAt.toISOString(),
    finished_at: p.finishedAt.toISOString(),
    git: p.git ?? gitState(process.cwd()),
    environment: machine(),
    backend: { ...p.backend },
    corpus,
    evaluate: { ...exp.evaluate },
    measures: p.measures,
    figures: p.figures,
    variants,
    warnings,
    tables: p.tables,
    inputs: p.inputs,
    files: p.files,
    resumed: p.resumed,
    totals: {
      read_s: p.phases.read_s,
      variants_s: p.phases.variants_s,
      studies_s: p.phases.studies_s,
      write_s: p.phases.write_s,
      total_s: p.phases.total_s,
      runtime_s: sum(variants, 'runtime_s'),
      cpu_s: cpuS,
      cost_usd: sum(variants, 'cost_usd') + (restCpu / 3600) * localPrice,
      peak_rss_mb: Math.max(0, ...variants.map((v) => v.measures.peak_rss_mb ?? 0)),
    },
  };
}
