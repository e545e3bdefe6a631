import { describe, expect, it } from 'vitest';
import { medianLatestByZone } from '../../../../harness/mapreduce/emr/spot-prices.ts';

const at = (min: number): Date => new Date(Date.UTC(2026, 10, 26, 12, min));

describe('medianLatestByZone', () => {
  it('takes each zone’s latest price, then the median over zones (the mean of the middle two for an even count)', () => {
    const m = medianLatestByZone([
      { InstanceType: 'm5.xlarge', AvailabilityZone: 'a', SpotPrice: '0.50', Timestamp: at(0) },
      { InstanceType: 'm5.xlarge', AvailabilityZone: 'a', SpotPrice: '0.07', Timestamp: at(5) },
      { InstanceType: 'm5.xlarge', AvailabilityZone: 'b', SpotPrice: '0.09', Timestamp: at(1) },
      { InstanceType: 'm5.xlarge', AvailabilityZone: 'c', SpotPrice: '0.08', Timestamp: at(1) },
      { InstanceType: 'm5.xlarge', AvailabilityZone: 'd', SpotPrice: '0.20', Timestamp: at(1) },
      { InstanceType: 'c5.2xlarge', AvailabilityZone: 'a', SpotPrice: '0.13', Timestamp: at(1) },
    ]);
    // m5.xlarge: a 0.07 (not 0.50), b 0.09, c 0.08, d 0.20 → (0.08 + 0.09) / 2
    expect(m['m5.xlarge']).toBeCloseTo(0.085, 12);
    expect(m['c5.2xlarge']).toBe(0.13);
  });

  it('ignores entries without a type, a zone or a number', () => {
    expect(medianLatestByZone([{ AvailabilityZone: 'a', SpotPrice: '1' }, { InstanceType: 'm5.large', AvailabilityZone: 'a', SpotPrice: 'n/a' }])).toEqual({});
  });
});
