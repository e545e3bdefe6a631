/**
 * What the checks of a config's parts share, so that each takes one object rather than the same
 * five arguments in some order.
 */
import type { Document } from 'yaml';
import type { DetectorCatalog } from '../../detectors.ts';
import type { IssueList, Locator } from '../issues.ts';

export interface ConfigScope {
  /** the parsed YAML: where a value came from */
  readonly doc: Document;
  /** the position of a path's value or key, for messages */
  readonly locate: Locator;
  /** where every problem goes, to be thrown together */
  readonly issues: IssueList;
  /** the config file's folder: relative paths in the config are relative to it */
  readonly dir: string;
  readonly detectors: DetectorCatalog;
}

export function isRecord(x: unknown): x is Record<string, unknown> {
  return typeof x === 'object' && x !== null && !Array.isArray(x);
}
