/**
 * One map, combine or reduce task of a job over text records, exactly as a Hadoop Streaming
 * task sees it: records in on a byte stream (one `key<TAB>value` line each; for combine and
 * reduce, sorted so that equal keys are consecutive), records out on another, counters
 * reported as `reporter:counter:<group>,<name>,<amount>` lines on stderr once at close.
 */
import type { Writable } from 'node:stream';
import type { JobSpec, Reducer, SideRecord, TaskContext } from '../../../contract/index.ts';
import { encodeRecord, unescapeField } from '../records.ts';
import { forEachLine } from './line-reader.ts';

export type Phase = 'map' | 'combine' | 'reduce';
export const PHASES: readonly Phase[] = ['map', 'combine', 'reduce'];

/** A bad input line: the task fails with this one-line message. */
export class RecordError extends Error {
  override readonly name = 'RecordError';
}

export interface TaskIo {
  readonly input: AsyncIterable<Buffer>;
  readonly output: Writable;
  /** Receives whole stderr lines (counter lines), without LF. */
  readonly report: (line: string) => void;
}

const FLUSH_CHARS = 1 << 16;

/** Buffers output lines into large writes and honours the stream's backpressure. */
class RecordWriter {
  private buf = '';
  private blocked = false;
  constructor(private readonly out: Writable) {}

  emit(key: string, value: string): void {
    if (typeof key !== 'string' || typeof value !== 'string') {
      throw new TypeError(`emit: key and value must be strings, got ${typeof key} and ${typeof value}`);
    }
    this.buf += encodeRecord(key, value) + '\n';
    if (this.buf.length >= FLUSH_CHARS) this.flush();
  }

  flush(): void {
    if (this.buf.length === 0) return;
    if (!this.out.write(this.buf)) this.blocked = true;
    this.buf = '';
  }

  async drain(): Promise<void> {
    if (!this.blocked) return;
    this.blocked = false;
    await new Promise<void>((resolve, reject) => {
      const done = (err?: Error) => {
        this.out.off('drain', onDrain);
        this.out.off('error', done);
        if (err) reject(err);
        else resolve();
      };
      const onDrain = () => done();
      this.out.once('drain', onDrain);
      this.out.once('error', done);
    });
  }

  async end(): Promise<void> {
    this.flush();
    await new Promise<void>((resolve, reject) => {
      this.out.once('error', reject);
      this.out.end(() => resolve());
    });
  }
}

/** Hadoop parses `reporter:counter:` lines by splitting on commas: names must not contain any. */
export function sanitizeCounterName(s: string): string {
  return s.replace(/[,\r\n]/g, '_');
}

class CounterBag {
  private readonly totals = new Map<string, { group: string; name: string; amount: number }>();

  count(group: string, name: string, amount = 1): void {
    // Hadoop counters are Java longs; a fractional amount would fail the task on a cluster.
    if (!Number.isSafeInteger(amount)) {
      throw new RangeError(`counter ${group},${name}: amount ${amount} is not an integer (Hadoop counters are longs)`);
    }
    const id = `${group}\u0000${name}`;
    const entry = this.totals.get(id);
    if (entry) entry.amount += amount;
    else this.totals.set(id, { group, name, amount });
  }

  lines(): string[] {
    return [...this.totals.values()].map(
      (c) => `reporter:counter:${sanitizeCounterName(c.group)},${sanitizeCounterName(c.name)},${c.amount}`,
    );
  }
}

function splitRaw(line: string): [rawKey: string, rawValue: string] {
  const tab = line.indexOf('\t');
  return tab < 0 ? [line, ''] : [line.slice(0, tab), line.slice(tab + 1)];
}

/** Runs `phase` of `job` over `io.input`; throws `RecordError` naming the line on a bad record. */
export async function runTask(
  job: JobSpec,
  phase: Phase,
  side: ReadonlyMap<string, readonly SideRecord[]>,
  io: TaskIo,
): Promise<void> {
  const writer = new RecordWriter(io.output);
  const counters = new CounterBag();
  const ctx: TaskContext = {
    emit: (key, value) => writer.emit(key, value),
    count: (group, name, amount) => counters.count(group, name, amount),
    side: (dataset) => {
      const records = side.get(dataset);
      if (!records) throw new Error(`job ${job.name}: side dataset "${dataset}" is not in JobSpec.side or was not given`);
      return records;
    },
  };

  let lineNo = 0;
  const unescape = (field: string, what: string): string => {
    try {
      return unescapeField(field);
    } catch (e) {
      throw new RecordError(`stdin line ${lineNo}: ${what}: ${(e as Error).message}`);
    }
  };
  const afterChunk = () => writer.drain();

  if (phase === 'map') {
    const mapper = job.mapper(ctx);
    await forEachLine(
      io.input,
      (line) => {
        lineNo++;
        const [k, v] = splitRaw(line);
        mapper.map(unescape(k, 'key'), unescape(v, 'value'));
      },
      afterChunk,
    );
    mapper.close?.();
  } else {
    const factory = phase === 'combine' ? job.combiner : job.reducer;
    if (!factory) throw new Error(`job ${job.name} has no ${phase === 'combine' ? 'combiner' : 'reducer'}`);
    const reducer: Reducer = factory(ctx);
    // Groups are runs of equal *encoded* keys: equal encodings are equal keys, and the sort saw encodings.
    let rawKey: string | undefined;
    let key = '';
    let values: string[] = [];
    const flushGroup = () => {
      if (rawKey !== undefined) reducer.reduce(key, values);
    };
    await forEachLine(
      io.input,
      (line) => {
        lineNo++;
        const [k, v] = splitRaw(line);
        if (k !== rawKey) {
          flushGroup();
          rawKey = k;
          key = unescape(k, 'key');
          values = [];
        }
        values.push(unescape(v, 'value'));
      },
      afterChunk,
    );
    flushGroup();
    reducer.close?.();
  }
  await writer.end();
  for (const line of counters.lines()) io.report(line);
}
