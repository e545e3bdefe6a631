import { describe, expect, it } from 'vitest';
import { progressFor, rateAndEta } from '../../harness/progress.ts';

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

describe('rateAndEta', () => {
  it('gives the rate of the phase and the time left at that rate', () => {
    // 500 of 6,046 in 2 s: 250/s; 5,546 left at 250/s is 22.2 s, shown rounded up
    expect(rateAndEta(500, 6046, 2000)).toBe(', 250/s, ETA 23 s');
    // 3 of 20 in 1.5 s: 2/s, 17 left: 8.5 s → 9 s
    expect(rateAndEta(3, 20, 1500)).toBe(', 2.0/s, ETA 9 s');
    // 1,000 of 1,000,000 in 1 s: 999,000 left at 1,000/s is 999 s, 16.65 min → in minutes
    expect(rateAndEta(1000, 1_000_000, 1000)).toBe(', 1,000/s, ETA 17 min');
  });
  it('gives the rate alone without a total, and nothing in the first half second', () => {
    expect(rateAndEta(4000, undefined, 2000)).toBe(', 2,000/s');
    expect(rateAndEta(40, 100, 400)).toBe('');
  });
});
