/**
 * Reading a plan's outputs back, the same way on every backend: the pairs dataset into a
 * PairList, the spans dataset into spans, each table dataset into records. A backend lists
 * `outputDatasets(plan)`, feeds every record of those datasets to `add` (in part-file order),
 * and returns `result()`.
 */
import { PairCollector, SpanCollector, type KeptFile, type PairList, type PlanOutput, type SideRecord, type Span } from '../../contract/index.ts';

export interface PlanOutputs {
  readonly pairs: PairList;
  readonly spans?: readonly Span[];
  readonly tables?: Readonly<Record<string, readonly SideRecord[]>>;
  /** files the kernel kept as they are (KernelResult.kept), written to kept/<variant>/ */
  readonly kept?: readonly KeptFile[];
}

/** The datasets a backend must bring back for `output`, pairs first. */
export function outputDatasets(output: PlanOutput): string[] {
  return [output.pairs, ...(output.spans ? [output.spans] : []), ...(output.tables ?? []).map((t) => t.dataset)];
}

export class OutputCollector {
  private readonly pairs: PairCollector;
  private readonly spans: SpanCollector | undefined;
  private readonly tables = new Map<string, SideRecord[]>();

  constructor(
    private readonly output: PlanOutput,
    documents: number,
  ) {
    this.pairs = new PairCollector(documents);
    this.spans = output.spans ? new SpanCollector(documents) : undefined;
    for (const t of output.tables ?? []) this.tables.set(t.dataset, []);
  }

  /** One record of `dataset`; `where` names its file and line for the error a malformed record gets. */
  add(dataset: string, key: string, value: string, where: () => string): void {
    // A dataset may be both the pairs and a table; every role gets the record.
    let used = false;
    if (dataset === this.output.pairs) {
      this.pairs.add(key, value, where);
      used = true;
    }
    if (this.spans && dataset === this.output.spans) {
      this.spans.add(key, value, where);
      used = true;
    }
    const table = this.tables.get(dataset);
    if (table) {
      table.push([key, value]);
      used = true;
    }
    if (!used) throw new Error(`${where()}: dataset ${dataset} is not an output of the plan`);
  }

  result(): PlanOutputs {
    return {
      pairs: this.pairs.result(),
      ...(this.spans ? { spans: this.spans.result() } : {}),
      ...(this.tables.size > 0 ? { tables: Object.fromEntries(this.tables) } : {}),
    };
  }
}
