import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import ts from 'typescript';

/**
 * The module map of docs/architecture.md, enforced: the feature folders under src/modules import each other
 * without cycles (type-only imports count too: a cycle of types still ties two modules together). ESLint's
 * import/no-cycle style rules see file cycles only; two modules importing each other through different files
 * are a folder cycle all the same, so this builds the folder graph from TypeScript's own import scanner.
 * Modules also export services, never repositories (that no module imports another's repository is an ESLint
 * rule: eslint.config.mjs).
 */
const MODULES_DIR = __dirname;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return name.endsWith('.ts') && !name.endsWith('.spec.ts') ? [path] : [];
  });
}

function moduleOf(file: string): string | null {
  const rel = relative(MODULES_DIR, file);
  if (rel.startsWith('..')) return null;
  const [first] = rel.split(sep);
  return first && first !== rel ? first : null;
}

/** Edges between module folders: importer → imported, with one example file pair each. */
export function moduleGraph(): Map<string, Map<string, string>> {
  const graph = new Map<string, Map<string, string>>();
  for (const file of sourceFiles(MODULES_DIR)) {
    const from = moduleOf(file);
    if (!from) continue;
    const edges = graph.get(from) ?? new Map<string, string>();
    graph.set(from, edges);
    for (const { fileName } of ts.preProcessFile(readFileSync(file, 'utf8'), true, true).importedFiles) {
      if (!fileName.startsWith('.')) continue;
      const to = moduleOf(resolve(dirname(file), fileName));
      if (to && to !== from && !edges.has(to)) edges.set(to, `${relative(MODULES_DIR, file)} → ${fileName}`);
    }
  }
  return graph;
}

/** Every elementary cycle found by a depth-first search, each as the list of modules it passes. */
export function cyclesOf(graph: Map<string, Map<string, string>>): string[][] {
  const cycles: string[][] = [];
  const state = new Map<string, 'open' | 'done'>();
  const path: string[] = [];
  const visit = (node: string): void => {
    state.set(node, 'open');
    path.push(node);
    for (const next of graph.get(node)?.keys() ?? []) {
      if (state.get(next) === 'open') cycles.push([...path.slice(path.indexOf(next)), next]);
      else if (!state.has(next)) visit(next);
    }
    path.pop();
    state.set(node, 'done');
  };
  for (const node of [...graph.keys()].sort()) if (!state.has(node)) visit(node);
  return cycles;
}

describe('module graph (src/modules)', () => {
  const graph = moduleGraph();

  it('finds the modules and their imports (the check can fail)', () => {
    expect(graph.size).toBeGreaterThan(10);
    expect(cyclesOf(new Map([['a', new Map([['b', 'x']])], ['b', new Map([['a', 'y']])]]))).toEqual([['a', 'b', 'a']]);
  });

  it('has no import cycles between module folders', () => {
    const described = cyclesOf(graph).map((cycle) => cycle.map((node, index) => (index === 0 ? node : `${node} (${graph.get(cycle[index - 1] as string)?.get(node)})`)).join(' → '));
    expect(described).toEqual([]);
  });

  it('exports services from modules, never repositories', () => {
    const exportingRepositories = sourceFiles(MODULES_DIR)
      .filter((file) => file.endsWith('.module.ts'))
      .flatMap((file) => [...readFileSync(file, 'utf8').matchAll(/exports:\s*\[([^\]]*)\]/g)].filter((match) => /Repository\b/.test(match[1] ?? '')).map(() => relative(MODULES_DIR, file)));
    expect(exportingRepositories).toEqual([]);
  });
});
