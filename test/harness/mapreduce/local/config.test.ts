import { describe, expect, it } from 'vitest';
import { PRICE_PER_VCPU_HOUR_USD } from '../../../../harness/mapreduce/local/config.ts';

describe('the local backend section', () => {
  it('prices a vCPU-hour at half an m7i.large hour ($0.1008, 2 vCPU)', () => {
    expect(PRICE_PER_VCPU_HOUR_USD).toBeCloseTo(0.1008 / 2, 10);
  });
});
