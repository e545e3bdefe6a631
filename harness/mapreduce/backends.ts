/**
 * The one place that turns a backend config into a backend. Kinds: local (default),
 * streaming (Hadoop Streaming emulation with real processes and `sort`), emr (Amazon EMR).
 */
import type { Backend } from './backend.ts';
import { createLocalBackend } from './local/backend.ts';
import { createStreamingBackend } from './streaming/backend.ts';
import { createEmrBackend } from './emr/backend.ts';
import type { BackendConfig } from '../experiment/types.ts';
import { PRICE_PER_VCPU_HOUR_USD } from '../experiment/schema.ts';

export async function createBackend(config: BackendConfig, opts: { preload?: readonly string[] } = {}): Promise<Backend> {
  switch (config.kind) {
    case 'local':
      return createLocalBackend({
        workers: config.workers,
        memoryMb: config.memory_mb,
        pricePerVcpuHour: config.price_per_vcpu_hour ?? PRICE_PER_VCPU_HOUR_USD,
        engine: config.engine ?? 'auto',
        preload: opts.preload ?? [],
      });
    case 'streaming':
      return createStreamingBackend(config, { pricePerVcpuHour: PRICE_PER_VCPU_HOUR_USD });
    case 'emr':
      return createEmrBackend(config);
  }
}
