/** kernels/ is the lowest layer: its modules import Node's built-ins and each other, nothing else of the project. */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const KERNELS = resolve(dirname(fileURLToPath(import.meta.url)), '../../kernels');

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? sources(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : []));
}

describe('kernels/', () => {
  it('imports nothing outside itself but node: built-ins', () => {
    const outside: string[] = [];
    for (const file of sources(KERNELS)) {
      for (const m of readFileSync(file, 'utf8').matchAll(/(?:import|export)\s[^'"]*?from\s+['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]/g)) {
        const spec = (m[1] ?? m[2]) as string;
        if (spec.startsWith('node:')) continue;
        if (spec.startsWith('.') && !relative(KERNELS, resolve(dirname(file), spec)).startsWith('..')) continue;
        outside.push(`${relative(KERNELS, file)} → ${spec}`);
      }
    }
    expect(outside).toEqual([]);
  });
});
