/**
 * `launch: spark-submit` on Apache Spark `local[2]`: the backend stages the run under a file://
 * staging_dir as the dry run lists it, runs exactly the dry run's spark-submit command (the
 * pinned pyspark's own spark-submit), and reads the outputs back from there; the toy algorithm
 * gives brute force's pairs and counters.
 */
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSparkBackend } from '../../../../harness/mapreduce/spark/backend.ts';
import { sparkBackendSchema } from '../../../../harness/mapreduce/spark/config.ts';
import { sparkDryRunPlan } from '../../../../harness/mapreduce/spark/dry-run.ts';
import { requireTool, skipsWithout } from '../../../support/required-tool.ts';
import { expectedToy, makeContext, pairsOf, removeTempDirs, tempDir, TOY_DOCS, toyJobScript, toyVariant } from '../streaming/toy/fixture.ts';
import { sparkSetup } from './spark-setup.ts';

const spark = sparkSetup();
const WHAT = 'spark-submit on Apache Spark local[2]';

let script = '';
beforeAll(async () => {
  if (!spark.found) return requireTool(false, WHAT, spark.reason);
  script = await toyJobScript();
});
afterAll(removeTempDirs);

describe.skipIf(skipsWithout(spark.found, WHAT, spark.found ? '' : spark.reason))('spark backend, launch: spark-submit', () => {
  it("stages what the dry run lists, runs the dry run's command, and computes the toy algorithm as brute force does", async () => {
    const staging = pathToFileURL(tempDir('spark-staging-')).href;
    const config = sparkBackendSchema.parse({ kind: 'spark', master: 'local[2]', launch: 'spark-submit', staging_dir: staging, python: spark.found ? spark.python : '' });
    const submitted: (readonly string[])[] = [];
    const backend = createSparkBackend(config, { jobScript: script, runId: 'r1', onSubmit: (argv) => submitted.push(argv) });
    const ctx = makeContext(TOY_DOCS);
    const variant = toyVariant({ max_df: 3 });
    const r = await backend.run(variant, ctx);
    const expected = expectedToy(TOY_DOCS, { max_df: 3 });
    expect(pairsOf(r.outputs.pairs)).toEqual(expected.pairs);
    expect(r.counters).toEqual({ toy: { documents: TOY_DOCS.texts.length, 'distinct words': expected.distinctWords, 'pairs_ emitted': expected.postingPairs } });

    const plan = sparkDryRunPlan({ config, variants: [variant], docs: { count: 10, recordBytes: 0 }, runId: 'r1' });
    expect(submitted).toEqual([plan.variants[0]?.submit]);
    expect((r.extra as { spark_submit: string[] }).spark_submit).toEqual(plan.variants[0]?.submit);
    expect(submitted[0]?.slice(0, 7)).toEqual([join(spark.found ? spark.python : '', '..', 'spark-submit'), '--master', 'local[2,4]', '--deploy-mode', 'client', '--name', 'ndd-bench r1 toy']);
    // Every file the dry run lists is where it says, and so is every output it names.
    for (const f of plan.stage) expect(existsSync(fileURLToPath(f.uri)), f.uri).toBe(true);
    for (const uri of Object.values(plan.variants[0]?.outputs ?? {})) expect(readdirSync(fileURLToPath(uri)).filter((n) => n.startsWith('part-'))).toHaveLength(2);
    expect(readdirSync(ctx.workDir)).toEqual([]);
    await backend.close();
  }, 300_000);
});
