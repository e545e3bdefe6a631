/**
 * `s3://bucket/prefix` URIs. Bucket names follow the S3 naming rules; a key prefix may not
 * hold commas or white space, because Hadoop's `-files` takes a comma-separated list and the
 * step arguments are split on spaces by the streaming command line.
 */
export interface S3Location {
  readonly bucket: string;
  /** Key prefix without leading or trailing slash; '' for the bucket root. */
  readonly prefix: string;
}

const BUCKET_RE = /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/;

/** Why `uri` is not a usable S3 location, or undefined when it is. */
export function s3UriProblem(uri: string): string | undefined {
  if (!uri.startsWith('s3://')) return `must start with s3:// (got ${JSON.stringify(uri)})`;
  const rest = uri.slice('s3://'.length);
  const slash = rest.indexOf('/');
  const bucket = slash < 0 ? rest : rest.slice(0, slash);
  if (!BUCKET_RE.test(bucket) || bucket.includes('..') || /^\d+\.\d+\.\d+\.\d+$/.test(bucket)) {
    return `bucket name ${JSON.stringify(bucket)} is not valid (3-63 lowercase letters, digits, dots, hyphens)`;
  }
  if (/[\s,]/.test(rest)) return 'must not contain commas or white space';
  return undefined;
}

export function parseS3Uri(uri: string): S3Location {
  const problem = s3UriProblem(uri);
  if (problem) throw new Error(`${uri}: ${problem}`);
  const rest = uri.slice('s3://'.length);
  const slash = rest.indexOf('/');
  if (slash < 0) return { bucket: rest, prefix: '' };
  return { bucket: rest.slice(0, slash), prefix: rest.slice(slash + 1).replace(/^\/+|\/+$/g, '') };
}

/** Joins key parts with single slashes, skipping empty ones. */
export function joinKey(...parts: readonly string[]): string {
  return parts
    .map((p) => p.replace(/^\/+|\/+$/g, ''))
    .filter((p) => p !== '')
    .join('/');
}

export function s3Uri(bucket: string, key: string): string {
  return `s3://${bucket}/${key}`;
}
