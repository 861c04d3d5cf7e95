#!/usr/bin/env node
// `npm run pack:cli` (nx run cli:pack): builds service-cli as one installable npm package,
// dist/cli-package/service-cli-<version>.tgz, that needs nothing from this repository.
//
// esbuild bundles apps/cli with the workspace libraries (libs/contracts, libs/diagram) and its npm dependencies
// into two files: dist/commands.js (oclif, the commands; what `service-cli --version` loads) and
// dist/mermaid-worker.js (the parser thread of libs/diagram's MermaidWorkerPool, with Mermaid). The pool starts
// `mermaid-worker.js` next to the file that holds it (worker-pool.ts: join(__dirname, …)), so both sit in dist/.
// Mermaid is bundled from node_modules, so the package carries the patched Mermaid (patches/README.md); jsdom stays
// a regular dependency (see apps/cli/README.md, "Packaging", for the measurements behind both choices). The help
// text of the commands, messages/*.md, is copied beside dist/ (read at start-up, never bundled).
//
// Options (for measuring other layouts): --external <pkg,pkg> keeps those packages as dependencies instead of
// bundling them; --out <dir> writes somewhere else than dist/cli-package.
import { build } from 'esbuild';
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const CLI = join(ROOT, 'apps/cli');
/**
 * Kept as dependencies by default: jsdom resolves a worker file of its own at load time (see the README); resvg
 * (`render -o x.png`) is a native module, which a bundle cannot hold; libpg-query (`diff` of PostgreSQL schemas)
 * loads its WebAssembly file from beside its own JavaScript.
 */
const DEFAULT_EXTERNAL = ['jsdom', '@resvg/resvg-js', 'libpg-query'];
/** oclif requires TypeScript only to read a tsconfig.json during development; the package never needs it. */
const NEVER_BUNDLED = ['typescript'];

const { values } = parseArgs({ options: { external: { type: 'string' }, out: { type: 'string' } } });
const external = values.external !== undefined ? values.external.split(',').filter(Boolean) : DEFAULT_EXTERNAL;
const outDir = resolve(values.out ?? join(ROOT, 'dist/cli-package'));
const stage = join(outDir, 'package');

const readJson = (file) => JSON.parse(readFileSync(file, 'utf8'));
const cliPackage = readJson(join(CLI, 'package.json'));
const rootPackage = readJson(join(ROOT, 'package.json'));

rmSync(outDir, { recursive: true, force: true });
mkdirSync(join(stage, 'bin'), { recursive: true });

await build({
  absWorkingDir: ROOT,
  entryPoints: { commands: 'cli-entry', 'mermaid-worker': 'libs/diagram/src/node/mermaid-worker.ts' },
  plugins: [cliEntry()],
  outdir: join(stage, 'dist'),
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  tsconfig: join(CLI, 'tsconfig.app.json'),
  external: [...external, ...NEVER_BUNDLED],
  legalComments: 'none',
  logLevel: 'warning',
});

// bin/run.js loads the bundle, which exports oclif's execute/handle next to the commands; oclif then loads the
// same file again (package.json → oclif.commands, explicit strategy) and gets it from Node's module cache.
writeFileSync(
  join(stage, 'bin/run.js'),
  "#!/usr/bin/env node\nconst cli = require('../dist/commands.js');\ncli.execute({ dir: __dirname }).catch(cli.handle);\n",
  { mode: 0o755 },
);
cpSync(join(CLI, 'README.md'), join(stage, 'README.md'));
// The commands' help text (apps/cli/src/lib/messages.ts reads messages/<command>.md at start-up, above dist/).
cpSync(join(CLI, 'messages'), join(stage, 'messages'), { recursive: true });
const dependencies = Object.fromEntries(external.map((name) => [name, rootPackage.dependencies[name] ?? fail(`${name} is not a dependency of the root package.json`)]));
writeFileSync(
  join(stage, 'package.json'),
  `${JSON.stringify(
    {
      name: cliPackage.name,
      version: cliPackage.version,
      description: cliPackage.description,
      license: rootPackage.license,
      bin: cliPackage.bin,
      engines: cliPackage.engines,
      files: ['bin', 'dist', 'messages'],
      dependencies,
      oclif: { ...cliPackage.oclif, commands: { ...cliPackage.oclif.commands, target: './dist/commands.js' } },
    },
    null,
    2,
  )}\n`,
);

// npm pack writes the tarball with fixed timestamps, so the same sources give the same bytes (and ETag).
const packed = JSON.parse(execFileSync('npm', ['pack', '--json', '--pack-destination', outDir], { cwd: stage, encoding: 'utf8' }))[0];
rmSync(stage, { recursive: true, force: true });
console.log(`${join(outDir, packed.filename)}: ${packed.entryCount} files, ${(packed.size / 1e6).toFixed(1)} MB packed, ${(packed.unpackedSize / 1e6).toFixed(1)} MB unpacked`);

/** The bundle's entry: the commands map for oclif plus the oclif functions bin/run.js calls. */
function cliEntry() {
  return {
    name: 'cli-entry',
    setup(builder) {
      builder.onResolve({ filter: /^cli-entry$/ }, () => ({ path: 'cli-entry', namespace: 'cli-entry' }));
      builder.onLoad({ filter: /.*/, namespace: 'cli-entry' }, () => ({
        contents: "export { COMMANDS } from './apps/cli/src/commands';\nexport { execute, handle } from '@oclif/core';\n",
        loader: 'ts',
        resolveDir: ROOT,
      }));
    },
  };
}

function fail(message) {
  throw new Error(message);
}
