import { createRequire } from 'node:module';
import type PostalMimeClass from 'postal-mime';
import { clip, QUOTE_MAX } from '../errors.ts';
import { decodeCharset } from './charset.ts';
import { htmlToDocument } from './html.ts';
import { parseMime, type MimeHeader } from './mime.ts';

/** The text of one mail message: its body parts, decoded, and what needed a fallback. */
export interface MailText {
  readonly subject: string | undefined;
  /** The sender's address (or name, when it has no address) from the From header. */
  readonly from: string | undefined;
  /** Text inside a, b, i and h1-h3 of the HTML parts, one element a line (`htmlToDocument`). */
  readonly tagged: string;
  /** The Message-ID header's msg-id, `<…>` included (`msgIds`). */
  readonly messageId: string | undefined;
  /** The msg-ids of the In-Reply-To header, space-separated: the messages this one replies to. */
  readonly inReplyTo: string | undefined;
  /** The chosen body parts joined with "\n"; headers are not part of it. */
  readonly text: string;
  /** One sentence for every part that was decoded with the windows-1252 fallback. */
  readonly fallbacks: readonly string[];
}

/**
 * The MIME tree this module reads: mime.ts builds it, or postal-mime for the few messages
 * mime.ts leaves to it. postal-mime's public result merges all parts into one `text` and one
 * `html` and decodes charsets silently (an unknown label becomes windows-1252, invalid UTF-8
 * becomes U+FFFD), so the per-part tree is the only place where each part's charset and
 * transfer-decoded bytes are visible. It is marked internal in postal-mime 4; `mimeTree`
 * checks its shape so a change fails loudly.
 */
interface MimeNodeView {
  readonly contentType: { readonly parsed: { readonly value: string; readonly params: Readonly<Record<string, string | undefined>> }; readonly multipart: string | false };
  readonly contentDisposition: { readonly parsed: { readonly value: string } };
  readonly content: ArrayBuffer | Uint8Array | null;
  readonly childNodes: readonly MimeNodeView[];
}

/** The message is not MIME that postal-mime can parse (as opposed to a bug here). */
export class MimeParseError extends Error {
  override readonly name = 'MimeParseError';
}

interface Piece {
  readonly kind: 'plain' | 'html';
  readonly text: string;
  readonly tagged: string;
  readonly fallback: string | undefined;
}

/** Nested message/rfc822 parts (forwards, digests) are read this deep, then ignored. */
const MAX_MESSAGE_DEPTH = 4;

type PostalMimeModule = typeof import('postal-mime');
let postalMimeModule: PostalMimeModule | undefined;
/** postal-mime, loaded at its first use (as charset.ts loads iconv-lite: start-up). */
const postalMime = (): PostalMimeModule => (postalMimeModule ??= createRequire(import.meta.url)('postal-mime') as PostalMimeModule);

function mimeTree(parser: PostalMimeClass): MimeNodeView {
  const root = (parser as unknown as { root?: MimeNodeView }).root;
  if (!root || !Array.isArray(root.childNodes) || typeof root.contentType?.parsed?.value !== 'string') {
    throw new Error('postal-mime no longer exposes its MIME tree as `root`: harness/corpus/mail.ts needs updating');
  }
  return root;
}

function isBlank(pieces: readonly Piece[]): boolean {
  return pieces.every((p) => p.text.trim() === '');
}

/** multipart/alternative: the plain-text rendering when it has text, else the first that has. */
function chooseAlternative(children: readonly Piece[][]): Piece[] {
  const plain = children.find((c) => c.length > 0 && c.every((p) => p.kind === 'plain') && !isBlank(c));
  return plain ?? children.find((c) => !isBlank(c)) ?? [];
}

/** Part numbers as in IMAP (RFC 3501): `1`, `2.1`; a nested message's parts continue its number. */
function childPosition(position: string, index: number): string {
  return position === '' ? `${index + 1}` : `${position}.${index + 1}`;
}

async function collect(node: MimeNodeView, depth: number, position: string): Promise<Piece[]> {
  if (node.contentType.multipart) {
    const children: Piece[][] = [];
    for (const [i, child] of node.childNodes.entries()) children.push(await collect(child, depth, childPosition(position, i)));
    return node.contentType.multipart === 'alternative' ? chooseAlternative(children) : children.flat();
  }
  // An attached file is not the body, whatever its type.
  if (node.contentDisposition.parsed.value === 'attachment' || !node.content) return [];
  const type = node.contentType.parsed.value;
  const content = node.content instanceof Uint8Array ? node.content : new Uint8Array(node.content);
  if (type === 'message/rfc822') {
    return depth < MAX_MESSAGE_DEPTH ? (await parseMessage(content, depth + 1, position)).pieces : [];
  }
  if (type !== 'text/plain' && type !== 'text/html') return [];
  const decoded = decodeCharset(content, node.contentType.parsed.params['charset']);
  const kind = type === 'text/html' ? 'html' : 'plain';
  const page = kind === 'html' ? htmlToDocument(decoded.text) : undefined;
  return [
    {
      kind,
      text: page ? page.text : decoded.text,
      tagged: page ? page.tagged : '',
      fallback: decoded.kind === 'fallback' ? `part ${position || '1'} (${type}): ${decoded.problem}` : undefined,
    },
  ];
}

/**
 * The msg-ids `<…>` of a Message-ID or In-Reply-To header, space-separated. Old mailers write
 * `In-Reply-To: Your message of "Mon, 22 Jul 2002" <id@host>`: the bracketed ids are the
 * reference, the words around them are not. A header without brackets is kept trimmed.
 */
export function msgIds(header: string | undefined): string | undefined {
  if (header === undefined) return undefined;
  // A folded header may break an id across lines: white space inside the brackets is dropped.
  const ids = header.match(/<[^<>]+>/g)?.map((id) => id.replace(/\s+/g, ''));
  const value = ids ? ids.join(' ') : header.trim();
  return value === '' ? undefined : value;
}

interface Parsed {
  readonly subject: string | undefined;
  readonly from: string | undefined;
  readonly messageId: string | undefined;
  readonly inReplyTo: string | undefined;
  readonly pieces: Piece[];
}

/** A header as postal-mime's result carries it: the first of its name, when not empty, with encoded words decoded. */
function header(headers: readonly MimeHeader[], key: string): string | undefined {
  const value = headers.find((h) => h.key === key)?.value;
  return value ? postalMime().decodeWords(value) : undefined;
}

/** The sender as postal-mime's `email.from` gives it: the first address of the first From header. */
function sender(headers: readonly MimeHeader[]): string | undefined {
  const value = headers.find((h) => h.key === 'from')?.value;
  const first = value ? postalMime().addressParser(value)[0] : undefined;
  return first?.address || first?.name || undefined;
}

async function parseMessage(raw: Uint8Array, depth: number, position: string): Promise<Parsed> {
  const fast = parseMime(raw);
  if (fast) {
    const h = fast.headers;
    return {
      subject: header(h, 'subject'),
      from: sender(h),
      messageId: msgIds(header(h, 'message-id'))?.split(' ')[0],
      inReplyTo: msgIds(header(h, 'in-reply-to')),
      pieces: await collect(fast.root, depth, position),
    };
  }
  // Nested messages are left to `collect` rather than parsed by postal-mime, so that they
  // get the same per-part charset checks.
  const parser = new (postalMime().default)({ forceRfc822Attachments: true });
  let email;
  try {
    email = await parser.parse(raw);
  } catch (e) {
    // postal-mime's message may quote the mail: raw input, escaped and cut short.
    throw new MimeParseError(clip((e as Error).message, 2 * QUOTE_MAX), { cause: e });
  }
  const from = email.from?.address || email.from?.name || undefined;
  return {
    subject: email.subject,
    from,
    messageId: msgIds(email.messageId)?.split(' ')[0],
    inReplyTo: msgIds(email.inReplyTo),
    pieces: await collect(mimeTree(parser), depth, position),
  };
}

/**
 * Extracts the text of a raw RFC 822 message: parts decoded from quoted-printable/base64
 * and from their charset; text/plain as is, text/html through `htmlToText`; in
 * multipart/alternative the plain part is preferred; attachments are left out.
 * Throws `MimeParseError` when postal-mime cannot parse the message at all.
 */
export async function mailToText(raw: Uint8Array): Promise<MailText> {
  const { subject, from, messageId, inReplyTo, pieces } = await parseMessage(raw, 0, '');
  return {
    subject,
    from,
    messageId,
    inReplyTo,
    tagged: pieces.map((p) => p.tagged).filter((t) => t !== '').join('\n'),
    text: pieces.map((p) => p.text).join('\n'),
    fallbacks: pieces.flatMap((p) => (p.fallback === undefined ? [] : [p.fallback])),
  };
}
