/**
 * What readers carry in `meta` beside the text, for detectors that use it (simhash's metadata
 * features and tag boosting, Seshasai 2009 §4.1 and §5.4): the mail sender, page titles and the
 * text of a, b, i and h1-h3 elements. Expected values are read off the fixture files.
 */
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { mailToText } from '../../../harness/corpus/mail.ts';
import { newCorpusStats, readCorpus } from '../../../harness/corpus/read.ts';
import { corpusReaders } from '../../../harness/corpus/registry.ts';

const fixture = (p: string): string => fileURLToPath(new URL(`../../fixtures/${p}`, import.meta.url));

async function metas(format: string, path: string, options: Record<string, unknown> = {}): Promise<Record<string, unknown>> {
  const out: Record<string, unknown> = {};
  for await (const d of readCorpus({ format, path, options }, newCorpusStats())) out[d.id] = d.meta;
  return out;
}

describe('meta carried by the readers', () => {
  it('mail: the sender address (From: sender@example.org in the fixture)', async () => {
    const m = await metas('spamassassin', fixture('mail'), { groups: ['spam-1'] });
    expect(m['spam-1/00001']).toEqual({ group: 'spam-1', subject: 'Buy now', from: 'sender@example.org' });
  });

  it('mail: the tagged text of its HTML parts, one element a line', async () => {
    const raw = [
      'From: "Ann" <ann@example.org>',
      'Subject: hi',
      'MIME-Version: 1.0',
      'Content-Type: text/html; charset=utf-8',
      '',
      '<p>Get <b>free</b> stuff <a href="x">here now</a></p>',
    ].join('\r\n');
    const mail = await mailToText(Buffer.from(raw));
    expect(mail.from).toBe('ann@example.org');
    expect(mail.tagged).toBe('free\nhere now');
    expect(mail.text).toBe('Get  free  stuff  here now');
  });

  it('web pages and TREC disks: the title (<TITLE>t</TITLE>, <HEADLINE>, <title>Not text</title>)', async () => {
    expect((await metas('warc', fixture('trec/clueweb09-style.warc.gz')))['clueweb09-en0000-00-00001']).toEqual({ url: 'http://one.example/', title: 't' });
    const trec = await metas('trec', fixture('trec/disks.trec'));
    expect(trec['LA010189-0001']).toEqual({ title: 'Rates & fees rise' });
    expect(trec['FT911-1']).toEqual({ title: 'FT 01 MAY 91 / Markets close higher' });
    expect((await metas('html', fixture('html/site')))['a']).toEqual({ file: 'a.html', title: 'Not text' });
  });

  it('every reader says which fields it carries', () => {
    expect(Object.fromEntries(corpusReaders.map((r) => [r.format, r.meta]))).toEqual({
      spamassassin: ['group', 'subject', 'from', 'tagged', 'message_id', 'in_reply_to'],
      jsonl: 'any',
      trecweb: ['url', 'title', 'tagged'],
      trec: ['title', 'tagged'],
      warc: ['url', 'title', 'tagged'],
      html: ['file', 'title', 'tagged'],
    });
  });
});
