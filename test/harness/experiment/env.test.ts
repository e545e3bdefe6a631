import { describe, expect, it } from 'vitest';
import { envHints, expandVariables, missingVariableMessage } from '../../../harness/experiment/env.ts';

describe('expandVariables', () => {
  it('replaces ${VAR} anywhere in a string, as often as it occurs', () => {
    expect(expandVariables('${A}/x/${B}-${A}', { A: '/data', B: 'y' })).toEqual({ value: '/data/x/y-/data', problems: [], placeholders: [] });
  });

  it('uses the default of ${VAR:-default} only when the variable is unset or empty', () => {
    expect(expandVariables('${A:-d}/x', {})).toEqual({ value: 'd/x', problems: [], placeholders: [] });
    expect(expandVariables('${A:-d}/x', { A: '' })).toEqual({ value: 'd/x', problems: [], placeholders: [] });
    expect(expandVariables('${A:-d}/x', { A: 'set' })).toEqual({ value: 'set/x', problems: [], placeholders: [] });
    expect(expandVariables('${A:-}', {})).toEqual({ value: '', problems: [], placeholders: [] });
  });

  it('reports each missing variable once per reference, in order', () => {
    expect(expandVariables('${B}/${A}', {}).problems).toEqual([missingVariableMessage('B'), missingVariableMessage('A')]);
  });

  it('treats an empty variable as unset', () => {
    expect(expandVariables('${A}', { A: '' }).problems).toEqual([missingVariableMessage('A')]);
  });

  it('leaves text without references alone, including a lone $', () => {
    expect(expandVariables('costs $5 {x}', {})).toEqual({ value: 'costs $5 {x}', problems: [], placeholders: [] });
  });

  it('writes $${ as a literal ${', () => {
    expect(expandVariables('$${A} ${A}', { A: 'a' })).toEqual({ value: '${A} a', problems: [], placeholders: [] });
  });

  it('gives a missing variable a placeholder instead of a problem when planning without the collection', () => {
    expect(expandVariables('${A}/x/${B:-b}', {}, 'placeholder')).toEqual({ value: '<A>/x/b', problems: [], placeholders: ['A'] });
  });

  it('rejects malformed references', () => {
    expect(expandVariables('${A B}', {}).problems).toEqual([
      "malformed variable reference '${A B}': write ${NAME} or ${NAME:-default}",
    ]);
    expect(expandVariables('x${A', {}).problems).toEqual([
      "malformed variable reference '${A': write ${NAME} or ${NAME:-default}",
    ]);
  });
});

describe('missingVariableMessage', () => {
  it('tells where each dataset of the shipped configs comes from', () => {
    expect(Object.keys(envHints).sort()).toEqual(['CACM_DIR', 'CLUEWEB09_ROOT', 'GOV2_ROOT', 'GOV_ROOT', 'SCALE_DIR', 'TREC_QRELS', 'WEB09_RUNS']);
    expect(missingVariableMessage('SCALE_DIR')).toContain('bench synth scale --documents N');
    expect(missingVariableMessage('CACM_DIR')).toContain('cacm.tar.gz and run.cacm-bm25.txt');
    expect(missingVariableMessage('GOV2_ROOT')).toBe(
      'environment variable GOV2_ROOT is not set: set it to the folder of the GOV2 collection ' +
        '(licensed from the University of Glasgow: ir.dcs.gla.ac.uk/test_collections)',
    );
    expect(missingVariableMessage('TREC_QRELS')).toContain('04.qrels.12-Nov-04');
    expect(missingVariableMessage('CLUEWEB09_ROOT')).toContain('lemurproject.org');
    expect(missingVariableMessage('WEB09_RUNS')).toContain('TREC 2009 Web track ad hoc runs');
  });

  it('gives a generic hint for other variables', () => {
    expect(missingVariableMessage('MY_DIR')).toBe(
      'environment variable MY_DIR is not set: set it in the environment, or give a default in the config: ${MY_DIR:-value}',
    );
  });
});
