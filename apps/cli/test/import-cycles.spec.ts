import { readdirSync, readFileSync, existsSync } from 'node:fs';
import * as path from 'node:path';
import * as ts from 'typescript';

const SRC = path.join(__dirname, '../src');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(file);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.spec.ts') ? [file] : [];
  });
}

/** The files of apps/cli/src a file imports, `import type` included (TypeScript's own pre-parser finds them). */
function localImports(file: string): string[] {
  return ts
    .preProcessFile(readFileSync(file, 'utf8'), true, true)
    .importedFiles.map((imported) => imported.fileName)
    .filter((name) => name.startsWith('.'))
    .map((name) => path.resolve(path.dirname(file), name))
    .flatMap((target) => [`${target}.ts`, path.join(target, 'index.ts')].filter(existsSync).slice(0, 1));
}

/** Every import cycle, each as the files around it (relative to apps/cli/src). */
function importCycles(graph: ReadonlyMap<string, string[]>): string[][] {
  const cycles: string[][] = [];
  const done = new Set<string>();
  const visit = (file: string, stack: string[]): void => {
    const at = stack.indexOf(file);
    if (at !== -1) return void cycles.push(stack.slice(at).map((entry) => path.relative(SRC, entry)));
    if (done.has(file)) return;
    for (const next of graph.get(file) ?? []) visit(next, [...stack, file]);
    done.add(file);
  };
  for (const file of graph.keys()) visit(file, []);
  return cycles;
}

const importGraph = () => new Map(sourceFiles(SRC).map((file) => [file, localImports(file)]));

describe('apps/cli/src', () => {
  it('has no import cycles, type-only imports included', () => {
    expect(importCycles(importGraph())).toEqual([]);
  });

  it('would report the type-only cycle output-types.ts ↔ run-inspect.ts that InspectReport once made', () => {
    const graph = importGraph();
    const outputTypes = path.join(SRC, 'lib/output-types.ts');
    const runInspect = path.join(SRC, 'lib/run-inspect.ts');
    expect(graph.get(runInspect)).toContain(outputTypes);
    graph.set(outputTypes, [...(graph.get(outputTypes) ?? []), runInspect]);
    expect(importCycles(graph)).toContainEqual(expect.arrayContaining(['lib/output-types.ts', 'lib/run-inspect.ts']));
  });
});
