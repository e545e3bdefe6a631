import { describe, expect, it } from 'vitest';
import { closestName, didYouMean, editDistance } from '../../harness/did-you-mean.ts';

describe('editDistance', () => {
  it('counts insertions, deletions and substitutions (by hand)', () => {
    expect(editDistance('kitten', 'sitting')).toBe(3);
    expect(editDistance('evaluation', 'evaluate')).toBe(3);
    expect(editDistance('', 'abc')).toBe(3);
    expect(editDistance('same', 'same')).toBe(0);
  });
});

describe('didYouMean', () => {
  const TOP = ['experiment', 'description', 'seed', 'corpus', 'ground_truth', 'runs', 'evaluate', 'studies', 'backend', 'backends'];

  it('suggests a known word one or two edits away', () => {
    expect(didYouMean('treshold', ['threshold', 'min_score'])).toBe('threshold');
    expect(didYouMean('min_scroe', ['threshold', 'min_score'])).toBe('min_score');
  });

  it('suggests the key of which the word is another form: evaluation for evaluate, ground_truths for ground_truth', () => {
    expect(didYouMean('evaluation', TOP)).toBe('evaluate');
    expect(didYouMean('ground_truths', TOP)).toBe('ground_truth');
    expect(didYouMean('experiments', TOP)).toBe('experiment');
  });

  it('suggests nothing for a word far from every known one', () => {
    expect(didYouMean('colour', ['corpus', 'runs', 'seed'])).toBeUndefined();
    expect(didYouMean('x', ['m'])).toBeUndefined();
    expect(didYouMean('evalu', TOP)).toBeUndefined();
  });
});

describe('closestName', () => {
  it('takes the nearest name within the distance, else nothing', () => {
    expect(closestName('us-east1', ['us-east-1', 'eu-west-1'])).toBe('us-east-1');
    expect(closestName('mars-north-9', ['us-east-1', 'eu-west-1'])).toBeUndefined();
  });
});
