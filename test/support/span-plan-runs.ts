/**
 * Runs a plan with spans (PDC-MR) or without (SpotSigs) two ways in memory (kernel-and-jobs.ts):
 * its text jobs one after another, and its kernel with an in-process context that counts as the
 * local backend does. Both return sorted pair and span rows to compare.
 */
import { SpanCollector, type Counters, type DocumentSet, type Plan, type SideRecord, type Span } from '../../contract/index.ts';
import { jobPairs, pairRows, runPlanJobs, runPlanKernel } from './kernel-and-jobs.ts';

export interface Outcome {
  readonly pairs: string[];
  readonly spans: string[];
  readonly counters: Counters;
}

export function spanRow(s: Span): string {
  const u = s.units ? ` ${s.units.aStart} ${s.units.bStart} ${s.units.length}` : '';
  return `${s.a} ${s.b} ${s.aStart} ${s.aEnd} ${s.bStart} ${s.bEnd}${u}`;
}

export function runJobs(plan: Plan, docs: DocumentSet): Outcome & { datasets: Map<string, SideRecord[]> } {
  const out = runPlanJobs(plan, docs);
  const spans = new SpanCollector(docs.texts.length);
  for (const [k, v] of out.datasets.get(plan.output.spans ?? '') ?? []) spans.add(k, v, () => 'spans');
  return {
    pairs: pairRows(jobPairs(plan, out, docs.texts.length)),
    spans: spans.result().map(spanRow).sort(),
    counters: out.counters,
    datasets: out.datasets,
  };
}

export async function runKernel(plan: Plan, docs: DocumentSet, parallelism = 2): Promise<Outcome> {
  const { result: r, counters } = await runPlanKernel(plan, docs, { workers: parallelism });
  return { pairs: pairRows(r.pairs), spans: (r.spans ?? []).map(spanRow).sort(), counters };
}
