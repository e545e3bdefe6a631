import { describe, expect, it } from 'vitest';
import { normalize } from '../../../algorithms/text/normalize.ts';
import { baseText, copyText, DEFAULT_SCALE, oraclePairs, passageText, planScale, scaleDocuments, templateText, type ScaleSynthOptions } from '../../../harness/synth/scale.ts';
import { buildTextModel } from '../../../harness/synth/text-model.ts';
import { smallCorpus } from '../../support/corpus.ts';
import { runPlan } from '../../support/run-plan.ts';

const small = smallCorpus();
const source = Array.from(small.texts).map((text, i) => ({ id: `s${i}`, text: `${text}\nnon-Latin-1 words like \u2018this\u2019 or \u4e2d\u6587 are left out of the model` }));
const model = buildTextModel(source);
const options = (documents: number, seed = 1, more: Partial<ScaleSynthOptions> = {}): ScaleSynthOptions => ({ ...DEFAULT_SCALE, documents, seed, ...more });

/** Word-level edit distance (insertions, deletions, replacements). */
function levenshtein(a: readonly string[], b: readonly string[]): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) row.push(Math.min((prev[j] as number) + 1, (row[j - 1] as number) + 1, (prev[j - 1] as number) + (a[i - 1] === b[j - 1] ? 0 : 1)));
    prev = row;
  }
  return prev[b.length] as number;
}

/** Word 8-grams of a text after normalization: what a 64-character shingle roughly spans. */
function grams(text: string): Set<string> {
  const w = normalize(text).split(' ');
  const out = new Set<string>();
  for (let i = 0; i + 8 <= w.length; i++) out.add(w.slice(i, i + 8).join(' '));
  return out;
}

describe('synth scale: the text model', () => {
  it('keeps Latin-1 words at their frequencies, document lengths and real lines', () => {
    expect(model.words).not.toContain('\u2018this\u2019');
    expect(model.words.some((w) => [...w].some((c) => c.charCodeAt(0) > 0xff))).toBe(false);
    // the added line leaves out two tokens a document, on top of what the texts alone leave out
    const plain = buildTextModel(Array.from(small.texts).map((text, i) => ({ id: `s${i}`, text })));
    expect(model.leftOut - plain.leftOut).toBe(2 * small.texts.length);
    expect(model.lengths.length).toBe(small.texts.length);
    // "the" is in most texts: its share of the tokens is its count in the source
    const the = model.words.indexOf('the');
    const count = source.reduce((s, d) => s + d.text.split(/\s+/).filter((w) => w === 'the').length, 0);
    expect(model.tokens.filter((t) => t === the).length).toBe(count);
    expect(model.passages.length).toBeGreaterThan(0);
  });
});

describe('synth scale', () => {
  it('is deterministic from the seed, and another seed gives another corpus', () => {
    const one = [...scaleDocuments(model, planScale(options(300, 5)))];
    expect([...scaleDocuments(model, planScale(options(300, 5)))]).toEqual(one);
    const other = [...scaleDocuments(model, planScale(options(300, 6)))];
    expect(other.map((d) => d.text)).not.toEqual(one.map((d) => d.text));
    expect(one.map((d) => d.id)).toEqual(Array.from({ length: 300 }, (_, i) => `doc-${String(i).padStart(7, '0')}`));
  });

  it('plants the share of copies asked for, in clusters of one to three copies of a source used once', () => {
    const plan = planScale(options(5000, 2));
    expect(plan.copySource.length).toBe(500);
    expect(plan.base).toBe(4500);
    const perSource = new Map<number, number>();
    for (const s of plan.copySource) perSource.set(s, (perSource.get(s) ?? 0) + 1);
    expect(perSource.size).toBe(plan.clusters);
    expect(Math.max(...perSource.values())).toBeLessThanOrEqual(3);
    // cluster sizes 1, 2, 3 copies with probabilities 0.6, 0.3, 0.1: 1.5 copies a cluster on average
    expect(500 / plan.clusters).toBeGreaterThan(1.35);
    expect(500 / plan.clusters).toBeLessThan(1.65);
    // an oracle pair for every two documents of a cluster: C(k+1, 2) for k copies
    let pairs = 0;
    for (const k of perSource.values()) pairs += ((k + 1) * k) / 2;
    expect(oraclePairs(plan).length).toBe(pairs);
  });

  it('plants each shared passage in at most max-share base documents, with P(df >= k) = 2 / k', () => {
    const plan = planScale(options(40_000, 3, { maxShare: 50 }));
    const df = new Map<number, number>();
    for (const p of plan.passageOf) if (p >= 0) df.set(p, (df.get(p) ?? 0) + 1);
    expect([...df.values()].reduce((s, x) => s + x, 0)).toBe(Math.round(0.3 * plan.base));
    expect(Math.max(...df.values())).toBeLessThanOrEqual(50);
    // Truncated at 50, P(df >= k | df <= 50) = (2/k - 2/51) / (1 - 2/51); at k = 4: 0.48
    const values = [...df.values()].slice(0, -1); // the last passage is cut to fill the slots exactly
    const share = values.filter((x) => x >= 4).length / values.length;
    expect(share).toBeGreaterThan(0.44);
    expect(share).toBeLessThan(0.52);
  });

  it('edits a copy at its rate: rate 0 is the source itself, and about that share of words changes', () => {
    const plan = planScale(options(20_000, 4, { editRates: [0, 0.1] }));
    let zero = 0;
    let edits = 0;
    let words = 0;
    for (let c = 0; c < 400; c++) {
      const original = baseText(model, plan, plan.copySource[c] as number);
      const copy = copyText(model, plan, c);
      if (plan.copyRate[c] === 0) {
        expect(copy).toBe(original);
        zero++;
        continue;
      }
      const a = original.split(' ');
      edits += levenshtein(a, copy.split(' '));
      words += a.length;
    }
    expect(zero).toBeGreaterThan(100);
    // One edit (replace, delete or insert) a word at rate 0.1; the word-level edit distance counts
    // each once, or less when a deletion and an insertion meet or a word is replaced by itself.
    expect(edits / words).toBeGreaterThan(0.085);
    expect(edits / words).toBeLessThan(0.105);
  });

  it('lets two documents share a run of eight words only when planted: a copy, or a shared passage', () => {
    const plan = planScale(options(600, 9));
    const docs = [...scaleDocuments(model, plan)];
    const planted = new Set(oraclePairs(plan).map((p) => `${p.a} ${p.b}`));
    const passageAt = new Map<string, number>();
    plan.order.forEach((logical, position) => {
      const base = logical < plan.base ? logical : (plan.copySource[logical - plan.base] as number);
      const p = plan.passageOf[base] as number;
      if (p >= 0) passageAt.set(`doc-${String(position).padStart(7, '0')}`, p);
    });
    const owners = new Map<string, number[]>();
    docs.forEach((d, i) => {
      for (const g of grams(d.text)) owners.set(g, [...(owners.get(g) ?? []), i]);
    });
    const sharing = new Set<string>();
    for (const list of owners.values()) for (let i = 0; i < list.length; i++) for (let j = i + 1; j < list.length; j++) sharing.add(`${(docs[list[i] as number] as { id: string }).id} ${(docs[list[j] as number] as { id: string }).id}`);
    expect(sharing.size).toBeGreaterThan(planted.size);
    const explained = (pair: string): boolean => {
      if (planted.has(pair)) return true;
      const [a, b] = pair.split(' ') as [string, string];
      const pa = passageAt.get(a);
      const pb = passageAt.get(b);
      if (pa === undefined || pb === undefined) return false;
      // the same passage, or two real lines of the 19-sentence source that share eight words
      const gb = grams(passageText(model, pb));
      return pa === pb || [...grams(passageText(model, pa))].some((g) => gb.has(g));
    };
    expect([...sharing].filter((p) => !explained(p))).toEqual([]);
  });

  it('gives planted pairs the ground truth finds: exact copies at 1, more edits lower', async () => {
    const plan = planScale(options(400, 11, { editRates: [0, 0.05, 0.3], boilerplate: 0 }));
    const docs = [...scaleDocuments(model, plan)];
    const truth = await runPlan('broder', { shingle: { unit: 'char', size: 64, start: 'word' } }, { ids: docs.map((d) => d.id), texts: docs.map((d) => d.text) }, { engine: 'auto' });
    const score = new Map<string, number>();
    for (const row of truth.rows) {
      const [a, b, s] = row.split(' ');
      score.set(`${docs[Number(a)]?.id} ${docs[Number(b)]?.id}`, Number(s));
    }
    const byRate = new Map<number, number[]>();
    for (const p of oraclePairs(plan)) {
      if (p.rateA !== 0 && p.rateB !== 0) continue;
      const rate = p.rateA + p.rateB;
      byRate.set(rate, [...(byRate.get(rate) ?? []), score.get(`${p.a} ${p.b}`) ?? 0]);
    }
    expect(byRate.get(0)?.every((s) => s === 1)).toBe(true);
    const mean = (r: number): number => (byRate.get(r) ?? []).reduce((s, x) => s + x, 0) / (byRate.get(r) ?? [1]).length;
    expect(mean(0.05)).toBeLessThan(1);
    expect(mean(0.3)).toBeLessThan(mean(0.05));
    expect(mean(0.3)).toBeGreaterThan(0);
  });
});

describe('synth scale: heavy shared text (--text walk, --templates)', () => {
  /** Every pair of consecutive words of the source, its documents one after the other, left-out tokens dropped. */
  const known = new Set(model.words);
  const stream = source.flatMap((d) => d.text.split(/\s+/).filter((t) => known.has(t)));
  const bigrams = new Set([...stream.slice(1).map((t, i) => `${stream[i]} ${t}`), `${stream.at(-1)} ${stream[0]}`]);

  it('walks the source’s word pairs: each word follows its predecessor somewhere in the source', () => {
    const plan = planScale(options(60, 3, { text: 'walk', boilerplate: 0, copies: 0 }));
    let pairs = 0;
    for (let i = 0; i < plan.base; i++) {
      const words = baseText(model, plan, i).split(/\s+/);
      for (let w = 0; w + 1 < words.length; w++, pairs++) expect(bigrams.has(`${words[w]} ${words[w + 1]}`), `${words[w]} ${words[w + 1]}`).toBe(true);
    }
    expect(pairs).toBeGreaterThan(1000);
  });

  it('gives each base document one template’s header and footer, the same text in every document of the template', () => {
    const plan = planScale(options(300, 4, { text: 'walk', templates: 5, copies: 0 }));
    const seen = new Map<number, number>();
    for (let i = 0; i < plan.base; i++) {
      const t = plan.templateOf[i] as number;
      expect(t >= 0 && t < 5).toBe(true);
      seen.set(t, (seen.get(t) ?? 0) + 1);
      const text = baseText(model, plan, i);
      expect(text.startsWith(`${templateText(model, plan, t, 'header')}\n\n`)).toBe(true);
      expect(text.endsWith(`\n\n${templateText(model, plan, t, 'footer')}`)).toBe(true);
    }
    // five templates over 300 documents: each carried by dozens
    expect([...seen.values()].every((n) => n > 30)).toBe(true);
    expect(templateText(model, plan, 0, 'header')).not.toBe(templateText(model, plan, 1, 'header'));
  });

  it('leaves the corpus without templates and walk as earlier versions made it', () => {
    const plain = planScale(options(200, 5));
    expect(plain.templateOf.every((t) => t === -1)).toBe(true);
    const withTemplates = planScale(options(200, 5, { templates: 3 }));
    expect([...withTemplates.order]).toEqual([...plain.order]);
    expect([...withTemplates.passageOf]).toEqual([...plain.passageOf]);
  });
});
