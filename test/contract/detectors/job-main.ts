/** The job script entry for the test detectors, bundled by the streaming and EMR backends like the real one. */
import { exitWith, runJobScript } from '../../../harness/mapreduce/streaming/task-cli.ts';
import { findPlan } from './plans.ts';

void runJobScript(process.argv.slice(2), findPlan).then(exitWith);
