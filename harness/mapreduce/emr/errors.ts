/**
 * Failures of an EMR run carry what run.json needs to show where the money went: cluster id,
 * console link, whether it was terminated, cost so far. `emrFailureDetails(e)` reads them from
 * any error the backend threw, its own or a bug it passed through.
 */
import { InterruptedError, UserError } from '../../errors.ts';

const details = new WeakMap<object, Record<string, unknown>>();

/** A failed step, the cost cap, a cluster that died, a call AWS refused: exit 2, one line. */
export class EmrRunError extends UserError {
  override readonly name = 'EmrRunError';
}

export function attachDetails<E>(e: E, extra: Record<string, unknown>): E {
  if (typeof e === 'object' && e !== null) details.set(e, { ...(details.get(e) ?? {}), ...extra });
  return e;
}

export function emrFailureDetails(e: unknown): Record<string, unknown> | undefined {
  return typeof e === 'object' && e !== null ? details.get(e) : undefined;
}

export function isAbort(e: unknown, signal: AbortSignal): boolean {
  if (e instanceof InterruptedError) return true;
  const name = (e as { name?: string } | null)?.name;
  return signal.aborted && (name === 'AbortError' || name === 'InterruptedError');
}
