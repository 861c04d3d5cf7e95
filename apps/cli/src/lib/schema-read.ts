import type { SqlTable } from '@sc/contracts';
import type { SyncArtifact } from '@sc/contracts/core';
import { isSqlEngine, parseSqlSchema } from '@sc/diagram/node';
import type { CliProblem } from './cli-error';

/**
 * A database schema's tables as the server reads them: the same parsers (@sc/diagram/node: PostgreSQL's own parser,
 * libpg-query, and node-sql-parser for MySQL and SQLite), each loaded on its first schema, not at start-up.
 * Other engines (JSON documents) answer no tables and are compared by their files. The CLI parses in its own
 * process: it is a one-shot command, and a 5 MB dump parses in about a second.
 */
export async function readSqlTables(artifact: SyncArtifact, file: string): Promise<{ tables?: SqlTable[]; problem?: CliProblem }> {
  if (!artifact.engine || !isSqlEngine(artifact.engine)) return {};
  const parsed = await parseSqlSchema(artifact.file.content, artifact.engine);
  if (parsed.ok) return { tables: parsed.tables };
  return {
    problem: {
      severity: 'error',
      code: 'sql_syntax_error',
      message: parsed.message,
      file,
      artifact: `${artifact.kind} ${artifact.name}`,
      ...(parsed.line !== undefined ? { line: parsed.line } : {}),
      ...(parsed.column !== undefined ? { column: parsed.column } : {}),
    },
  };
}
