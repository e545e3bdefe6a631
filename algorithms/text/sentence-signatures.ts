/**
 * Sentence signatures (Zhang et al. 2010 §4.1): each sentence of a document becomes a set of
 * signatures, the terms of PDC-MR's inverted index (and of document-level SpotSigs'). Shingles and spot signatures are 64-bit
 * Rabin fingerprints (`algorithms/text/rabin64.ts`) written as 16 hex digits, so index keys have
 * one size whatever the sentence.
 *
 * - shingles: every n consecutive words of the normalized sentence; a sentence of fewer than n
 *   words is one shingle, all its words (as `wordShingles` cuts documents).
 * - imatch (Chowdhury et al. 2002): the SHA-1 of the sentence's distinct words that lie in the
 *   lexicon, the words whose normalized idf log(N/df)/log(N) is in [idf_min, idf_max]
 *   (`algorithms/text/lexicon.ts`). N and df count documents, as the paper's §5.3 says ("N is
 *   the corpus size, df_j is the document frequency"). One signature a sentence, so the Jaccard
 *   of two sentences is 0 or 1; a sentence with no lexicon word has none. The 40 hex digits
 *   of SHA-1 are the index key as they are.
 * - spotsigs (Theobald et al. 2008): at every occurrence of an antecedent word, the antecedent
 *   and a chain of `chain` content words (words that are not antecedents) taken every
 *   `distance` content words after it, within the sentence: with d = 1, c = 2, "a rally to kick
 *   off" gives a:rally:kick when "to" and "off" are antecedents. An antecedent whose chain runs
 *   past the end of the sentence gives no signature.
 */
import type { DocumentFrequencies } from './document-frequencies.ts';
import { fingerprintHex, fingerprintOf, shingleFingerprints } from './fingerprint.ts';
import type { KeyTable } from './key-table.ts';
import { Lexicons, lexiconTerms, sortedUnique } from './lexicon.ts';
import { normalize } from './normalize.ts';
import { splitSentences } from './sentences.ts';
import { words } from './tokens.ts';
import type { SentenceSignature } from './params.ts';

/** A sentence's distinct signatures, in first-occurrence order. */
export type Signer = (normalizedSentence: string) => string[];

/** Whether the signature needs the corpus' document frequencies (a job before the index). */
export function needsDocumentFrequencies(spec: SentenceSignature): boolean {
  return spec.method !== 'shingles';
}

/** The terms whose document frequencies the signatures use: the words of the normalized document. */
export function documentTerms(text: string): string[] {
  return words(normalize(text));
}

/** What a signer needs of the corpus: the antecedents (SpotSigs), computed once per run. */
export interface CorpusTables {
  readonly antecedents?: readonly string[];
  /** I-Match: the lexicon's terms */
  readonly lexicon?: readonly string[];
}

export function corpusTables(spec: SentenceSignature, df: DocumentFrequencies | null): CorpusTables {
  if (spec.method === 'shingles') return {};
  if (!df) throw new Error(`${spec.method} signatures need the document frequencies`);
  switch (spec.method) {
    case 'spotsigs':
      return { antecedents: mostFrequent(df, spec.antecedents) };
    case 'imatch':
      return { lexicon: lexiconTerms(df, { min: spec.idf_min, max: spec.idf_max }) };
  }
}

export function makeSigner(spec: SentenceSignature, tables: CorpusTables): Signer {
  switch (spec.method) {
    case 'shingles':
      return (sentence) => shingleSignatures(sentence, spec.n);
    case 'imatch': {
      const lexicon = new Lexicons(tables.lexicon ?? []);
      return (sentence) => {
        const signature = lexicon.signatures(sortedUnique(words(sentence)))[0];
        return signature ? [signature] : [];
      };
    }
    case 'spotsigs': {
      const antecedents = new Set(tables.antecedents);
      return (sentence) => spotSignatures(words(sentence), antecedents, spec.distance, spec.chain);
    }
  }
}

/**
 * The kernel's form of a signer: the same signatures as binary keys, the hex digits of the
 * `Signer`'s strings read as uint32 words (2 for a 64-bit Rabin fingerprint, 5 for I-Match's
 * SHA-1), so that sentences are compared without building a string per signature.
 */
export interface KeySigner {
  readonly width: number;
  /** Adds the sentence's signatures to `into` (cleared by the caller): its keys are then the distinct ones, in first-occurrence order. */
  sign(normalizedSentence: string, into: KeyTable): void;
}

export function signatureWidth(spec: SentenceSignature): number {
  return spec.method === 'imatch' ? 5 : 2;
}

export function makeKeySigner(spec: SentenceSignature, tables: CorpusTables): KeySigner {
  const width = signatureWidth(spec);
  switch (spec.method) {
    case 'shingles': {
      const shingle = { unit: 'word', size: spec.n } as const;
      return {
        width,
        sign(sentence, into) {
          const fps = shingleFingerprints(sentence, shingle, 'rabin64');
          for (let i = 0; i < fps.count; i++) into.id(fps.data, 2 * i);
        },
      };
    }
    case 'imatch': {
      const signer = makeSigner(spec, tables);
      return {
        width,
        sign(sentence, into) {
          for (const sig of signer(sentence)) into.id(hexWords(sig), 0);
        },
      };
    }
    case 'spotsigs': {
      const antecedents = new Set(tables.antecedents);
      return {
        width,
        sign(sentence, into) {
          for (const chain of spotChains(words(sentence), antecedents, spec.distance, spec.chain)) into.id(fingerprintOf(chain, 'rabin64'), 0);
        },
      };
    }
  }
}

/** Lower-case hex digits, 8 a word, as uint32 words (the inverse of `fingerprintHex`). */
export function hexWords(hex: string): Uint32Array {
  const out = new Uint32Array(hex.length / 8);
  for (let k = 0; k < out.length; k++) out[k] = parseInt(hex.slice(8 * k, 8 * k + 8), 16);
  return out;
}

export function shingleSignatures(normalizedSentence: string, n: number): string[] {
  const fps = shingleFingerprints(normalizedSentence, { unit: 'word', size: n }, 'rabin64');
  const seen = new Set<string>();
  for (let i = 0; i < fps.count; i++) seen.add(fingerprintHex(fps.data, i, 2));
  return [...seen];
}

/** The spot signatures of a sentence's words as readable strings `antecedent:w1:…:wc`. */
export function spotChains(sentenceWords: readonly string[], antecedents: ReadonlySet<string>, distance: number, chain: number): string[] {
  const out: string[] = [];
  for (let i = 0; i < sentenceWords.length; i++) {
    const a = sentenceWords[i] as string;
    if (!antecedents.has(a)) continue;
    const links: string[] = [];
    let content = 0;
    for (let j = i + 1; j < sentenceWords.length && links.length < chain; j++) {
      const w = sentenceWords[j] as string;
      if (antecedents.has(w)) continue;
      content++;
      if (content % distance === 0) links.push(w);
    }
    if (links.length === chain) out.push(`${a}:${links.join(':')}`);
  }
  return out;
}

export function spotSignatures(sentenceWords: readonly string[], antecedents: ReadonlySet<string>, distance: number, chain: number): string[] {
  const seen = new Set<string>();
  for (const s of spotChains(sentenceWords, antecedents, distance, chain)) seen.add(fingerprintHex(fingerprintOf(s, 'rabin64'), 0, 2));
  return [...seen];
}

/** The k terms of highest document frequency; ties go to the term that sorts first (code units). */
export function mostFrequent(df: DocumentFrequencies, k: number): string[] {
  const terms = [...df.df.entries()];
  terms.sort((x, y) => y[1] - x[1] || (x[0] < y[0] ? -1 : x[0] > y[0] ? 1 : 0));
  return terms.slice(0, k).map(([t]) => t);
}

/** One sentence of a document as the index sees it. */
export interface SignedSentence {
  /** sentence id: position among the document's sentences */
  readonly id: number;
  readonly start: number;
  readonly end: number;
  /** distinct signatures; empty when the sentence yields none */
  readonly signatures: readonly string[];
}

export interface SignedDocument {
  /** all sentences of the document, with or without signatures */
  readonly sentences: readonly SignedSentence[];
}

/** Splits a document into sentences and signs each (MR#1's mapper, and the kernel's first pass). */
export function signDocument(text: string, signer: Signer): SignedDocument {
  return {
    sentences: splitSentences(text).map((s, id) => ({
      id,
      start: s.start,
      end: s.end,
      signatures: signer(normalize(text.slice(s.start, s.end))),
    })),
  };
}
