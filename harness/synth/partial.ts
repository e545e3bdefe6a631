/**
 * Planted partial duplicates (`bench synth partial`): from a real corpus, copy runs of real
 * sentences of one document into another at recorded positions, so that a partial-duplicate
 * detector can be measured against known spans (PDC-MR, Zhang et al. 2010, measured its
 * sequence matching on hand-labelled "Oracle" sets; this builds one mechanically).
 *
 * 1. Base documents: the corpus in a seeded random order, keeping a document only when none of
 *    its distinctive sentences (at least `minWords` words, compared normalized) occurs in a
 *    document already kept. The base then shares (almost) no sentence, so the planted runs are
 *    (almost) the only partial duplicates and the oracle is (almost) complete: mail's list
 *    footers and quoted replies would otherwise be found and counted as false positives.
 * 2. Plants: each planted pair takes a source document (used once) with at least `minRun`
 *    sentences, a run of `minRun`..`maxRun` consecutive sentences of it, and a host document
 *    (used once, never a source), and inserts the run before a random sentence of the host (or
 *    at its end). Each copied sentence is a paragraph of its own ("\n\n" around it) with its
 *    mail quote prefixes removed, so a rule-based splitter sees the same sentences in the host
 *    as in the source. With probability `editRate` a copied sentence gets one word replaced
 *    by a word of another document (a sentence-level edit).
 * 3. The oracle: for each plant, the source's character range of the run (in its unchanged
 *    text) and the host's (in its new text), and the run's length in sentences.
 * Deterministic from the seed.
 */
import type { Document } from '../../contract/index.ts';
import { normalize } from '../../algorithms/text/normalize.ts';
import { splitSentences, type SentenceSpan } from '../../algorithms/text/sentences.ts';
import type { OracleSpan } from '../evaluate/oracle-file.ts';
import { generator } from './random.ts';

export interface PartialSynthOptions {
  /** planted pairs */
  readonly plants: number;
  /** base documents kept at most (sources, hosts and the rest), before planting */
  readonly documents: number;
  readonly minRun: number;
  readonly maxRun: number;
  /** probability that a copied sentence has one word replaced */
  readonly editRate: number;
  /** sentences of at least this many words must be unique to the base */
  readonly minWords: number;
  readonly seed: number;
}

export const DEFAULT_SYNTH: Omit<PartialSynthOptions, 'seed'> = {
  plants: 200,
  documents: 1000,
  minRun: 3,
  maxRun: 8,
  editRate: 0,
  minWords: 3,
};

export interface PartialSynthResult {
  readonly docs: Document[];
  readonly oracle: OracleSpan[];
  /** documents of the corpus left out of the base because they share a sentence with it */
  readonly sharing: number;
  /** documents left out because they have no sentence */
  readonly withoutSentences: number;
}

const QUOTE_CONTINUATION = /\n[ \t]*(?:>[ \t]?)*/g;
const WORD = /[\p{L}\p{N}]+/gu;

export function synthPartial(corpus: readonly Document[], o: PartialSynthOptions): PartialSynthResult {
  if (o.minRun < 1 || o.maxRun < o.minRun) throw new Error(`synth partial: need 1 <= min-run <= max-run, got ${o.minRun} and ${o.maxRun}`);
  const random = generator(o.seed);
  const int = (lo: number, hi: number): number => lo + Math.floor(random() * (hi - lo + 1));
  const order = corpus.map((_, i) => i);
  for (let i = order.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [order[i], order[j]] = [order[j] as number, order[i] as number];
  }

  // 1. The base: documents sharing no distinctive sentence.
  const seen = new Set<string>();
  const base: { index: number; sentences: SentenceSpan[] }[] = [];
  let sharing = 0;
  let withoutSentences = 0;
  for (const i of order) {
    if (base.length >= o.documents) break;
    const text = (corpus[i] as Document).text;
    const sentences = splitSentences(text);
    if (sentences.length === 0) {
      withoutSentences++;
      continue;
    }
    const keys = sentences.map((s) => normalize(text.slice(s.start, s.end))).filter((k) => k.split(' ').length >= o.minWords);
    if (keys.some((k) => seen.has(k))) {
      sharing++;
      continue;
    }
    for (const k of keys) seen.add(k);
    base.push({ index: i, sentences });
  }

  // 2. Plants: sources with enough sentences, hosts from the rest, each used once.
  const sources = base.filter((d) => d.sentences.length >= o.minRun);
  const plants = Math.min(o.plants, sources.length, Math.floor(base.length / 2));
  const chosen = sources.slice(0, plants);
  const chosenSet = new Set(chosen.map((d) => d.index));
  const hosts = base.filter((d) => !chosenSet.has(d.index)).slice(0, plants);
  const texts = new Map<number, string>();
  const oracle: OracleSpan[] = [];
  for (let p = 0; p < hosts.length; p++) {
    const src = chosen[p] as (typeof base)[number];
    const host = hosts[p] as (typeof base)[number];
    const srcText = (corpus[src.index] as Document).text;
    const length = int(o.minRun, Math.min(o.maxRun, src.sentences.length));
    const first = int(0, src.sentences.length - length);
    const run = src.sentences.slice(first, first + length).map((s) => {
      const sentence = srcText.slice(s.start, s.end).replace(QUOTE_CONTINUATION, '\n');
      return random() < o.editRate ? editOneWord(sentence, corpus, random) : sentence;
    });
    const hostText = (corpus[host.index] as Document).text;
    const before = int(0, host.sentences.length);
    const at = before < host.sentences.length ? (host.sentences[before] as SentenceSpan).start : hostText.length;
    const inserted = `\n\n${run.join('\n\n')}\n\n`;
    texts.set(host.index, hostText.slice(0, at) + inserted + hostText.slice(at));
    oracle.push({
      a: (corpus[src.index] as Document).id,
      aStart: (src.sentences[first] as SentenceSpan).start,
      aEnd: (src.sentences[first + length - 1] as SentenceSpan).end,
      b: (corpus[host.index] as Document).id,
      bStart: at + 2,
      bEnd: at + inserted.length - 2,
      sentences: length,
    });
  }
  const docs = base
    .map((d) => d.index)
    .sort((x, y) => x - y)
    .map((i) => {
      const d = corpus[i] as Document;
      const text = texts.get(i);
      return text === undefined ? d : { ...d, text };
    });
  return { docs, oracle, sharing, withoutSentences };
}

/** Replaces one word of `sentence` by a word of a random document of the corpus. */
function editOneWord(sentence: string, corpus: readonly Document[], random: () => number): string {
  const words = [...sentence.matchAll(WORD)];
  const donor = [...(corpus[Math.floor(random() * corpus.length)] as Document).text.matchAll(WORD)];
  if (words.length === 0 || donor.length === 0) return sentence;
  const w = words[Math.floor(random() * words.length)] as RegExpMatchArray;
  const replacement = (donor[Math.floor(random() * donor.length)] as RegExpMatchArray)[0];
  const at = w.index as number;
  return sentence.slice(0, at) + replacement + sentence.slice(at + w[0].length);
}
