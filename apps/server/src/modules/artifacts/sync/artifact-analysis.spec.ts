// @sc/contracts carries class-transformer decorators, which need the metadata polyfill the server's main.ts loads.
import 'reflect-metadata';
import type { SyncArtifact } from '@sc/contracts';
import { MermaidParseConfig } from '../../parsing/mermaid-parse.config';
import { MermaidParseService } from '../../parsing/mermaid-parse.service';
import { ArtifactAnalyzer, ANALYZER_VERSION, listCollections, type ArtifactAnalysis } from './artifact-analysis';
import { sha256Hex } from '../../../common/crypto/tokens';
import { mermaidParserFrom } from '../../parsing/mermaid-parser';
import { ParsingConfig } from '../../parsing/parsing.config';
import { SqlSchemaParseService } from '../../parsing/sql-schema-parse.service';

jest.setTimeout(60_000);

const file = (path: string, content: string) => ({ path, content, sha256: sha256Hex(content) });
const diagram = (mermaid: string, context?: string): SyncArtifact => ({
  kind: 'architecture-diagram',
  name: 'topology',
  file: file('.service/diagrams/topology.mmd', mermaid),
  ...(context !== undefined ? { context: file('.service/diagrams/topology.context.json', context) } : {}),
});

describe('ArtifactAnalyzer', () => {
  // The server's own parser: Mermaid in a worker thread.
  const mermaid = new MermaidParseService(new MermaidParseConfig(1, 30_000, 1024 * 1024));
  const parseInWorker = mermaidParserFrom(mermaid);
  // And its SQL parser, in worker threads too.
  const sql = new SqlSchemaParseService(ParsingConfig.fromEnv({ SERVICE_SQL_PARSE_WORKERS: '1' }));
  let parses = 0;
  const analyzer = new ArtifactAnalyzer(
    (source) => {
      parses += 1;
      return parseInWorker(source);
    },
    (schema, engine) => sql.parse(schema, engine),
  );
  afterAll(() => Promise.all([mermaid.onApplicationShutdown(), sql.onApplicationShutdown()]));

  it('parses a diagram, applies its context against the bundle databases and keeps the report', async () => {
    const context = JSON.stringify({
      name: 'Topology',
      nodes: { api: { type: 'shape', shape: 'rectangle' }, db: { type: 'data-source', dbConfig: { serviceName: 'orders', databaseName: 'main', tableName: '' } } },
      edges: { 'api-db': { label: 'SQL' } },
    });
    const result = await analyzer.analyze({ artifact: diagram('flowchart LR\n  api[API] --> db[(DB)]\n', context), databaseNames: ['main'] });
    expect(result.ok).toBe(true);
    if (!result.ok || result.analysis.type !== 'diagram') throw new Error('expected a diagram analysis');
    expect(result.analysis.diagramKind).toBe('flowchart');
    expect(result.analysis.graph.nodes.map((node) => node.id)).toEqual(['api', 'db']);
    expect(result.analysis.overlaid?.nodes.find((node) => node.id === 'api')?.overlay).toMatchObject({ type: 'shape' });
    expect(result.analysis.report?.errors).toEqual([]);
  });

  it('reports a Mermaid syntax error with the file and line', async () => {
    const result = await analyzer.analyze({ artifact: diagram('flowchart LR\n  api --> \n  --> db\n'), databaseNames: [] });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.problems[0]).toMatchObject({ code: 'mermaid_syntax_error', artifact: { kind: 'architecture-diagram', name: 'topology' }, file: '.service/diagrams/topology.mmd' });
    expect(result.problems[0].line).toBeGreaterThanOrEqual(2);
  });

  it('reports every invalid context field with its JSON path and line in the context file', async () => {
    const context = '{\n  "nodes": {\n    "api": { "type": "blob" },\n    "db": { "type": "shape", "shape": "blob" }\n  }\n}';
    const result = await analyzer.analyze({ artifact: diagram('flowchart LR\n  api --> db\n', context), databaseNames: [] });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.problems.map((problem) => [problem.file, problem.path, problem.line])).toEqual([
      ['.service/diagrams/topology.context.json', '$.nodes.api.type', 3],
      ['.service/diagrams/topology.context.json', '$.nodes.db.shape', 4],
    ]);
  });

  it('refuses a dbConfig naming a database that is not in the same sync', async () => {
    const context = JSON.stringify({ nodes: { db: { type: 'data-source', dbConfig: { serviceName: 'orders', databaseName: 'missing', tableName: '' } } } });
    const result = await analyzer.analyze({ artifact: diagram('flowchart LR\n  api --> db\n', context), databaseNames: ['main'] });
    expect(!result.ok && result.problems).toEqual([
      expect.objectContaining({ code: 'context_unknown_database', file: '.service/diagrams/topology.context.json', artifact: { kind: 'architecture-diagram', name: 'topology' } }),
    ]);
  });

  it('places context-application errors at their line in the context file and keeps warnings with their position', async () => {
    const context = '{\n  "nodes": {\n    "db": { "type": "data-source", "dbConfig": { "serviceName": "o", "databaseName": "missing", "tableName": "" } }\n  }\n}';
    const result = await analyzer.analyze({ artifact: diagram('flowchart LR\n  api --> db\n', context), databaseNames: ['main'] });
    expect(!result.ok && result.problems.map((problem) => [problem.code, problem.path, problem.line])).toEqual([['context_unknown_database', '$.nodes.db.dbConfig.databaseName', 3]]);

    const unmatched = await analyzer.analyze({ artifact: diagram('flowchart LR\n  api --> db\n', '{\n  "nodes": {\n    "API": { "type": "shape" }\n  }\n}'), databaseNames: [] });
    if (!unmatched.ok || unmatched.analysis.type !== 'diagram') throw new Error('an unmatched key is a warning, not an error');
    expect(unmatched.analysis.report?.warnings).toEqual([
      expect.objectContaining({ code: 'context_unmatched_key', file: '.service/diagrams/topology.context.json', path: '$.nodes.API', line: 3 }),
    ]);
  });

  it('states each hint once in a problem message', async () => {
    const messages = async (context: object, databaseNames: string[]) => {
      const result = await analyzer.analyze({ artifact: diagram('flowchart LR\n  api --> db\n', JSON.stringify(context)), databaseNames });
      return !result.ok ? result.problems.map((problem) => problem.message) : [];
    };
    const [invalidShape] = await messages({ nodes: { api: { type: 'shape', shape: 'Rectangle' } } }, []);
    expect(invalidShape.match(/did you mean "rectangle"\?/gi)).toHaveLength(1);
    // The unknown-database message does not carry its hint itself: it is added once.
    const [unknownDatabase] = await messages({ nodes: { db: { type: 'data-source', dbConfig: { serviceName: 'o', databaseName: 'Main', tableName: '' } } } }, ['main']);
    expect(unknownDatabase.match(/did you mean main\?/gi)).toHaveLength(1);
  });

  it('reports Mermaid and context errors of one artifact together', async () => {
    const result = await analyzer.analyze({ artifact: diagram('flowchart LR\n  api --> \n  --> db\n', '{"nodes": {"api": {"type": "blob"}},}'), databaseNames: [] });
    expect(!result.ok && result.problems.map((problem) => problem.file)).toEqual(['.service/diagrams/topology.mmd', '.service/diagrams/topology.context.json']);
  });

  it('reuses the stored analysis of identical bytes unless a database its context names left the sync', async () => {
    const context = JSON.stringify({ nodes: { db: { type: 'data-source', dbConfig: { serviceName: 'o', databaseName: 'main', tableName: '' } } } });
    const artifact = diagram('flowchart LR\n  api --> db\n', context);
    const first = await analyzer.analyze({ artifact, databaseNames: ['main'] });
    if (!first.ok) throw new Error('expected the first analysis to pass');
    const before = parses;
    const again = await analyzer.analyze({ artifact, cached: first.analysis, databaseNames: ['main'] });
    // Every database the context names is still synced: the stored analysis is reused without any parsing.
    expect(again.ok && again.analysis).toBe(first.analysis);
    const withoutDatabase = await analyzer.analyze({ artifact, cached: first.analysis, databaseNames: [] });
    expect(withoutDatabase.ok).toBe(false);
    expect(parses).toBe(before);
    const stale = { ...first.analysis, version: ANALYZER_VERSION - 1 } as ArtifactAnalysis;
    await analyzer.analyze({ artifact, cached: stale, databaseNames: ['main'] });
    expect(parses).toBe(before + 1);
  });

  it('parses SQL schemas per engine and reports a syntax error with line and column', async () => {
    const schema = (engine: 'postgres' | 'mysql', content: string): SyncArtifact => ({ kind: 'database-schema', name: 'main', engine, file: file('s/main.sql', content) });
    const ok = await analyzer.analyze({ artifact: schema('postgres', 'CREATE TABLE t (id int PRIMARY KEY);'), databaseNames: [] });
    expect(ok.ok && ok.analysis).toMatchObject({ type: 'sql-schema', tables: [{ name: 't', primaryKey: ['id'] }] });
    const bad = await analyzer.analyze({ artifact: schema('mysql', 'CREATE TABLE t (\n  id int,,\n);'), databaseNames: [] });
    expect(!bad.ok && bad.problems).toEqual([expect.objectContaining({ code: 'sql_syntax_error', file: 's/main.sql', line: 2 })]);
  });

  it('reports a SQL schema whose parse overran its timeout as a problem naming the file', async () => {
    const impatient = new ArtifactAnalyzer(parseInWorker, (schema, engine) => sql.parse(schema, engine, 1));
    const large = Array.from({ length: 2000 }, (_, i) => `CREATE TABLE t${i} (id int primary key, name text);`).join('\n');
    const result = await impatient.analyze({ artifact: { kind: 'database-schema', name: 'main', engine: 'postgres', file: file('s/main.sql', large) }, databaseNames: [] });
    expect(!result.ok && result.problems).toEqual([
      {
        code: 'sql_parse_timeout',
        message: 's/main.sql: Parsing the schema took longer than 1 ms and was stopped (SERVICE_SQL_PARSE_TIMEOUT); split it into smaller files or simplify it.',
        artifact: { kind: 'database-schema', name: 'main' },
        file: 's/main.sql',
      },
    ]);
  });

  it('lists DynamoDB tables and MongoDB collections, and reports invalid JSON with its line', async () => {
    const json = (engine: 'dynamodb' | 'mongodb', content: string): SyncArtifact => ({ kind: 'database-schema', name: 'docs', engine, file: file('s/docs.json', content) });
    const dynamo = await analyzer.analyze({ artifact: json('dynamodb', JSON.stringify([{ TableName: 'Orders', KeySchema: [] }, { TableName: 'Users' }])), databaseNames: [] });
    expect(dynamo.ok && dynamo.analysis).toEqual({ type: 'json-schema', version: ANALYZER_VERSION, collections: ['Orders', 'Users'] });
    const broken = await analyzer.analyze({ artifact: json('mongodb', '{\n  "users": {},\n}'), databaseNames: [] });
    expect(!broken.ok && broken.problems[0]).toMatchObject({ code: 'schema_invalid_json', line: 3 });
  });

  it('refuses a JSON schema nested too deep to serve, or holding a string no database can store, with line and path', async () => {
    const json = (content: string): SyncArtifact => ({ kind: 'database-schema', name: 'docs', engine: 'mongodb', file: file('s/docs.json', content) });
    const deep = await analyzer.analyze({ artifact: json(`{"users":\n${'['.repeat(10_000)}${']'.repeat(10_000)}}`), databaseNames: [] });
    expect(!deep.ok && deep.problems).toEqual([expect.objectContaining({ code: 'schema_too_deep', file: 's/docs.json', line: 2, path: expect.stringMatching(/^\$\.users\[0\]/) })]);
    const nul = await analyzer.analyze({ artifact: json('{\n  "collections": ["users", "us\\u0000ers"]\n}'), databaseNames: [] });
    expect(!nul.ok && nul.problems).toEqual([expect.objectContaining({ code: 'unstorable_character', file: 's/docs.json', line: 2, path: '$.collections[1]' })]);
  });
});

describe('listCollections', () => {
  it('reads the common MongoDB layouts', () => {
    expect(listCollections({ collections: [{ name: 'users' }, { name: 'orders' }] })).toEqual(['users', 'orders']);
    expect(listCollections({ collections: { users: {}, orders: {} } })).toEqual(['users', 'orders']);
    expect(listCollections({ users: { $jsonSchema: {} }, $comment: 'x' })).toEqual(['users']);
    expect(listCollections({ Tables: [{ TableName: 'A' }] })).toEqual(['A']);
  });
});
