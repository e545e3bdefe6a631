import type { CommandModule } from 'yargs';
import { z } from 'zod';
import { builtinDetectors } from '../detectors.ts';
import type { AlgorithmAdapter } from '../../contract/index.ts';

interface Param {
  path: string;
  type: string;
  default?: unknown;
  description?: string;
}

/** Walks the JSON Schema of an adapter's params: one line a parameter, union branches by discriminator. */
function params(schema: Record<string, unknown>, path: string, out: Param[], defs: Record<string, unknown>): void {
  const s = resolveRef(schema, defs);
  const variants = (s.oneOf ?? s.anyOf) as Record<string, unknown>[] | undefined;
  if (variants && variants.every((v) => resolveRef(v, defs).type !== 'object')) {
    const type = variants.map((v) => String(resolveRef(v, defs).type ?? 'value')).join(' | ');
    out.push({ path, type, default: s.default, description: s.description as string | undefined });
    return;
  }
  if (variants) {
    if (s.description) out.push({ path, type: 'one of', description: String(s.description), default: s.default });
    for (const v of variants) {
      const r = resolveRef(v, defs);
      const props = (r.properties ?? {}) as Record<string, Record<string, unknown>>;
      const disc = Object.entries(props).find(([, p]) => p.const !== undefined);
      const label = disc ? `${path}{${disc[0]}: ${String(disc[1].const)}}` : path;
      params(r, label, out, defs);
    }
    return;
  }
  if (s.type === 'object' && s.properties) {
    if (path && s.description) out.push({ path, type: 'object', description: String(s.description), default: s.default });
    for (const [k, p] of Object.entries(s.properties as Record<string, Record<string, unknown>>)) {
      params(p, path ? `${path}.${k}` : k, out, defs);
    }
    return;
  }
  if (s.type === 'array' && s.items && typeof s.items === 'object') {
    const items = resolveRef(s.items as Record<string, unknown>, defs);
    if (items.type === 'object') {
      out.push({ path, type: 'list', default: s.default, description: s.description as string | undefined });
      params(items, `${path}[]`, out, defs);
      return;
    }
  }
  let type = String(s.type ?? 'value');
  if (s.const !== undefined) type = JSON.stringify(s.const);
  if (Array.isArray(s.enum)) type = (s.enum as unknown[]).map((e) => JSON.stringify(e)).join(' | ');
  out.push({ path, type, default: s.default, description: s.description as string | undefined });
}

function resolveRef(s: Record<string, unknown>, defs: Record<string, unknown>): Record<string, unknown> {
  const ref = s.$ref;
  if (typeof ref === 'string') {
    const name = ref.replace(/^#\/(\$defs|definitions)\//, '');
    return { ...(defs[name] as Record<string, unknown>), ...(s.description ? { description: s.description } : {}) };
  }
  return s;
}

export function describeAlgorithms(adapters: readonly AlgorithmAdapter[]): string {
  const lines: string[] = [];
  for (const a of adapters) {
    lines.push(`${a.name} — ${a.description}`);
    lines.push(`  cites: ${a.citation}`);
    const json = z.toJSONSchema(a.params, { io: 'input' }) as Record<string, unknown>;
    const out: Param[] = [];
    params(json, '', out, (json.$defs ?? {}) as Record<string, unknown>);
    for (const p of out) {
      const def = p.default === undefined ? '' : ` (default ${JSON.stringify(p.default)})`;
      lines.push(`  ${p.path}: ${p.type}${def}${p.description ? ` — ${p.description}` : ''}`);
    }
    lines.push('');
  }
  return lines.join('\n');
}

export const listCommand: CommandModule = {
  command: 'list',
  describe: 'every algorithm with its parameters, defaults and descriptions',
  handler: async () => {
    process.stdout.write(describeAlgorithms((await builtinDetectors()).adapters));
  },
};
