/**
 * Mermaid 12.3 exactly as published, next to the patched one: a copy of the installed package's ESM build with
 * patches/mermaid+12.3.0.patch reversed (by patch-package's own reader and applier, the tool that applied it).
 * The patch spec compares graphs from both; `npm run bench:diagram` measures the patch against it.
 *
 * The copy lives under node_modules/.cache, so its imports (d3, dompurify…) resolve to the project's packages.
 */
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';

const ROOT = join(__dirname, '..', '..', '..');
const PATCH = join(ROOT, 'patches', 'mermaid+12.3.0.patch');

interface PatchEffects {
  parsePatchFile(text: string): unknown[];
}
interface PatchReverse {
  reversePatch(effects: unknown[]): unknown[];
}
interface PatchApply {
  executeEffects(effects: unknown[], options: { dryRun: boolean; cwd: string }): void;
}

/** The path of the stock `mermaid.core.mjs`, preparing the copy on first use (one per patch content). */
export function stockMermaidEntry(): string {
  const patch = readFileSync(PATCH, 'utf8');
  const cache = join(ROOT, 'node_modules', '.cache', 'stock-mermaid', createHash('sha256').update(patch).digest('hex').slice(0, 16));
  const entry = join(cache, 'node_modules', 'mermaid', 'dist', 'mermaid.core.mjs');
  if (existsSync(entry)) return entry;

  const installed = join(ROOT, 'node_modules');
  const building = `${cache}.${process.pid}`;
  rmSync(building, { recursive: true, force: true });
  const copy = (relative: string) => {
    mkdirSync(dirname(join(building, relative)), { recursive: true });
    copyFileSync(join(installed, relative), join(building, relative));
  };
  copy('mermaid/package.json');
  copy('mermaid/dist/mermaid.core.mjs');
  for (const file of readdirSync(join(installed, 'mermaid', 'dist', 'chunks', 'mermaid.core'))) {
    if (file.endsWith('.mjs')) copy(join('mermaid', 'dist', 'chunks', 'mermaid.core', file));
  }
  // The patch names files as node_modules/mermaid/…; `building` plays the project root.
  mkdirSync(join(building, 'node_modules'), { recursive: true });
  renameSync(join(building, 'mermaid'), join(building, 'node_modules', 'mermaid'));
  const { parsePatchFile } = require('patch-package/dist/patch/parse') as PatchEffects;
  const { reversePatch } = require('patch-package/dist/patch/reverse') as PatchReverse;
  const { executeEffects } = require('patch-package/dist/patch/apply') as PatchApply;
  executeEffects(reversePatch(parsePatchFile(patch)), { dryRun: false, cwd: building });
  mkdirSync(dirname(cache), { recursive: true });
  rmSync(cache, { recursive: true, force: true });
  renameSync(building, cache);
  return entry;
}
