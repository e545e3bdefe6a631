/**
 * The one place that turns a backend config into a backend. Kinds: local (default),
 * streaming (Hadoop Streaming emulation with real processes and `sort`), emr (Amazon EMR).
 */
import type { Backend } from './backend.ts';
import type { ValueStore } from '../experiment/stored-values.ts';
import { createLocalBackend } from './local/backend.ts';
import type { BackendConfig } from './config.ts';
import { PRICE_PER_VCPU_HOUR_USD } from './local/config.ts';
import { BUILTIN_PLAN_MODULE, type DetectorCatalog } from '../detectors.ts';

export interface BackendOptions {
  /** modules the local backend's worker threads load as soon as they start */
  readonly preload?: readonly string[];
  /** the detectors the plans come from (default: algorithms/) */
  readonly detectors?: DetectorCatalog;
  /** the run's id: the EMR backend's S3 prefix, so that a resumed run finds what it wrote */
  readonly runId?: string;
  /** `--resume`: the EMR backend reuses steps whose output is complete in S3 */
  readonly resume?: boolean;
  /** where the local backend's kernels keep values across runs (experiment/stored-values.ts) */
  readonly store?: ValueStore;
  /** the local backend starts its worker threads at once (LocalBackendOptions.startThreads) */
  readonly startThreads?: boolean;
}

export async function createBackend(config: BackendConfig, opts: BackendOptions = {}): Promise<Backend> {
  const planModule = opts.detectors?.planModule ?? BUILTIN_PLAN_MODULE;
  const entry = opts.detectors?.jobScriptEntry;
  // The job script's bundler (esbuild) and the streaming and EMR backends are loaded when a run uses them.
  const jobScript = async (): Promise<string> => {
    const { bundleJobScript } = await import('./streaming/bundle.ts');
    return bundleJobScript(undefined, entry !== undefined ? { entry } : {});
  };
  switch (config.kind) {
    case 'local':
      return createLocalBackend({
        workers: config.workers,
        memoryMb: config.memory_mb,
        pricePerVcpuHour: config.price_per_vcpu_hour ?? PRICE_PER_VCPU_HOUR_USD,
        engine: config.engine ?? 'auto',
        preload: opts.preload ?? [],
        ...(opts.startThreads !== undefined ? { startThreads: opts.startThreads } : {}),
        planModule,
        ...(opts.store ? { store: opts.store } : {}),
      });
    case 'streaming': {
      const { createStreamingBackend } = await import('./streaming/backend.ts');
      return createStreamingBackend(config, { pricePerVcpuHour: PRICE_PER_VCPU_HOUR_USD, jobScript });
    }
    case 'emr': {
      // The AWS SDK is loaded for EMR only: it is most of the harness's start-up otherwise.
      const { createEmrBackend } = await import('./emr/backend.ts');
      return createEmrBackend(config, { bundle: jobScript, ...(opts.runId ? { runId: opts.runId } : {}), resume: opts.resume === true });
    }
  }
}
