/**
 * The project's import graph, read with the TypeScript compiler's parser (not a regex, so an
 * import in a comment or a string is not one), and the two checks the layers test makes on it:
 * no import from a lower layer to a higher one, no cycle between folders or between files.
 *
 * A module reference counts wherever the code names a module of ours: static imports and
 * re-exports (type-only ones too — a type ties the layers as a value does), `import('…')` calls
 * and types, and `new URL('./x.ts', import.meta.url)`, the way worker tasks name the module they
 * run (a worker that loads a higher layer's module depends on it as an import would).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, posix, relative, sep } from 'node:path';
import ts from 'typescript';

export interface Import {
  /** the importing file, from the package root, with forward slashes */
  readonly from: string;
  /** the imported file, likewise */
  readonly to: string;
  /** the specifier as written */
  readonly specifier: string;
  readonly line: number;
}

/** `.ts` and `.js` sources under `dirs` (package-root relative), forward-slashed, sorted. */
export function sourceFiles(root: string, dirs: readonly string[]): string[] {
  const walk = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
      const p = join(dir, e.name);
      if (e.isDirectory()) return walk(p);
      return /\.(ts|js|mjs)$/.test(e.name) ? [relative(root, p).split(sep).join('/')] : [];
    });
  return dirs
    .filter((d) => existsSync(join(root, d)))
    .flatMap((d) => walk(join(root, d)))
    .sort();
}

/** Relative module specifiers `text` names, with their 1-based lines. */
export function moduleReferences(fileName: string, text: string): { specifier: string; line: number }[] {
  const sf = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, false, fileName.endsWith('.ts') ? ts.ScriptKind.TS : ts.ScriptKind.JS);
  const found: { specifier: string; line: number }[] = [];
  const add = (node: ts.Node | undefined): void => {
    if (node && ts.isStringLiteralLike(node)) found.push({ specifier: node.text, line: sf.getLineAndCharacterOfPosition(node.getStart(sf)).line + 1 });
  };
  const isImportMetaUrl = (node: ts.Node | undefined): boolean =>
    node !== undefined &&
    ts.isPropertyAccessExpression(node) &&
    node.name.text === 'url' &&
    ts.isMetaProperty(node.expression) &&
    node.expression.keywordToken === ts.SyntaxKind.ImportKeyword;
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) add(node.moduleSpecifier);
    else if (ts.isImportEqualsDeclaration(node) && ts.isExternalModuleReference(node.moduleReference)) add(node.moduleReference.expression);
    else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) add(node.arguments[0]);
    else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)) add(node.argument.literal);
    else if (ts.isNewExpression(node) && ts.isIdentifier(node.expression) && node.expression.text === 'URL' && isImportMetaUrl(node.arguments?.[1])) add(node.arguments?.[0]);
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return found.filter((r) => r.specifier.startsWith('./') || r.specifier.startsWith('../'));
}

/**
 * Every reference from one of `files` to another of them. References to anything else (a
 * folder, package.json, the price table, the built bundle) are not module imports of the graph.
 */
export function importGraph(root: string, files: readonly string[]): Import[] {
  const known = new Set(files);
  return files.flatMap((from) =>
    moduleReferences(from, readFileSync(join(root, from), 'utf8')).flatMap(({ specifier, line }) => {
      const to = posix.normalize(posix.join(posix.dirname(from), specifier));
      return known.has(to) ? [{ from, to, specifier, line }] : [];
    }),
  );
}

/** A layer: a name and the path prefixes of its files (a folder ends in `/`; else one file). */
export interface Layer {
  readonly name: string;
  readonly paths: readonly string[];
}

/** The layer `file` belongs to (its longest matching prefix wins), or undefined. */
export function layerOf(layers: readonly Layer[], file: string): Layer | undefined {
  let best: { layer: Layer; length: number } | undefined;
  for (const layer of layers) {
    for (const p of layer.paths) {
      const hit = p.endsWith('/') ? file.startsWith(p) : file === p;
      if (hit && (best === undefined || p.length > best.length)) best = { layer, length: p.length };
    }
  }
  return best?.layer;
}

const show = (i: Import): string => `${i.from}:${i.line} imports '${i.specifier}' (${i.to})`;

/**
 * Layers are listed bottom first; a file may import its own layer or one below. One message per
 * import that points up, and per file no layer claims (so a new folder is placed on purpose).
 */
export function upwardImports(layers: readonly Layer[], files: readonly string[], imports: readonly Import[]): string[] {
  const rank = new Map(layers.map((l, i) => [l, i]));
  const unplaced = files.filter((f) => layerOf(layers, f) === undefined).map((f) => `${f}: in no layer`);
  const up = imports.flatMap((i) => {
    const a = layerOf(layers, i.from);
    const b = layerOf(layers, i.to);
    if (!a || !b) return [];
    return (rank.get(b) as number) > (rank.get(a) as number) ? [`${show(i)}: ${a.name} is below ${b.name}`] : [];
  });
  return [...unplaced, ...up];
}

/**
 * The cycles of the graph whose nodes are `key(file)`: one message per strongly connected
 * component of more than one node, listing its nodes and the imports that tie them. An edge
 * between two nodes that `together` holds is left out (the check sees them as one).
 */
export function cycles(imports: readonly Import[], key: (file: string) => string, together: (a: string, b: string) => boolean = () => false): string[] {
  const edges = new Map<string, Import[]>();
  for (const i of imports) {
    const a = key(i.from);
    const b = key(i.to);
    if (a === b || together(a, b)) continue;
    const list = edges.get(a) ?? [];
    list.push(i);
    edges.set(a, list);
  }
  const nodes = [...new Set(imports.flatMap((i) => [key(i.from), key(i.to)]))].sort();
  // Tarjan's algorithm, recursive: the graphs here are a few hundred nodes.
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const components: string[][] = [];
  const connect = (v: string): void => {
    index.set(v, index.size);
    low.set(v, index.get(v) as number);
    stack.push(v);
    onStack.add(v);
    for (const i of edges.get(v) ?? []) {
      const w = key(i.to);
      if (!index.has(w)) {
        connect(w);
        low.set(v, Math.min(low.get(v) as number, low.get(w) as number));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v) as number, index.get(w) as number));
    }
    if (low.get(v) === index.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop() as string;
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1) components.push(component.sort());
    }
  };
  for (const v of nodes) if (!index.has(v)) connect(v);
  return components.map((c) => {
    // One shortest round through the component's first node: the imports to look at first (a
    // component of many nodes has many rounds, and one broken shows the next).
    const inside = new Set(c);
    const start = c[0] as string;
    const via = new Map<string, Import>();
    const queue = [start];
    let closing: Import | undefined;
    for (let q = 0; q < queue.length && !closing; q++) {
      for (const i of edges.get(queue[q] as string) ?? []) {
        const w = key(i.to);
        if (!inside.has(w)) continue;
        if (w === start) {
          closing = i;
          break;
        }
        if (!via.has(w)) {
          via.set(w, i);
          queue.push(w);
        }
      }
    }
    const round: Import[] = [];
    for (let i = closing; i !== undefined; i = key(i.from) === start ? undefined : via.get(key(i.from))) round.unshift(i);
    return `cycle between ${c.join(', ')}:\n  ${round.map(show).join('\n  ')}`;
  });
}

/** The folder of a file, from the package root. */
export const folderOf = (file: string): string => dirname(file);
