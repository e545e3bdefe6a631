/** The registry loads a detector's adapter when asked for it, by its folder's name. */
import { describe, expect, it } from 'vitest';
import { DETECTORS } from '../../algorithms/detectors.ts';
import { findAdapter, loadAdapters } from '../../algorithms/registry.ts';
import { configAlgorithms } from '../../harness/experiment/config/variants.ts';

describe('the detector registry', () => {
  it('loads the adapters of the names asked for, in the order of DETECTORS, and leaves out other names', async () => {
    const two = await loadAdapters(['simhash', 'no-such-detector', 'broder']);
    expect(two.map((a) => a.name)).toEqual(['broder', 'simhash']);
    expect((await loadAdapters()).map((a) => a.name)).toEqual([...DETECTORS]);
  });

  it('gives the same adapter object however it is asked for', async () => {
    const [broder] = await loadAdapters(['broder']);
    expect(await findAdapter('broder')).toBe(broder);
    expect(await findAdapter('no-such-detector')).toBeUndefined();
  });
});

describe('the algorithms a config names', () => {
  it('are its ground truth and runs, each once, Broder when the ground truth is left out', () => {
    expect(configAlgorithms({ runs: [{ algorithm: 'simhash' }, { algorithm: 'broder' }, { algorithm: 'simhash' }] })).toEqual(['broder', 'simhash']);
    expect(configAlgorithms({ ground_truth: { algorithm: 'minhash' }, runs: [{ algorithm: 'ppjoin' }] })).toEqual(['minhash', 'ppjoin']);
  });

  it('skip what is not a name, which the schema then reports', () => {
    expect(configAlgorithms({ ground_truth: { algorithm: 3 }, runs: 'x' })).toEqual([]);
    expect(configAlgorithms(null)).toEqual(['broder']);
  });
});
