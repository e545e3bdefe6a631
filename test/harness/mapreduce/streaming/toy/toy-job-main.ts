/** A job script entry point around the toy algorithms, bundled by the tests like the real one. */
import { exitWith, runJobScript } from '../../../../../harness/mapreduce/streaming/task-cli.ts';
import { toyAdapters } from './toy-algorithms.ts';

void runJobScript(process.argv.slice(2), async (name) => toyAdapters.find((a) => a.name === name)?.plan).then(exitWith);
