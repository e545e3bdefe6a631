import { readCounter, type AlgorithmAdapter, type MeasuredVariant } from '../../contract/index.ts';
import { simhashExplain } from './explain.ts';
import { CLUSTERS_JOB, FINGERPRINT_JOB, HAMMING_JOB } from './jobs.ts';
import { simhashParams } from './params.ts';
import { plan } from './plan.ts';
import { metaFieldsUsed, weightingOptions } from './weights.ts';

const pairsOf = (v: MeasuredVariant): number | null => readCounter(v.counters, { group: HAMMING_JOB, name: 'output_pairs' });

export const adapter: AlgorithmAdapter<typeof simhashParams> = {
  name: 'simhash',
  description: "simhash: 64-bit fingerprints of tf-idf weighted words or shingles; pairs within Hamming distance k (Manku's tables)",
  citation: 'Charikar 2002; Manku, Jain and Das Sarma 2007, Detecting near-duplicates for web crawling; Seshasai 2009, chapters 3-6',
  params: simhashParams,
  plan,
  metaFields: (params) => metaFieldsUsed(weightingOptions(params, 0)),
  fileParams: [['document_frequencies', 'path']],
  explain: simhashExplain,
  // Table 6.2 of the thesis: the mean size of the clusters documents lead (§6.3). Every pair
  // adds one to the cluster of each of its documents, so the sums come from the counters.
  measures: [
    {
      key: 'mean_cluster_size',
      label: 'Mean cluster size, every document with a fingerprint (Table 6.2)',
      worse: null,
      summary: { header: 'clus', digits: 2 },
      value: (v) => {
        const f = readCounter(v.counters, { group: FINGERPRINT_JOB, name: 'fingerprints' });
        const p = pairsOf(v);
        return f === null || p === null || f === 0 ? null : 1 + (2 * p) / f;
      },
    },
    {
      key: 'mean_dup_cluster_size',
      label: 'Mean cluster size, documents with a near-duplicate (Table 6.2)',
      worse: null,
      value: (v) => {
        const d = readCounter(v.counters, { group: CLUSTERS_JOB, name: 'documents_with_duplicates' });
        const p = pairsOf(v);
        return d === null || p === null || d === 0 ? null : (d + 2 * p) / d;
      },
    },
  ],
  figures: [
    {
      id: 'simhash-clusters',
      title: 'simhash cluster sizes',
      note: 'Mean size of the cluster each document with a near-duplicate leads, itself included (simhash thesis §6.3, Table 6.2).',
      chart: {
        kind: 'bars-per-variant',
        title: 'Mean cluster size of documents with a near-duplicate (Table 6.2)',
        measure: 'mean_dup_cluster_size',
        axis: 'documents per cluster',
        legend: 'mean cluster size',
      },
    },
  ],
};
