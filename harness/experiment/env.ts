/**
 * `${VAR}` and `${VAR:-default}` expansion of config strings. The licensed TREC collections
 * are not shipped, so their configs name them through environment variables; a missing one
 * must tell the user what the variable stands for and where to get it.
 */

import { quote } from '../errors.ts';

export type Env = Readonly<Record<string, string | undefined>>;

/** What each variable of the shipped configs stands for, and where to get it. */
export const envHints: Readonly<Record<string, string>> = {
  GOV2_ROOT:
    'set it to the folder of the GOV2 collection (licensed from the University of Glasgow: ir.dcs.gla.ac.uk/test_collections)',
  GOV_ROOT:
    'set it to the folder of the TREC .GOV collection (or of GOV2; both licensed from the University of Glasgow: ir.dcs.gla.ac.uk/test_collections)',
  TREC_QRELS:
    'set it to the TREC 2004 Terabyte track qrels file 04.qrels.12-Nov-04 (NIST: trec.nist.gov)',
  CLUEWEB09_ROOT:
    'set it to the folder of the ClueWeb09 collection (licensed from Carnegie Mellon University: lemurproject.org)',
  CACM_DIR:
    "set it to a folder holding cacm.tar.gz and run.cacm-bm25.txt (Anserini's test resources, Apache-2.0: github.com/castorini/anserini, src/main/resources/cacm and the CACM regression's BM25 run)",
  SCALE_DIR:
    'set it to the folder of a corpus made by `./bench synth scale --documents N --out DIR` (its corpus.jsonl.gz and oracle-pairs.csv; 10000, 100000 and 1000000 documents make the cost curve)',
  WEB09_RUNS:
    'set it to the folder of the TREC 2009 Web track ad hoc runs (NIST: trec.nist.gov, past results)',
};

export function missingVariableMessage(name: string): string {
  const hint = envHints[name] ?? `set it in the environment, or give a default in the config: \${${name}:-value}`;
  return `environment variable ${name} is not set: ${hint}`;
}

export interface Expansion {
  readonly value: string;
  /** One message per missing variable or malformed reference, in order. */
  readonly problems: readonly string[];
  /** Missing variables given a placeholder (`missing: 'placeholder'`). */
  readonly placeholders: readonly string[];
}

// `$${` is the escape for a literal `${`; anything else starting with `${` must be a reference.
const reference = /\$\$\{|\$\{([^}]*)(\})?/g;
const form = /^([A-Za-z_][A-Za-z0-9_]*)(?::-(.*))?$/s;

/**
 * Expands every reference in `text`. An empty variable counts as unset: an empty path would
 * silently name the config's own folder.
 */
/** The value a missing variable takes in a dry run (`bench run --dry-run` plans without the collection). */
export function placeholder(name: string): string {
  return `<${name}>`;
}

export function expandVariables(text: string, env: Env, missing: 'problem' | 'placeholder' = 'problem'): Expansion {
  const problems: string[] = [];
  const placeholders: string[] = [];
  const value = text.replace(reference, (whole, body: string | undefined, close: string | undefined) => {
    if (whole === '$${') return '${';
    const parts = close === undefined ? null : form.exec(body ?? '');
    if (parts === null) {
      problems.push(`malformed variable reference ${quote(whole)}: write \${NAME} or \${NAME:-default}`);
      return whole;
    }
    const name = parts[1] as string;
    const set = env[name];
    if (set !== undefined && set !== '') return set;
    if (parts[2] !== undefined) return parts[2];
    if (missing === 'placeholder') {
      placeholders.push(name);
      return placeholder(name);
    }
    problems.push(missingVariableMessage(name));
    return whole;
  });
  return { value, problems, placeholders };
}
