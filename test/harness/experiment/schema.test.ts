import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadAdapters } from '../../../algorithms/registry.ts';

const adapters = await loadAdapters();
import {
  configJsonSchema,
  corpusFormats,
  corpusSchema,
  renderConfigJsonSchema,
} from '../../../harness/experiment/schema.ts';

type Json = Record<string, unknown>;

describe('configs/schema.json', () => {
  it('is what `npm run schema` writes', () => {
    const committed = readFileSync(fileURLToPath(new URL('../../../configs/schema.json', import.meta.url)), 'utf8');
    expect(committed === renderConfigJsonSchema(adapters), 'configs/schema.json is out of date: run `npm run schema`').toBe(true);
  });
});

// The keywords of JSON Schema draft 2020-12 (core, applicator, validation, unevaluated,
// format-annotation, content, meta-data vocabularies).
const keywords2020 = new Set([
  '$schema', '$id', '$ref', '$defs', '$anchor', '$dynamicRef', '$dynamicAnchor', '$vocabulary', '$comment',
  'allOf', 'anyOf', 'oneOf', 'not', 'if', 'then', 'else', 'dependentSchemas', 'prefixItems', 'items', 'contains',
  'properties', 'patternProperties', 'additionalProperties', 'propertyNames', 'unevaluatedItems', 'unevaluatedProperties',
  'type', 'const', 'enum', 'multipleOf', 'maximum', 'exclusiveMaximum', 'minimum', 'exclusiveMinimum', 'maxLength',
  'minLength', 'pattern', 'maxItems', 'minItems', 'uniqueItems', 'maxContains', 'minContains', 'maxProperties',
  'minProperties', 'required', 'dependentRequired', 'format', 'contentEncoding', 'contentMediaType', 'contentSchema',
  'title', 'description', 'default', 'deprecated', 'readOnly', 'writeOnly', 'examples',
]);
const schemaMaps = new Set(['properties', 'patternProperties', '$defs', 'dependentSchemas']);
const schemaLists = new Set(['allOf', 'anyOf', 'oneOf', 'prefixItems']);
const schemaValues = new Set(['not', 'if', 'then', 'else', 'items', 'contains', 'additionalProperties', 'propertyNames']);

/** Every keyword used anywhere in `schema` that draft 2020-12 does not define. */
function foreignKeywords(schema: unknown, where = '#'): string[] {
  if (typeof schema === 'boolean') return [];
  const out: string[] = [];
  for (const [k, v] of Object.entries(schema as Json)) {
    if (!keywords2020.has(k)) out.push(`${where}/${k}`);
    if (schemaMaps.has(k)) for (const [name, s] of Object.entries(v as Json)) out.push(...foreignKeywords(s, `${where}/${k}/${name}`));
    if (schemaLists.has(k)) (v as unknown[]).forEach((s, i) => out.push(...foreignKeywords(s, `${where}/${k}/${i}`)));
    if (schemaValues.has(k)) out.push(...foreignKeywords(v, `${where}/${k}`));
  }
  return out;
}

describe('configJsonSchema', () => {
  const schema = configJsonSchema(adapters);
  const props = schema.properties as Record<string, Json>;

  it('declares draft 2020-12 and uses only its keywords', () => {
    expect(schema.$schema).toBe('https://json-schema.org/draft/2020-12/schema');
    expect(foreignKeywords(schema)).toEqual([]);
  });

  it('requires the experiment and corpus and rejects unknown top-level keys', () => {
    expect(schema.required).toEqual(['experiment', 'corpus']);
    expect(schema.additionalProperties).toBe(false);
  });

  it('narrows the params of a run to its algorithm with if/then, one per algorithm', () => {
    const run = (props.runs as Json).items as Json;
    expect(((run.properties as Json).algorithm as Json).enum).toEqual(adapters.map((a) => a.name));
    const branches = run.allOf as Json[];
    expect(branches.map((b) => (((b.if as Json).properties as Json).algorithm as Json).const)).toEqual(adapters.map((a) => a.name));
  });

  it('lets a run sweep a scalar but not the ground truth', () => {
    const sampling = (params: Json) => ((params.properties as Json).sampling as Json).oneOf as Json[];
    const broderRun = ((((props.runs as Json).items as Json).allOf as Json[])[0]?.then as Json).properties as Json;
    const mod = sampling(broderRun.params as Json).find((o) => ((o.properties as Json).method as Json).const === 'mod') as Json;
    const m = (mod.properties as Json).m as Json;
    expect(m.anyOf).toEqual([
      { type: 'integer', minimum: 1, maximum: 1_000_000 },
      { type: 'array', items: { type: 'integer', minimum: 1, maximum: 1_000_000 }, minItems: 1 },
    ]);
    // The discriminator stays a single value: a sweep over methods is not a thing.
    expect((mod.properties as Json).method).toEqual({ type: 'string', const: 'mod', description: expect.any(String) });

    const broderTruth = (((props.ground_truth as Json).allOf as Json[])[0]?.then as Json).properties as Json;
    const truthMod = sampling(broderTruth.params as Json).find((o) => ((o.properties as Json).method as Json).const === 'mod') as Json;
    expect((truthMod.properties as Json).m).toEqual({
      type: 'integer',
      minimum: 1,
      maximum: 1_000_000,
      description: expect.any(String),
    });
  });

  it('takes the corpus formats from corpusFormats', () => {
    const branches = (props.corpus as Json).oneOf as Json[];
    const formats = branches.flatMap((b) => {
      const f = (b.properties as Json).format as Json;
      return f.const !== undefined ? [f.const] : (f.enum as unknown[]);
    });
    expect(formats).toEqual([...corpusFormats]);
  });
});

describe('zod schemas', () => {
  it('needs a path for every format but spamassassin', () => {
    for (const format of corpusFormats) {
      expect(corpusSchema.safeParse({ format }).success, format).toBe(format === 'spamassassin');
      expect(corpusSchema.safeParse({ format, path: 'x' }).success, format).toBe(true);
    }
  });
});
