/**
 * npm run bench:sql-schema — how long PostgreSQL's parser (libpg-query, as the server's SQL parser threads run it)
 * takes for a generated 5 MB `pg_dump --schema-only`, as a ratio of SERVICE_SQL_PARSE_TIMEOUT (30 s): the target is
 * under 0.1, so a dump that size is far from being refused on a machine several times slower or busier.
 * Baseline in the same run, for machines of different speed: reading the dump's bytes back from disk and hashing them
 * (SHA-256), the least any sync does with the file. Also shown: one window of the whole text (what a single parseSync
 * call costs; skip it with --no-single, it takes several seconds).
 * Not a test: nothing asserts a target; docs/benchmarks.md records a run.
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { loadModule, parseSync } from 'libpg-query';
import { generatePgDump } from '../../apps/server/test/artifacts/pg-dump-generator';
import { loadPostgresParser, parsePostgresSchema } from '../../libs/diagram/src/node/pg-schema';

const PARSE_TIMEOUT_MS = 30_000;
const RUNS = Number(process.argv.find((arg) => arg.startsWith('--runs='))?.slice('--runs='.length) ?? 5);
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const ms = (value: number) => `${Math.round(value)} ms`;

async function main(): Promise<void> {
  const started = performance.now();
  await loadPostgresParser();
  await loadModule();
  const loadMs = performance.now() - started;
  const dump = generatePgDump(5 * 1024 * 1024);
  const bytes = Buffer.byteLength(dump.sql);
  const dir = mkdtempSync(join(tmpdir(), 'bench-sql-'));
  const file = join(dir, 'schema.sql');
  writeFileSync(file, dump.sql);

  const parses: number[] = [];
  const baselines: number[] = [];
  for (let run = 0; run < RUNS; run++) {
    let at = performance.now();
    createHash('sha256').update(readFileSync(file, 'utf8'), 'utf8').digest('hex');
    baselines.push(performance.now() - at);
    at = performance.now();
    const result = parsePostgresSchema(dump.sql);
    parses.push(performance.now() - at);
    if (!result.ok || result.tables.length !== dump.tables) throw new Error(`unexpected parse result: ${result.ok ? result.tables.length : result.message}`);
  }
  rmSync(dir, { recursive: true, force: true });
  const parse = median(parses);
  const baseline = median(baselines);

  console.log(`bench:sql-schema — Node ${process.version}, ${cpus().length} cores (${cpus()[0]?.model ?? '?'}), load average ${loadavg().map((value) => value.toFixed(1)).join(' ')}`);
  console.log(`generated pg_dump --schema-only: ${(bytes / 1024 / 1024).toFixed(2)} MiB, ${dump.tables} tables (${dump.sql.split(';\n').length - 1} statements)`);
  console.log(`parser module load (once per thread): ${ms(loadMs)}`);
  console.log(`parse (median of ${RUNS}; runs ${parses.map(ms).join(', ')}): ${ms(parse)}`);
  console.log(`  / SERVICE_SQL_PARSE_TIMEOUT (${PARSE_TIMEOUT_MS / 1000} s): ${(parse / PARSE_TIMEOUT_MS).toFixed(3)}  (target < 0.100)`);
  console.log(`  / baseline, read + SHA-256 of the same file (median ${ms(baseline)}): ${(parse / baseline).toFixed(1)}x`);
  if (!process.argv.includes('--no-single')) {
    const withoutMetaCommands = dump.sql.replace(/^\\.*$/gm, '');
    const at = performance.now();
    parseSync(withoutMetaCommands);
    const single = performance.now() - at;
    console.log(`one parseSync call on the whole text (the parser alone, no windows, the tree not read): ${ms(single)} = ${(single / parse).toFixed(2)}x the parse above (windows + reading the tree)`);
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
