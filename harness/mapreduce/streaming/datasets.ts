/**
 * Datasets on disk as Hadoop keeps them: a dataset is an ordered list of part files of text
 * records. The `documents` input is one line a document (key = document index in decimal,
 * value = text); the plan's outputs are decoded by `../outputs.ts`.
 */
import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
import { encodeDocumentMeta, type DocumentSet, type PlanOutput } from '../../../contract/index.ts';
import { OutputCollector, outputDatasets, type PlanOutputs } from '../outputs.ts';
import { decodeRecord, encodeRecord } from '../records.ts';
import { forEachLine } from './line-reader.ts';

const WRITE_CHARS = 1 << 20;

export async function writeDocuments(file: string, docs: DocumentSet, signal?: AbortSignal): Promise<void> {
  const fh = await open(file, 'w');
  try {
    let buf = '';
    for (let i = 0; i < docs.texts.length; i++) {
      buf += encodeRecord(String(i), docs.texts.at(i) as string) + '\n';
      if (buf.length >= WRITE_CHARS) {
        signal?.throwIfAborted();
        await fh.write(buf);
        buf = '';
      }
    }
    if (buf) await fh.write(buf);
  } finally {
    await fh.close();
  }
}

/** The `documents-meta` dataset: one record per document, its meta as a JSON object. */
export async function writeDocumentMeta(file: string, docs: DocumentSet): Promise<void> {
  const fh = await open(file, 'w');
  try {
    let buf = '';
    for (let i = 0; i < docs.texts.length; i++) {
      buf += encodeRecord(String(i), encodeDocumentMeta(docs.meta?.[i])) + '\n';
      if (buf.length >= WRITE_CHARS) {
        await fh.write(buf);
        buf = '';
      }
    }
    if (buf) await fh.write(buf);
  } finally {
    await fh.close();
  }
}

/** Decodes the plan's output datasets; a malformed record is a bug in the algorithm's jobs, reported with its place. */
export async function readOutputs(
  variant: string,
  output: PlanOutput,
  datasets: ReadonlyMap<string, readonly string[]>,
  numDocs: number,
): Promise<PlanOutputs> {
  const collector = new OutputCollector(output, numDocs);
  for (const name of outputDatasets(output)) {
    const files = datasets.get(name);
    if (!files) throw new Error(`plan of ${variant} produced no dataset "${name}"`);
    for (const file of files) {
      let lineNo = 0;
      await forEachLine(createReadStream(file, { highWaterMark: 1 << 20 }), (line) => {
        lineNo++;
        const [key, value] = decodeRecord(line);
        collector.add(name, key, value, () => `${file}: line ${lineNo}`);
      });
    }
  }
  return collector.result();
}
