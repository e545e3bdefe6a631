/**
 * The one place that turns a backend config into a backend. Kinds: local (default),
 * streaming (Hadoop Streaming emulation with real processes and `sort`), hadoop (Apache
 * Hadoop's own streaming runtime: the user's installation or local mode), spark (Apache Spark
 * through the project's PySpark driver), emr (Amazon EMR).
 */
import type { Backend } from './backend.ts';
import type { Runtime } from '../runtime/runtime.ts';
import { createLocalBackend } from './local/backend.ts';
import type { BackendConfig } from './config.ts';
import { PRICE_PER_VCPU_HOUR_USD } from './local/config.ts';
import { BUILTIN_PLAN_MODULE, type DetectorCatalog } from '../detectors.ts';

export interface BackendOptions {
  /** the run's threads and stored values, which the local backend runs on */
  readonly runtime?: Runtime;
  /** the detectors the plans come from (default: algorithms/) */
  readonly detectors?: DetectorCatalog;
  /** the run's id: the EMR backend's S3 prefix, so that a resumed run finds what it wrote */
  readonly runId?: string;
  /** `--resume`: the EMR backend reuses steps whose output is complete in S3 */
  readonly resume?: boolean;
  /** every variant the run will submit: the EMR backend estimates their cost before it stages anything */
  readonly variants?: readonly { readonly variant: string; readonly algorithm: string; readonly params: unknown }[];
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
        ...(opts.runtime ? { runtime: opts.runtime } : { workers: config.workers }),
        memoryMb: config.memory_mb,
        pricePerVcpuHour: config.price_per_vcpu_hour ?? PRICE_PER_VCPU_HOUR_USD,
        engine: config.engine ?? 'auto',
        planModule,
      });
    case 'streaming': {
      const { createStreamingBackend } = await import('./streaming/backend.ts');
      return createStreamingBackend(config, { pricePerVcpuHour: PRICE_PER_VCPU_HOUR_USD, jobScript });
    }
    case 'hadoop': {
      const { createHadoopBackend } = await import('./hadoop/backend.ts');
      return createHadoopBackend(config, { pricePerVcpuHour: PRICE_PER_VCPU_HOUR_USD, jobScript });
    }
    case 'spark': {
      const { createSparkBackend } = await import('./spark/backend.ts');
      // An s3:// staging_dir is staged with the EMR backend's upload (the AWS SDK loaded for it only).
      const s3Stager = async () => (await import('./emr/spark-staging.ts')).s3Stager(new (await import('@aws-sdk/client-s3')).S3Client({}));
      return createSparkBackend(config, { pricePerVcpuHour: PRICE_PER_VCPU_HOUR_USD, jobScript, s3Stager, ...(opts.runId ? { runId: opts.runId } : {}) });
    }
    case 'emr': {
      // The AWS SDK is loaded for EMR only: it is most of the harness's start-up otherwise.
      const { createEmrBackend } = await import('./emr/backend.ts');
      const { configuredCostCurves } = await import('./emr/cost-curves.ts');
      // A bad curve file of the user's stops the run here, before anything is staged or paid for.
      const curves = configuredCostCurves(config);
      return createEmrBackend(config, {
        bundle: jobScript,
        ...(opts.runId ? { runId: opts.runId } : {}),
        resume: opts.resume === true,
        curves,
        ...(opts.variants ? { variants: opts.variants } : {}),
      });
    }
  }
}
