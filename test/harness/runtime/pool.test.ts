import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { InputFileError } from '../../../contract/errors.ts';
import { isUserError } from '../../../harness/errors.ts';
import { workerModule } from '../../../contract/tasks.ts';
import { WorkerPool } from '../../../harness/runtime/pool.ts';
import type * as Echo from '../../fixtures/pool/echo.ts';

const ECHO = workerModule<typeof Echo>(new URL('../../fixtures/pool/echo.ts', import.meta.url).href);

describe('WorkerPool', () => {
  it('runs a task on a worker thread, moving its typed arrays', async () => {
    const pool = new WorkerPool(2);
    try {
      const data = new Uint32Array(5);
      expect(await pool.run(ECHO.task('length'), { data })).toBe(5);
      // moved, not copied: the array is detached here now
      expect(data.length).toBe(0);
    } finally {
      await pool.close();
    }
  });

  it('starts no thread for the modules it is to preload, only with the first task, which then finds them loaded', async () => {
    const pool = new WorkerPool(2);
    try {
      pool.preloadOnStart([ECHO.url]);
      expect(pool.running).toBe(false);
      expect(await pool.run(ECHO.task('length'), { data: new Uint32Array(3) })).toBe(3);
      expect(pool.running).toBe(true);
    } finally {
      await pool.close();
    }
  });

  it('rejects a task that stops at a bad input file with the same InputFileError (a one-line user error), from a worker thread', async () => {
    const pool = new WorkerPool(2);
    try {
      const err = await pool.run(ECHO.task('badFile'), { path: 'df.tsv' }).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(err).toBeInstanceOf(InputFileError);
      expect(isUserError(err)).toBe(true);
      expect((err as Error).message).toBe('df.tsv:7: planted bad line');
    } finally {
      await pool.close();
    }
  });

  it('rejects a task whose payload cannot be sent (an array already moved), and keeps working', async () => {
    const pool = new WorkerPool(2);
    try {
      const data = new Uint32Array(5);
      await pool.run(ECHO.task('length'), { data });
      await expect(pool.run(ECHO.task('length'), { data })).rejects.toThrow(/detached|transfer/i);
      expect(await pool.run(ECHO.task('length'), { data: new Uint32Array(3) })).toBe(3);
    } finally {
      await pool.close();
    }
  });

  it('rejects pending tasks with the abort’s reason, and later ones too', async () => {
    const pool = new WorkerPool(2);
    const reason = new Error('interrupted');
    const task = pool.run(ECHO.task('length'), { data: new Uint32Array(1) }).then(
      () => 'resolved',
      (e: unknown) => e,
    );
    await pool.abort(reason);
    expect(await task).toBe(reason);
    await expect(pool.run(ECHO.task('length'), { data: new Uint32Array(1) })).rejects.toBe(reason);
  });

  it('keeps the process alive until an abort finishes when a task answers just as it starts (not exit 13, an unsettled await)', () => {
    const script = fileURLToPath(new URL('../../fixtures/pool/abort-as-answer-arrives.mts', import.meta.url));
    const r = spawnSync(process.execPath, ['--import', 'tsx', script], { encoding: 'utf8', timeout: 60_000 });
    expect({ status: r.status, stdout: r.stdout }).toEqual({ status: 0, stdout: 'settled 1\n' });
  });
});
