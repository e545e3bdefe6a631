/**
 * Putting a spark-submit run's files where the cluster reads them, and its outputs back: a
 * `file://` staging folder with the file system, `s3://`/`s3a://` with the EMR backend's S3
 * upload and part-file listing (emr/spark-staging.ts, loaded for S3 only). `hdfs://` and
 * `gs://` are staged with the cluster's own tools, `hdfs dfs` and `gcloud storage`: `--dry-run`
 * prints those commands (stageCommand / fetchCommand) and a run does not run them for the user.
 */
import { copyFile, mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { stagingScheme, type StagingScheme } from './config.ts';

export interface Stager {
  /** Writes `body` (or the local file `from`) at `uri`. */
  put(uri: string, what: { readonly body: string } | { readonly from: string }, signal?: AbortSignal): Promise<void>;
  /** The `part-*` files of the dataset folder at `uri`, as local files (fetched under `into` when remote), in name order. */
  parts(uri: string, into: string, signal?: AbortSignal): Promise<string[]>;
  /** Removes everything under the folder `uri` (a variant's outputs of an earlier run: Spark refuses to write over them). */
  clear(uri: string, signal?: AbortSignal): Promise<void>;
  /** The text at `uri`, or undefined when there is nothing there. */
  read(uri: string, signal?: AbortSignal): Promise<string | undefined>;
  /** The local path of `uri` when it is on this machine (file://), where it can be written directly; else undefined. */
  readonly localFolder: (uri: string) => string | undefined;
}

/** The staging schemes a run stages to itself. */
export const SELF_STAGED: readonly StagingScheme[] = ['file', 's3', 's3a'];

export function fileStager(): Stager {
  return {
    async put(uri, what) {
      const path = fileURLToPath(uri);
      await mkdir(dirname(path), { recursive: true });
      if ('body' in what) await writeFile(path, what.body);
      else if (what.from !== path) await copyFile(what.from, path);
    },
    async parts(uri) {
      const dir = fileURLToPath(uri);
      return (await readdir(dir))
        .filter((n) => n.startsWith('part-'))
        .sort()
        .map((n) => join(dir, n));
    },
    clear: (uri) => rm(fileURLToPath(uri), { recursive: true, force: true }),
    read: (uri) => readFile(fileURLToPath(uri), 'utf8').catch(() => undefined),
    localFolder: (uri) => fileURLToPath(uri),
  };
}

/** The command that puts a local file at `uri`, for the staging schemes a run does not stage itself. */
export function stageCommand(scheme: StagingScheme, local: string, uri: string): string[] {
  switch (scheme) {
    case 'hdfs':
      return ['hdfs', 'dfs', '-put', '-f', local, uri];
    case 'gs':
      return ['gcloud', 'storage', 'cp', local, uri];
    case 's3':
    case 's3a':
      return ['aws', 's3', 'cp', local, uri.replace(/^s3a:/, 's3:')];
    case 'file':
      return ['cp', local, fileURLToPath(uri)];
  }
}

/** The command that copies a dataset folder's part files from `uri` into the local folder `local`. */
export function fetchCommand(scheme: StagingScheme, uri: string, local: string): string[] {
  switch (scheme) {
    case 'hdfs':
      return ['hdfs', 'dfs', '-get', `${uri}/part-*`, local];
    case 'gs':
      return ['gcloud', 'storage', 'cp', `${uri}/part-*`, local];
    case 's3':
    case 's3a':
      return ['aws', 's3', 'cp', '--recursive', '--exclude', '*', '--include', 'part-*', `${uri.replace(/^s3a:/, 's3:')}/`, local];
    case 'file':
      return ['cp', '-R', `${fileURLToPath(uri)}/.`, local];
  }
}

export function selfStaged(uri: string): boolean {
  return SELF_STAGED.includes(stagingScheme(uri));
}
