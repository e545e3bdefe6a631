// A corpus reader run in a worker thread for the fuzz tests, so that a case that never ends
// (an endless loop in a reader) can be stopped: the test terminates the thread and starts another.
// Messages in: { seq, format, path, options }; out: { seq, docs, stats, error? }, and { ready } once.
import { parentPort } from 'node:worker_threads';
import { register } from 'tsx/esm/api';

register();
const { readCorpus, newCorpusStats } = await import('../../../harness/corpus/read.ts');
const { isUserError } = await import('../../../harness/errors.ts');

/** What the read in progress has done, for a hang report. */
let current = { seq: 0, stats: newCorpusStats(), docs: 0, phase: 'idle' };

parentPort.on('message', async ({ seq, format, path, options, ping }) => {
  if (ping) {
    parentPort.postMessage({ pong: { seq: current.seq, phase: current.phase, docs: current.docs, read: current.stats.read, skips: current.stats.skips.length } });
    return;
  }
  const stats = newCorpusStats();
  current = { seq, stats, docs: 0, phase: 'reading' };
  const docs = [];
  try {
    for await (const d of readCorpus({ format, path, options }, stats)) {
      docs.push({ id: d.id, text: d.text, meta: d.meta });
      current.docs++;
    }
    current.phase = 'done';
    // Let errors that streams raise after the read (an 'error' event nobody listens to) surface now, in this case.
    await new Promise((resolve) => setTimeout(resolve, 1));
    parentPort.postMessage({ seq, docs, stats });
  } catch (e) {
    current.phase = 'failed';
    const error = {
      name: e?.constructor?.name ?? typeof e,
      message: String(e?.message ?? e),
      userError: isUserError(e),
      stack: String(e?.stack ?? e),
    };
    await new Promise((resolve) => setTimeout(resolve, 1));
    parentPort.postMessage({ seq, docs, stats, error });
  }
});
parentPort.postMessage({ ready: true });
