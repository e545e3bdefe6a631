/**
 * `npm run schema`: writes configs/schema.json, the JSON Schema of experiment configs, from
 * the zod schemas of harness/experiment/schema.ts and of every algorithm in the registry.
 * A test fails when the committed file differs from what this would write.
 */
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { loadAdapters } from '../algorithms/registry.ts';
import { renderConfigJsonSchema } from '../harness/experiment/schema.ts';

const target = fileURLToPath(new URL('../configs/schema.json', import.meta.url));
writeFileSync(target, renderConfigJsonSchema(await loadAdapters()));
process.stdout.write(`wrote ${target}\n`);
