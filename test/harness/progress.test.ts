import { describe, expect, it } from 'vitest';
import { progressFor } from '../../harness/progress.ts';

function fakeStream(isTTY: boolean): NodeJS.WriteStream & { text: string } {
  const s = { isTTY, columns: 80, text: '', write(chunk: string) { s.text += chunk; return true; } };
  return s as unknown as NodeJS.WriteStream & { text: string };
}

describe('progress', () => {
  it('redraws one status line on a TTY and clears it when done', () => {
    const s = fakeStream(true);
    const p = progressFor(s, {});
    p.update('reading documents', 500, 6046);
    p.log('[1/2] ground-truth: 10 pairs');
    p.done();
    // eslint-disable-next-line no-control-regex -- the terminal's erase-line escape is what is tested
    expect(s.text).toMatch(/\r\x1b\[2K\[\d+\.\ds\] reading documents 500\/6,046 \(8%\)/);
    expect(s.text).toContain('[1/2] ground-truth: 10 pairs\n');
  });

  it('writes nothing when the stream is not a TTY', () => {
    const s = fakeStream(false);
    const p = progressFor(s, {});
    p.update('reading documents', 500);
    p.log('line');
    p.done();
    expect(s.text).toBe('');
  });

  it('writes nothing in CI even on a TTY', () => {
    const s = fakeStream(true);
    const p = progressFor(s, { CI: 'true' });
    p.update('x', 1, 2);
    expect(s.text).toBe('');
  });
});
