/**
 * A mail corpus' weak oracle of partial duplicates (`evaluate.replies`): a reply usually quotes
 * the message it answers, so the pairs (reply, parent) its In-Reply-To header names are partial
 * duplicates a detector should find, though not all of them (a reply need not quote). Readers
 * carry the headers in meta (`message_id`, `in_reply_to`: msg-ids, space-separated).
 *
 * Measures of a variant, beside metrics.csv's others:
 *   reply_pairs             reply-parent pairs in the corpus (both messages present)
 *   reply_recall            share of them among the variant's decisions (any detector)
 * and, for a detector that writes spans, with the kinds of `span-kinds.ts`:
 *   reply_span_recall       share of reply-parent pairs joined by a span that is not boilerplate
 *   spans                   spans found
 *   span_reply_share        share of spans that join a reply and its parent and are not boilerplate
 *   span_footer_share, span_signature_share, span_repeated_share: share of spans of each kind
 *   span_boilerplate_share  share of spans of any of the three
 */
import type { DocumentSet, PairList, Span } from '../../contract/index.ts';
import { isBoilerplate, spanKinds, type SpanKind } from './span-kinds.ts';

export interface RepliesConfig {
  /** k of the `repeated` kind */
  readonly repeated_documents: number;
}

/** The reply-parent pairs of a corpus as "a:b" keys (a < b), from meta message_id and in_reply_to. */
export function replyParentPairs(docs: DocumentSet): Set<string> {
  const byId = new Map<string, number>();
  const meta = docs.meta ?? [];
  meta.forEach((m, i) => {
    const id = m?.['message_id'];
    if (id !== undefined && !byId.has(id)) byId.set(id, i);
  });
  const pairs = new Set<string>();
  meta.forEach((m, i) => {
    for (const ref of (m?.['in_reply_to'] ?? '').split(' ')) {
      const parent = byId.get(ref);
      if (parent === undefined || parent === i) continue;
      pairs.add(parent < i ? `${parent}:${i}` : `${i}:${parent}`);
    }
  });
  return pairs;
}

export interface ReplyOracle {
  readonly pairs: ReadonlySet<string>;
  /** The span kinds of a variant's spans. */
  kinds(spans: readonly Span[]): SpanKind[];
  /** The measures above; `decided(i)`: whether pair i of `pairs` is one of the variant's decisions. */
  measures(pairs: PairList, decided: (i: number) => boolean, spans?: { readonly spans: readonly Span[]; readonly kinds: readonly SpanKind[] }): Record<string, number | null>;
  /** A warning for run.json when the corpus has no reply-parent pair, else undefined. */
  readonly warning?: string;
}

const share = (n: number, d: number): number | null => (d === 0 ? null : n / d);

export function loadReplyOracle(docs: DocumentSet, config: RepliesConfig): ReplyOracle {
  const replyPairs = replyParentPairs(docs);
  const warning =
    replyPairs.size > 0
      ? undefined
      : 'evaluate.replies: no document of the corpus replies to another (meta in_reply_to naming a message_id): the reply measures are empty';
  return {
    pairs: replyPairs,
    ...(warning ? { warning } : {}),
    kinds: (spans) => spanKinds(spans, docs.texts, config.repeated_documents),
    measures(pairs, decided, withSpans) {
      let found = 0;
      for (let i = 0; i < pairs.a.length; i++) if (decided(i) && replyPairs.has(`${pairs.a[i]}:${pairs.b[i]}`)) found++;
      const out: Record<string, number | null> = { reply_pairs: replyPairs.size, reply_recall: share(found, replyPairs.size) };
      if (!withSpans) return out;
      const { spans, kinds } = withSpans;
      const joined = new Set<string>();
      let reply = 0;
      let footer = 0;
      let signature = 0;
      let repeated = 0;
      let boilerplate = 0;
      spans.forEach((s, i) => {
        const k = kinds[i] as SpanKind;
        if (k.footer) footer++;
        if (k.signature) signature++;
        if (k.repeated) repeated++;
        if (isBoilerplate(k)) {
          boilerplate++;
          return;
        }
        const key = `${s.a}:${s.b}`;
        if (!replyPairs.has(key)) return;
        reply++;
        joined.add(key);
      });
      const n = spans.length;
      return {
        ...out,
        reply_span_recall: share(joined.size, replyPairs.size),
        spans: n,
        span_reply_share: share(reply, n),
        span_footer_share: share(footer, n),
        span_signature_share: share(signature, n),
        span_repeated_share: share(repeated, n),
        span_boilerplate_share: share(boilerplate, n),
      };
    },
  };
}
