/** Which backend a run uses: the config's `backend`, or the one `--backend KIND` names. */
import { availableParallelism } from 'node:os';
import { UserError } from '../errors.ts';
import { hadoopBackendSchema } from '../mapreduce/hadoop/config.ts';
import { streamingBackendSchema } from '../mapreduce/streaming/config.ts';
import { localBackendSchema } from '../mapreduce/local/config.ts';
import { sparkBackendSchema } from '../mapreduce/spark/config.ts';
import type { BackendConfig, Experiment } from './types.ts';

export function chooseBackend(exp: Experiment, kind: string | undefined): BackendConfig {
  if (kind === undefined || kind === exp.backend.kind) return exp.backend;
  const alternative = exp.alternativeBackends.find((b) => b.kind === kind);
  if (alternative) return alternative;
  // The local, streaming, hadoop and spark backends need no settings; EMR needs a bucket and a region.
  if (kind === 'local') {
    const b = localBackendSchema.parse({ kind });
    return { ...b, workers: b.workers ?? availableParallelism() } as BackendConfig;
  }
  if (kind === 'streaming') return streamingBackendSchema.parse({ kind }) as BackendConfig;
  if (kind === 'hadoop') return hadoopBackendSchema.parse({ kind }) as BackendConfig;
  if (kind === 'spark') return sparkBackendSchema.parse({ kind }) as BackendConfig;
  if (kind === 'emr') {
    throw new UserError(
      `${exp.file}: --backend emr: the config has no \`backends:\` entry of kind emr; add one with at least region and s3_prefix (README, "Running on EMR")`,
    );
  }
  throw new UserError(`--backend ${kind}: unknown backend kind (known: local, streaming, hadoop, spark, emr)`);
}
