import { LineCounter, parseDocument } from 'yaml';
import { describe, expect, it } from 'vitest';
import { IssueList } from '../../../../harness/experiment/issues.ts';
import { expandConfigVariables } from '../../../../harness/experiment/config/variables.ts';

function parsed(text: string): { doc: ReturnType<typeof parseDocument>; issues: IssueList } {
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter });
  return { doc, issues: new IssueList('c.yaml', lineCounter) };
}

describe('expandConfigVariables', () => {
  it('expands values in place, not keys; a missing variable is left as written, a problem placed at its value', () => {
    const { doc, issues } = parsed('corpus:\n  path: ${ROOT}/x\n  ${KEY}: ${NOPE}\nruns: [a, "${ROOT}"]\n');
    const failed = expandConfigVariables(doc.contents, { env: { ROOT: '/data' }, issues, missing: 'problem' });
    expect(doc.toJS()).toEqual({ corpus: { path: '/data/x', '${KEY}': '${NOPE}' }, runs: ['a', '/data'] });
    expect([...failed]).toEqual(['corpus.${KEY}']);
    expect(issues.lines()).toHaveLength(1);
    expect(issues.lines()[0]).toMatch(/^c\.yaml:3:11: corpus\.\$\{KEY\}: .*NOPE/);
  });

  it('leaves a placeholder for a missing variable on a dry run, and no problem', () => {
    const { doc, issues } = parsed('corpus:\n  path: ${ROOT}\n');
    const failed = expandConfigVariables(doc.contents, { env: {}, issues, missing: 'placeholder' });
    expect(doc.toJS()).toEqual({ corpus: { path: '<ROOT>' } });
    expect([...failed]).toEqual(['corpus.path']);
    expect(issues.size).toBe(0);
  });
});
