import { ArtifactsErrorCode } from '@sc/contracts';
import { parseSqlSchema, type SqlEngine } from '@sc/diagram/node';
import { DomainError } from '../../common/errors/domain-error';
import { ParsingConfig } from './parsing.config';

import { SqlSchemaParseService } from './sql-schema-parse.service';

jest.setTimeout(60_000);

const config = (env: Record<string, string> = {}) => ParsingConfig.fromEnv({ SERVICE_SQL_PARSE_WORKERS: '2', ...env });
const manyTables = (count: number) => Array.from({ length: count }, (_, i) => `CREATE TABLE t${i} (id int primary key, name text);`).join('\n');

describe('SqlSchemaParseService (real worker threads)', () => {
  const service = new SqlSchemaParseService(config());
  afterAll(() => service.onApplicationShutdown());

  it('answers exactly what parseSqlSchema answers in-process, for every engine, valid or not', async () => {
    const cases: Array<[string, SqlEngine]> = [
      ['CREATE TABLE users (id bigint PRIMARY KEY, email varchar(200) NOT NULL UNIQUE, org_id int REFERENCES orgs(id), created timestamp DEFAULT now());', 'postgres'],
      ['CREATE TABLE orders (id int NOT NULL AUTO_INCREMENT, total decimal(10,2), status enum(\'new\',\'paid\'), PRIMARY KEY (id));', 'mysql'],
      ['CREATE TABLE notes (id integer PRIMARY KEY, body text);\nALTER TABLE notes ADD COLUMN author text;', 'sqlite'],
      ['CREATE TABLE ok (id int);\nCREATE TABLE broken (id int,, name text);', 'postgres'],
      [manyTables(200), 'postgres'],
    ];
    const pooled = await Promise.all(cases.map(([sql, engine]) => service.parse(sql, engine)));
    expect(pooled).toEqual(await Promise.all(cases.map(([sql, engine]) => parseSqlSchema(sql, engine))));
    expect(pooled[3]).toMatchObject({ ok: false, line: 2 });
  });

  it('stops a parse that overruns its timeout and answers sql_parse_timeout, then keeps serving', async () => {
    await expect(service.parse(manyTables(2000), 'postgres', 1)).resolves.toEqual({
      ok: false,
      code: ArtifactsErrorCode.SqlParseTimeout,
      message: 'Parsing the schema took longer than 1 ms and was stopped (SERVICE_SQL_PARSE_TIMEOUT); split it into smaller files or simplify it.',
    });
    await expect(service.parse('CREATE TABLE after (id int);', 'postgres')).resolves.toMatchObject({ ok: true, tables: [{ name: 'after' }] });
  });

  it('throws sql_parser_unavailable (503) once shutting down', async () => {
    const closing = new SqlSchemaParseService(config({ SERVICE_SQL_PARSE_WORKERS: '1' }));
    await closing.onApplicationShutdown();
    const error = await closing.parse('CREATE TABLE t (id int);', 'postgres').catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(DomainError);
    expect(error).toMatchObject({ code: ArtifactsErrorCode.SqlParserUnavailable, status: 503 });
  });
});
