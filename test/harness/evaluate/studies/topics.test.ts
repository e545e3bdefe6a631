import { describe, expect, it } from 'vitest';
import { compareTopics } from '../../../../harness/evaluate/studies/topics.ts';

describe('compareTopics', () => {
  it('orders numeric topics as numbers, then other ids in byte order', () => {
    const topics = ['wt09-2', '10', '2', '701', 'B', '07', '7', 'a'];
    expect([...topics].sort(compareTopics)).toEqual(['2', '07', '7', '10', '701', 'B', 'a', 'wt09-2']);
  });
});
