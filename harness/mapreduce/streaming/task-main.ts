/**
 * The entry point of the job script Hadoop Streaming runs as mapper, combiner or reducer
 * (`bundle.ts` bundles this file with every algorithm's plan, `algorithms/plans.ts`, and no
 * parameter schemas; the CLI contract is there).
 * No top-level await: the bundle is CommonJS so that it runs from any folder (see bundle.ts).
 */
import { findPlan } from '../../../algorithms/plans.ts';
import { exitWith, runJobScript } from './task-cli.ts';

void runJobScript(process.argv.slice(2), findPlan).then(exitWith);
