/**
 * The external detector's evidence about a pair (issue 26): the lines its output holds for the
 * two documents, each with its file and line number: the pair's line (`doc_a,doc_b[,score]`) or
 * each document's cluster line (`doc,cluster`). Read again from the `file` a run read; for a
 * command, from its output as the run kept it (`kept/<variant>/output.<format>.csv.gz`, kernel.ts).
 * A run written before outputs were kept has none: the evidence says so, and the run's score
 * (from its pairs file) is what the command wrote.
 */
import { createReadStream, existsSync } from 'node:fs';
import { basename } from 'node:path';
import { createInterface } from 'node:readline';
import { createGunzip, gunzipSync } from 'node:zlib';
import type { AdapterExplain, Evidence, ExplainContext } from '../../contract/index.ts';
import { csvFields } from './csv-line.ts';
import { keptOutputName } from './kernel.ts';
import type { ExternalParams } from './params.ts';

export interface OutputLine {
  readonly line: number;
  readonly text: string;
}

/** An output's lines by what they name: a pair (`a\0b`, ids in either order stored both ways) or a clustered document (its id). */
export type OutputLines = ReadonlyMap<string, readonly OutputLine[]>;

const pairKey = (x: string, y: string): string => (x < y ? `${x}\0${y}` : `${y}\0${x}`);

/** Adds line `n` of an output to the lines by what they name. */
function addLine(by: Map<string, OutputLine[]>, format: ExternalParams['output'], text: string, n: number): void {
  const f = csvFields(text);
  if (!f || f.length < 2) return;
  const key = format === 'clusters' ? (f[0] as string) : pairKey(f[0] as string, f[1] as string);
  const l = by.get(key);
  if (l) l.push({ line: n, text });
  else by.set(key, [{ line: n, text }]);
}

/** Reads a pairs or clusters output (gzip when it ends in .gz) into its lines by what they name. */
export async function outputLines(path: string, format: ExternalParams['output']): Promise<OutputLines> {
  const by = new Map<string, OutputLine[]>();
  const raw = createReadStream(path);
  const input = path.endsWith('.gz') ? raw.pipe(createGunzip()) : raw;
  input.setEncoding('utf8');
  raw.on('error', (e) => input.destroy(e));
  let n = 0;
  for await (const text of createInterface({ input, crlfDelay: Infinity })) addLine(by, format, text, ++n);
  return by;
}

/** The lines of an output held as text, split as readline splits a file (\n, \r\n, \r). */
export function outputLinesOf(text: string, format: ExternalParams['output']): OutputLines {
  const by = new Map<string, OutputLine[]>();
  const lines = text.split(/\r\n|\n|\r/);
  // A final line break ends the last line: no empty line after it.
  if (lines[lines.length - 1] === '') lines.pop();
  lines.forEach((l, i) => addLine(by, format, l, i + 1));
  return by;
}

const SHOWN = 80;
const cut = (s: string): string => (s.length <= SHOWN ? s : `${s.slice(0, SHOWN - 1)}…`);

/** The evidence from an output's lines (pure: the tests give the lines). */
export function evidenceFromLines(o: { readonly file: string; readonly format: ExternalParams['output']; readonly lines: OutputLines; readonly idA: string; readonly idB: string; readonly width: number }): Evidence {
  const name = basename(o.file);
  const fit = (s: string): string => (s.length <= o.width ? s : `${s.slice(0, o.width - 1)}…`);
  const at = (l: OutputLine): string => `${name} line ${l.line}: ${cut(l.text)}`;
  if (o.format === 'clusters') {
    const la = o.lines.get(o.idA) ?? [];
    const lb = o.lines.get(o.idB) ?? [];
    const clusterOf = (l: readonly OutputLine[]): string | null => (l.length === 0 ? null : ((csvFields((l[l.length - 1] as OutputLine).text) as string[])[1] as string));
    const [ca, cb] = [clusterOf(la), clusterOf(lb)];
    const summary =
      ca === null || cb === null
        ? `${name} puts ${ca === null && cb === null ? 'neither document' : ca === null ? 'only B' : 'only A'} in a cluster`
        : ca === cb
          ? `${name} puts both in cluster ${cut(ca)} (line ${(la[la.length - 1] as OutputLine).line} and line ${(lb[lb.length - 1] as OutputLine).line})`
          : `${name} puts A in cluster ${cut(ca)} and B in cluster ${cut(cb)}`;
    return {
      summary: fit(summary),
      data: { file: o.file, format: o.format, a: la.map((l) => ({ ...l })), b: lb.map((l) => ({ ...l })), cluster_a: ca, cluster_b: cb },
      lines: [...(la.length ? la.map((l) => `A ${at(l)}`) : [`A: no line of ${name} names it`]), ...(lb.length ? lb.map((l) => `B ${at(l)}`) : [`B: no line of ${name} names it`])].map(fit),
    };
  }
  const l = o.lines.get(pairKey(o.idA, o.idB)) ?? [];
  const summary = l.length === 0 ? `no line of ${name} names the pair` : `${name} line ${(l[0] as OutputLine).line} names the pair${l.length > 1 ? ` (and ${l.length - 1} more lines)` : ''}`;
  return { summary: fit(summary), data: { file: o.file, format: o.format, lines: l.map((x) => ({ ...x })) }, lines: l.map(at).map(fit) };
}

const keptLines = new WeakMap<Uint8Array, OutputLines>();

export const explain: AdapterExplain<ExternalParams> = {
  async evidence(params: ExternalParams, ctx: ExplainContext): Promise<Evidence> {
    const idA = ctx.docs.ids[ctx.a] as string;
    const idB = ctx.docs.ids[ctx.b] as string;
    const file = params.file;
    if (file === undefined) {
      // A command: its output as the run kept it (kernel.ts).
      const name = keptOutputName(params);
      const bytes = ctx.kept?.(name);
      if (bytes === undefined) {
        const line = 'the command’s output was not kept with this run: the run’s score of the pair is what it wrote';
        return { summary: line.length <= ctx.width ? line : `${line.slice(0, ctx.width - 1)}…`, data: { file: null, format: params.output }, lines: [] };
      }
      // Each error of the variant asks: its lines are read once, for as long as the run holds the bytes.
      let lines = keptLines.get(bytes);
      if (!lines) keptLines.set(bytes, (lines = outputLinesOf(gunzipSync(bytes).toString('utf8'), params.output)));
      return evidenceFromLines({ file: name.slice(0, -'.gz'.length), format: params.output, lines, idA, idB, width: ctx.width });
    }
    if (!existsSync(file)) {
      return { summary: `${basename(file)}: no longer there to read`.slice(0, ctx.width), data: { file, format: params.output }, lines: [] };
    }
    const read = (): Promise<OutputLines> => outputLines(file, params.output);
    const lines = await (ctx.cached ? ctx.cached(`external-output:${params.output}:${file}`, read) : read());
    return evidenceFromLines({ file, format: params.output, lines, idA, idB, width: ctx.width });
  },
};
