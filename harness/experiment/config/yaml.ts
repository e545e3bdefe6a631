/**
 * A config file as YAML, read defensively: a file that is not a config (too large, binary,
 * nested without end, an alias bomb) is one clear error before any check quotes it.
 */
import { isUtf8 } from 'node:buffer';
import { readFile } from 'node:fs/promises';
import { isMap, isSeq, LineCounter, parseDocument, visit, type Document, type YAMLError } from 'yaml';
import { clip, ConfigError, QUOTE_MAX } from '../../errors.ts';

/** A config larger than this is not a config (the shipped ones are 2 KB). */
const MAX_CONFIG_BYTES = 1 << 20;
/** Mappings and lists nested deeper than this are not a config (the shipped ones nest 5 deep). */
export const MAX_CONFIG_DEPTH = 64;
/** Alias expansions allowed when the YAML becomes values (yaml's own guard against alias bombs). */
const MAX_ALIAS_COUNT = 100;

async function readConfig(file: string): Promise<string> {
  let bytes: Buffer;
  try {
    bytes = await readFile(file);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    const why = code === 'ENOENT' ? 'no such file or directory' : code === 'EISDIR' ? 'is a directory' : String(code);
    throw new ConfigError([`${file}: cannot read the config: ${why}`]);
  }
  if (bytes.length > MAX_CONFIG_BYTES) {
    throw new ConfigError([`${file}: not a config: ${bytes.length} bytes, more than ${MAX_CONFIG_BYTES} (is this the right file?)`]);
  }
  const bad = firstNonText(bytes);
  if (bad !== undefined) {
    const before = bytes.subarray(0, bad.offset);
    const line = before.filter((b) => b === 0x0a).length + 1;
    const col = bad.offset - (before.lastIndexOf(0x0a) + 1) + 1;
    throw new ConfigError([`${file}:${line}:${col}: not a YAML config: byte ${bad.offset} is ${bad.what} (a binary file?)`]);
  }
  return bytes.toString('utf8');
}

/**
 * The first byte that cannot be in a YAML file: a control character other than tab and line
 * ends, or bytes that are not UTF-8 (YAML 1.2, 5.1). Such a file is not shown to the parser,
 * whose messages would quote it.
 */
function firstNonText(bytes: Buffer): { offset: number; what: string } | undefined {
  for (let i = 0; i < bytes.length; ) {
    const b = bytes[i] as number;
    if (b < 0x80) {
      if ((b < 0x20 && b !== 0x09 && b !== 0x0a && b !== 0x0d) || b === 0x7f) {
        return { offset: i, what: `the control character 0x${b.toString(16).padStart(2, '0')}` };
      }
      i++;
      continue;
    }
    const n = b >= 0xc2 && b <= 0xdf ? 2 : b >= 0xe0 && b <= 0xef ? 3 : b >= 0xf0 && b <= 0xf4 ? 4 : 0;
    const seq = n === 0 ? undefined : bytes.subarray(i, i + n);
    if (seq === undefined || seq.length < n || !isUtf8(seq)) return { offset: i, what: 'not UTF-8' };
    i += n;
  }
  return undefined;
}

/** How deep mappings and lists nest in `root` (a YAML node or a value), counted without recursion. */
function nestingDepth(root: unknown, children: (x: unknown) => readonly unknown[] | undefined): number {
  let deepest = 0;
  const stack: [unknown, number][] = [[root, 0]];
  while (stack.length > 0) {
    const [x, depth] = stack.pop() as [unknown, number];
    const kids = children(x);
    if (kids === undefined) continue;
    deepest = Math.max(deepest, depth + 1);
    if (deepest > MAX_CONFIG_DEPTH) return deepest;
    for (const k of kids) stack.push([k, depth + 1]);
  }
  return deepest;
}

const nodeChildren = (x: unknown): readonly unknown[] | undefined =>
  isMap(x) ? x.items.flatMap((p) => [p.key, p.value]) : isSeq(x) ? x.items : undefined;
const valueChildren = (x: unknown): readonly unknown[] | undefined =>
  Array.isArray(x) ? x : typeof x === 'object' && x !== null ? Object.values(x) : undefined;

function tooDeep(file: string): ConfigError {
  return new ConfigError([`${file}: not a config: mappings and lists nested more than ${MAX_CONFIG_DEPTH} deep`]);
}

function yamlProblem(file: string, lineCounter: LineCounter, error: YAMLError, text: string): string {
  const offset = error.pos[0];
  const { line, col } = lineCounter.linePos(offset);
  // The parser's message may quote the source: raw input, escaped and cut short.
  const message = clip(error.message.split('\n')[0] ?? error.message, 2 * QUOTE_MAX);
  // YAML ends a plain scalar at `{` inside a flow collection, so `{ qrels: ${X} }` breaks there.
  const hint = text.slice(Math.max(0, offset - 1), offset + 1).includes('${')
    ? ' (inside [ ] or { }, quote a value that uses a variable: "${VAR}")'
    : '';
  return `${file}:${line}:${col}: malformed YAML: ${message}${hint}`;
}

export interface ParsedConfig {
  readonly doc: Document;
  readonly lineCounter: LineCounter;
}

/** The config file parsed, with positions; throws a `ConfigError` for a file that is not a YAML config. */
export async function parseConfig(file: string): Promise<ParsedConfig> {
  const text = await readConfig(file);
  const lineCounter = new LineCounter();
  let doc: Document;
  try {
    doc = parseDocument(text, { lineCounter, prettyErrors: false });
  } catch (e) {
    // The parser recurses per level of flow nesting: `[[[[…` thousands deep exhausts the stack.
    if (e instanceof RangeError) throw tooDeep(file);
    throw e;
  }
  const yamlError = doc.errors[0];
  if (yamlError !== undefined && /Maximum call stack size exceeded/.test(yamlError.message)) throw tooDeep(file);
  // After the first syntax error the parser's further complaints are mostly echoes of it.
  if (yamlError !== undefined) throw new ConfigError([yamlProblem(file, lineCounter, yamlError, text)]);
  // Everything after this walks the config recursively.
  if (nestingDepth(doc.contents, nodeChildren) > MAX_CONFIG_DEPTH) throw tooDeep(file);
  return { doc, lineCounter };
}

/** The YAML as values; an alias bomb (aliases expanding into too many nodes) is a config error. */
export function configValues({ doc, lineCounter }: ParsedConfig, file: string): unknown {
  let values: unknown;
  try {
    values = doc.toJS({ maxAliasCount: MAX_ALIAS_COUNT });
  } catch (e) {
    if (!(e instanceof ReferenceError)) throw e;
    let at = 0;
    visit(doc, {
      Alias(_key, node) {
        at = node.range?.[0] ?? 0;
        return visit.BREAK;
      },
    });
    const { line, col } = lineCounter.linePos(at);
    throw new ConfigError([`${file}:${line}:${col}: YAML aliases expand into too many values (more than ${MAX_ALIAS_COUNT} each): an alias bomb?`]);
  }
  if (nestingDepth(values, valueChildren) > MAX_CONFIG_DEPTH) throw tooDeep(file);
  return values;
}
