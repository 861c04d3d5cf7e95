import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { MigrationInterface, QueryRunner } from 'typeorm';
import { MIGRATIONS } from '.';

/**
 * By migration name, the SHA-256 of what the migration sends the database: its `up` and `down` statements with their
 * parameters, in order. TypeORM records only the name of a migration it has run, so a migration edited after databases
 * ran it would leave them with a schema the code no longer describes: an applied migration is never edited (a schema
 * change is a new migration), and this file holds each one to the text it was applied with.
 */
const APPLIED: Record<string, string> = JSON.parse(readFileSync(join(__dirname, 'applied-migrations.json'), 'utf8'));

/** The calls one direction of a migration makes, against a query runner that only records them. */
async function recordedCalls(run: (queryRunner: QueryRunner) => Promise<unknown>): Promise<[string, unknown[] | null][]> {
  const calls: [string, unknown[] | null][] = [];
  const recorder = new Proxy({} as QueryRunner, {
    get: (_target, property) => {
      if (property === 'query') return async (sql: string, parameters?: unknown[]) => void calls.push([sql, parameters ?? null]);
      // Our migrations are plain SQL: a migration reaching for anything else must have it recorded here first.
      throw new Error(`this spec records only queryRunner.query; a migration used queryRunner.${String(property)}`);
    },
  });
  await run(recorder);
  return calls;
}

async function sentSqlHash(migration: MigrationInterface): Promise<string> {
  const sent = { up: await recordedCalls((queryRunner) => migration.up(queryRunner)), down: await recordedCalls((queryRunner) => migration.down(queryRunner)) };
  return createHash('sha256').update(JSON.stringify(sent)).digest('hex');
}

describe('migrations', () => {
  const migrations = MIGRATIONS.map((Migration) => new Migration());

  it.each(migrations.map((migration) => [migration.name, migration] as const))('%s sends the SQL it was applied with', async (name, migration) => {
    const hash = await sentSqlHash(migration);
    const line = `"${name}": "${hash}"`;
    if (APPLIED[name] === undefined) {
      throw new Error(`${name} is new: add its line to applied-migrations.json (${line}); from then on it is never edited`);
    }
    if (APPLIED[name] !== hash) {
      throw new Error(
        `${name} sends other SQL than when it was applied. Databases record only a migration's name, so an applied migration ` +
          `is never edited: put the change in a new migration. (Only a migration no database has run yet may change, with its line: ${line})`,
      );
    }
  });

  it('keeps every applied migration registered in index.ts', () => {
    const registered = new Set(migrations.map((migration) => migration.name));
    expect(Object.keys(APPLIED).filter((name) => !registered.has(name))).toEqual([]);
  });
});
