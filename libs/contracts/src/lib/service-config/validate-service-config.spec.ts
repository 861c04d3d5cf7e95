import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { isNormalizedRepositoryPath, normalizeRepositoryPath } from './repository-paths';
import { nameProblem } from './names';
import { ServiceConfigProblemCode as Code } from './service-config.types';
import { parseServiceConfig, validateServiceConfig } from './validate-service-config';
import { parseYamlWithLines } from './yaml-document';

const FIXTURE = path.join(__dirname, '../../../../../apps/cli/test/fixtures/sample-repo/.service.yaml');

function problemsOf(text: string): Array<[string, Code, number | undefined, string | undefined]> {
  return parseServiceConfig(text, '.service.yaml').problems.map((problem) => [problem.severity, problem.code, problem.line, problem.path]);
}

describe('parseServiceConfig', () => {
  it('refuses a NUL character in a text field with its line (js-yaml already refuses a raw one)', () => {
    expect(problemsOf('version: 1\nservice:\n  name: svc\n  description: "a\\0b"\n  repositoryUrl: "x\\0"\nflows: []\n')).toEqual([
      ['warning', Code.NoArtifacts, 1, undefined],
      ['error', Code.UnstorableCharacter, 4, 'service.description'],
      ['error', Code.UnstorableCharacter, 5, 'service.repositoryUrl'],
    ]);
    expect(problemsOf('version: 1\nservice:\n  name: svc\n  description: a\u0000b\n')).toEqual([['error', Code.YamlSyntaxError, 4, undefined]]);
  });

  it('accepts the payments fixture without any problem and plans every artifact kind', () => {
    const result = parseServiceConfig(readFileSync(FIXTURE, 'utf8'), '.service.yaml');
    expect(result.problems).toEqual([]);
    expect(result.config?.service.name).toBe('payments');
    expect(new Set(result.artifacts.map((artifact) => artifact.kind))).toEqual(
      new Set(['architecture-diagram', 'flow', 'database-schema', 'job-notes', 'job-dependencies', 'service-summary', 'doc', 'api-spec']),
    );
    const topology = result.artifacts.find((artifact) => artifact.name === 'topology');
    expect(topology?.files).toEqual([
      { role: 'main', path: '.service/diagrams/topology.mmd', keyPath: ['architectureDiagrams', 0, 'path'] },
      { role: 'context', path: '.service/diagrams/topology.context.json', keyPath: ['architectureDiagrams', 0, 'contextPath'] },
    ]);
    expect(result.artifacts.find((artifact) => artifact.name === 'idempotency')).toMatchObject({ kind: 'database-schema', engine: 'dynamodb' });
    expect(result.lineOf(['architectureDiagrams', 0, 'contextPath'])).toBe(13);
  });

  it('reports every problem at once, each with its line and key path', () => {
    const text = [
      'version: 2', // 1
      'service:', // 2
      '  name: "bad name!"', // 3
      '  owner: team-a', // 4
      'architectureDiagrams:', // 5
      '  - name: topology', // 6
      '    path: /etc/passwd', // 7
      '  - name: topology', // 8
      '    path: ../../outside.mmd', // 9
      '    contextpath: a.json', // 10
      '  - path: x.mmd', // 11
      'databases:', // 12
      '  - name: ledger', // 13
      '    engine: Postgres', // 14
      '    schemaPath: schema.json', // 15
      '  - name: events', // 16
      '    engine: mongodb', // 17
      '    schemaPath: events.sql', // 18
      'apiSpecs:', // 19
      '  - name: api', // 20
      '    path: "a\\\\b.yaml"', // 21
      '    format: swagger', // 22
      'docs: notalist', // 23
      'flow: []', // 24
      '',
    ].join('\n');
    expect(problemsOf(text)).toEqual([
      ['error', Code.UnsupportedVersion, 1, 'version'],
      ['error', Code.InvalidName, 3, 'service.name'],
      ['warning', Code.UnknownKey, 4, 'service.owner'],
      ['error', Code.PathEscapesRepository, 7, 'architectureDiagrams[0].path'],
      ['error', Code.DuplicateName, 8, 'architectureDiagrams[1].name'],
      ['error', Code.PathEscapesRepository, 9, 'architectureDiagrams[1].path'],
      ['warning', Code.UnknownKey, 10, 'architectureDiagrams[1].contextpath'],
      ['error', Code.MissingField, 11, 'architectureDiagrams[2].name'],
      ['error', Code.InvalidValue, 14, 'databases[0].engine'],
      ['error', Code.SchemaExtensionMismatch, 18, 'databases[1].schemaPath'],
      ['error', Code.InvalidPath, 21, 'apiSpecs[0].path'],
      ['error', Code.InvalidValue, 22, 'apiSpecs[0].format'],
      ['error', Code.InvalidType, 23, 'docs'],
      ['warning', Code.UnknownKey, 24, 'flow'],
    ]);
  });

  it('gives hints for near-miss keys and values, and names the first line of a duplicate', () => {
    const { problems } = parseServiceConfig(
      ['version: 1', 'service: {name: a}', 'flows:', '  - name: f', '    path: f.mmd', '    notespath: f.md', '  - name: f', '    path: g.mmd', 'databases:', '  - {name: d, engine: Postgres, schemaPath: d.sql}', ''].join('\n'),
      'svc/.service.yaml',
    );
    expect(problems.find((problem) => problem.code === Code.UnknownKey)).toMatchObject({ hint: 'Did you mean "notesPath"?', file: 'svc/.service.yaml', line: 6 });
    expect(problems.find((problem) => problem.code === Code.DuplicateName)?.message).toContain('(first on line 4)');
    expect(problems.find((problem) => problem.code === Code.InvalidValue)).toMatchObject({ hint: 'Did you mean "postgres"?', line: 10 });
  });

  it('requires version and service', () => {
    expect(problemsOf('flows: []\n')).toEqual([
      ['error', Code.MissingField, 1, 'version'],
      ['error', Code.MissingField, 1, 'service'],
      ['warning', Code.NoArtifacts, 1, undefined],
    ]);
  });

  it('refuses a file that is not a mapping, or empty', () => {
    expect(problemsOf('- a\n- b\n').map(([, code]) => code)).toEqual([Code.NotAMapping]);
    expect(parseServiceConfig('', '.service.yaml').problems[0]).toMatchObject({ code: Code.NotAMapping, message: '.service.yaml is empty.' });
  });

  it('reports YAML syntax errors (including duplicate keys) with their line', () => {
    expect(problemsOf('version: 1\nservice:\n  name: a\n  name: b\n')).toEqual([['error', Code.YamlSyntaxError, 4, undefined]]);
    const [problem] = parseServiceConfig('version: 1\nservice: [a\n', '.service.yaml').problems;
    expect(problem.code).toBe(Code.YamlSyntaxError);
    expect(problem.message).toMatch(/^\.service\.yaml is not valid YAML/);
  });

  it('still plans the valid entries of an invalid config so their files can be checked', () => {
    const result = parseServiceConfig(['version: 3', 'service: {name: a}', 'flows:', '  - {name: ok, path: ok.mmd}', '  - {name: bad, path: /abs.mmd}', ''].join('\n'), '.service.yaml');
    expect(result.config).toBeUndefined();
    expect(result.artifacts.map((artifact) => artifact.name)).toEqual(['ok']);
  });

  it('limits the description and repository URL and refuses characters no database can store', () => {
    const text = ['version: 1', 'service:', '  name: orders', `  description: "${'x'.repeat(2001)}"`, '  repositoryUrl: "https://git.example/a\\0b"'].join('\n');
    expect(problemsOf(text)).toEqual([
      ['warning', Code.NoArtifacts, 1, undefined],
      ['error', Code.TextTooLong, 4, 'service.description'],
      ['error', Code.UnstorableCharacter, 5, 'service.repositoryUrl'],
    ]);
    expect(parseServiceConfig(text, '.service.yaml').problems[1].message).toBe('service.description: It is 2001 characters long; at most 2000 are allowed.');
    expect(problemsOf(['version: 1', 'service:', '  name: orders', `  description: "${'x'.repeat(2000)}"`, 'docs: [{name: a, path: a.md}]'].join('\n'))).toEqual([]);
  });

  it('reads strict: true, and refuses a strict that is not a boolean with its line', () => {
    const strict = parseServiceConfig('version: 1\nservice:\n  name: payments\nsummaryPath: s.md\nstrict: true\n', '.service.yaml');
    expect(strict.problems).toEqual([]);
    expect(strict.config?.strict).toBe(true);
    const wrong = parseServiceConfig('version: 1\nservice:\n  name: payments\nsummaryPath: s.md\nstrict: "yes"\n', '.service.yaml');
    expect(wrong.config).toBeUndefined();
    expect(wrong.problems).toEqual([expect.objectContaining({ severity: 'error', code: 'invalid_type', path: 'strict', line: 5, message: 'strict must be true or false, not the string "yes".' })]);
  });

  it('normalizes paths that stay inside', () => {
    const result = parseServiceConfig('version: 1\nservice: {name: a}\nsummaryPath: ./docs/../.service//summary.md\n', '.service.yaml');
    expect(result.problems).toEqual([]);
    expect(result.config?.summaryPath).toBe('.service/summary.md');
  });

  it('validates an already-parsed value (the server path) without line numbers', () => {
    const result = validateServiceConfig({ version: 1, service: { name: 'a' }, docs: [{ name: 'd', path: 'd.md', extra: true }] }, { file: 'bundle' });
    expect(result.problems).toEqual([expect.objectContaining({ severity: 'warning', code: Code.UnknownKey, path: 'docs[0].extra' })]);
    expect(result.problems[0].line).toBeUndefined();
    expect(result.config?.docs).toEqual([{ name: 'd', path: 'd.md' }]);
  });
});

describe('normalizeRepositoryPath', () => {
  it.each([
    ['a/b.mmd', 'a/b.mmd'],
    ['./a//b.mmd', 'a/b.mmd'],
    ['a/../b.mmd', 'b.mmd'],
    ['.service/diagrams/./x.mmd', '.service/diagrams/x.mmd'],
  ])('%s → %s', (input, expected) => {
    expect(normalizeRepositoryPath(input)).toEqual({ ok: true, path: expected });
  });

  it.each([
    ['', 'empty'],
    ['.', 'empty'],
    ['..', 'escapes'],
    ['../x', 'escapes'],
    ['a/../../x', 'escapes'],
    ['/etc/passwd', 'absolute'],
    ['C:/x', 'absolute'],
    ['c:\\x', 'absolute'],
    ['\\\\server\\share', 'absolute'],
    ['a\\b', 'backslash'],
    ['a\u0000b', 'control_character'],
  ])('refuses %j (%s)', (input, reason) => {
    const result = normalizeRepositoryPath(input);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.problem.reason).toBe(reason);
  });

  it('recognizes normalized bundle paths', () => {
    expect(isNormalizedRepositoryPath('.service/a.mmd')).toBe(true);
    expect(isNormalizedRepositoryPath('./a.mmd')).toBe(false);
    expect(isNormalizedRepositoryPath('../a.mmd')).toBe(false);
  });
});

describe('nameProblem', () => {
  it('accepts URL-safe names and refuses others', () => {
    expect(nameProblem('payments-api_v2.1')).toBeUndefined();
    expect(nameProblem('')).toMatch(/empty/);
    expect(nameProblem('-lead')).toMatch(/not a valid name/);
    expect(nameProblem('a/b')).toMatch(/not a valid name/);
    expect(nameProblem('x'.repeat(101))).toMatch(/at most 100/);
  });
});

describe('parseYamlWithLines', () => {
  it('locates keys in block and flow style, nested lists and mappings', () => {
    const parsed = parseYamlWithLines(['a:', '  b:', '    - x: 1', '', '    - {y: 2, z: [3, 4]}', 'c: 5', ''].join('\n'), 'f.yaml');
    if (!parsed.ok) throw new Error(parsed.message);
    const { lineOf } = parsed.document;
    expect(lineOf(['a'])).toBe(1);
    expect(lineOf(['a', 'b'])).toBe(2);
    expect(lineOf(['a', 'b', 0, 'x'])).toBe(3);
    expect(lineOf(['a', 'b', 1, 'z'])).toBe(5);
    expect(lineOf(['c'])).toBe(6);
    // Unknown paths fall back to the deepest known prefix.
    expect(lineOf(['a', 'b', 7])).toBe(2);
  });
});
