import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';

/** A throwaway repository directory with the given files (path → content); removed by cleanup(). */
export interface TempRepo {
  dir: string;
  write(relativePath: string, content: string): void;
  cleanup(): void;
}

export function createTempRepo(files: Record<string, string> = {}, prefix = 'service-cli-'): TempRepo {
  const dir = mkdtempSync(path.join(tmpdir(), prefix));
  const write = (relativePath: string, content: string): void => {
    const target = path.join(dir, relativePath);
    mkdirSync(path.dirname(target), { recursive: true });
    writeFileSync(target, content);
  };
  for (const [relativePath, content] of Object.entries(files)) write(relativePath, content);
  return { dir, write, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/** A fresh temp repository (`files`) for each test of the surrounding describe block, removed after it. */
export function useTempRepo(files: Record<string, string> = {}): TempRepo {
  let current: TempRepo | undefined;
  beforeEach(() => (current = createTempRepo(files)));
  afterEach(() => current?.cleanup());
  const repo = (): TempRepo => {
    if (!current) throw new Error('useTempRepo: the repository exists only inside a test.');
    return current;
  };
  return {
    get dir() {
      return repo().dir;
    },
    write: (relativePath, content) => repo().write(relativePath, content),
    cleanup: () => repo().cleanup(),
  };
}

/** A small valid repository without context files (so it only needs the Mermaid parser). */
export const MINIMAL_REPO: Record<string, string> = {
  '.service.yaml': [
    'version: 1',
    'service:',
    '  name: billing',
    '  description: Invoices',
    '  repositoryUrl: https://deploy:hunter2-secret@git.example.com/acme/billing.git?private_token=abc#readme',
    'flows:',
    '  - name: invoice',
    '    path: .service/flows/invoice.mmd',
    '    notesPath: .service/flows/invoice.md',
    'summaryPath: .service/service-summary.md',
    '',
  ].join('\n'),
  '.service/flows/invoice.mmd': 'flowchart LR\n  order[Order] --> invoice[Invoice]\n  invoice --> mail[Mail]\n',
  '.service/flows/invoice.md': '# Invoice flow\n',
  '.service/service-summary.md': '# billing\n',
};
