/**
 * The contract between the harness and the detectors: the types both `harness/` and
 * `algorithms/` import, so that neither reaches into the other's internals.
 *
 *   documents.ts  Document, DocumentSet
 *   jobs.ts       the MapReduce job model (JobSpec, TaskContext, DOCUMENTS)
 *   pairs.ts      PairList and the pair record encoding
 *   spans.ts      Span and the span record encoding
 *   counters.ts   Counters and CounterRef
 *   plan.ts       Plan: jobs, what their output means, the local kernel and its cost model
 *   adapter.ts    AlgorithmAdapter: name, parameters, plan, own measures and figures
 *   derived.ts    variants that are several runs: trials averaged, calibration runs
 *   explain.ts    explanations of a pair: feature occurrences, a detector's evidence
 *   errors.ts     InputFileError: a detector's bad input file, a one-line exit-2 error
 *   tasks.ts      WorkerTask: code a worker thread runs, as a typed handle
 *   process.ts    a plan's placement on one backend, and a command's process tree's cost
 *   scored-file.ts  a file of pairs or clusters produced elsewhere, as `bench score` declares it
 */
export * from './adapter.ts';
export * from './counters.ts';
export * from './derived.ts';
export * from './documents.ts';
export * from './errors.ts';
export * from './explain.ts';
export * from './jobs.ts';
export * from './pairs.ts';
export * from './plan.ts';
export * from './process.ts';
export * from './scored-file.ts';
export * from './spans.ts';
export * from './tasks.ts';
