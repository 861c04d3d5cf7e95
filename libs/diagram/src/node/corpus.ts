import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** The differential corpus: real Mermaid diagrams with their expected graphs (see scripts/generate-expected.ts). */
export const CORPUS_DIR = join(__dirname, '..', '..', 'corpus');

export interface CorpusEntry {
  name: string;
  source: string;
  expectedPath: string;
}

export function loadCorpus(): CorpusEntry[] {
  return readdirSync(CORPUS_DIR)
    .filter((file) => file.endsWith('.mmd'))
    .sort()
    .map((file) => ({
      name: file,
      source: readFileSync(join(CORPUS_DIR, file), 'utf8'),
      expectedPath: join(CORPUS_DIR, 'expected', file.replace(/\.mmd$/, '.json')),
    }));
}
