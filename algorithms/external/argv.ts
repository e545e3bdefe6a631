/**
 * The command line and environment of an external detector: placeholders filled in, arguments
 * handed over. Pure: the paths come from the caller.
 */
import type { ExternalParams } from './params.ts';
import { PLACEHOLDER } from './placeholders.ts';

export interface CommandPaths {
  /** absolute paths, resolved by the harness against the config file */
  readonly program?: string;
  readonly interpreter?: string;
  readonly corpus: string;
  readonly output: string;
  readonly seed: number;
}

export interface CommandLine {
  readonly file: string;
  readonly args: readonly string[];
  readonly env: Readonly<Record<string, string>>;
}

/** The command `params` describes, its placeholders filled in. */
export function commandLine(params: ExternalParams, paths: CommandPaths): CommandLine {
  const values = new Map<string, string>([
    ...(paths.program === undefined ? [] : ([['program', paths.program]] as const)),
    ['corpus', paths.corpus],
    ['output', paths.output],
    ['seed', String(paths.seed)],
    ...(paths.interpreter === undefined ? [] : ([['interpreter', paths.interpreter]] as const)),
    ...Object.entries(params.args).map(([k, v]) => [k, String(v)] as const),
  ]);
  const fill = (text: string): string => text.replace(PLACEHOLDER, (whole, name: string) => values.get(name) ?? whole);
  const argv = params.command
    ? params.command.map(fill)
    : [
        ...(paths.interpreter === undefined ? [] : [paths.interpreter]),
        paths.program ?? '',
        '--corpus',
        paths.corpus,
        '--output',
        paths.output,
        '--seed',
        String(paths.seed),
        ...Object.entries(params.args).flatMap(([k, v]) => [`--${k}`, String(v)]),
      ];
  const env: Record<string, string> = {
    NDD_CORPUS: paths.corpus,
    NDD_OUTPUT: paths.output,
    NDD_SEED: String(paths.seed),
    NDD_TEXT: params.text,
    ...Object.fromEntries(Object.entries(params.args).map(([k, v]) => [`NDD_ARG_${k.toUpperCase()}`, String(v)])),
    ...Object.fromEntries(Object.entries(params.env).map(([k, v]) => [k, fill(v)])),
  };
  return { file: argv[0] as string, args: argv.slice(1), env };
}
