// @sc/contracts carries class-transformer decorators, which need the metadata polyfill the server's main.ts loads.
import 'reflect-metadata';
import type { SyncArtifact, SyncBundle } from '@sc/contracts';
import { DomainError } from '../../../common/errors/domain-error';
import { sha256Hex } from '../../../common/crypto/tokens';
import { checkBundleRules, enforceLimits, parseBundleShape } from './bundle-checks';

const file = (path: string, content: string) => ({ path, content, sha256: sha256Hex(content) });
const doc = (name: string, content = `# ${name}`): SyncArtifact => ({ kind: 'doc', name, file: file(`docs/${name}.md`, content) });
const bundleOf = (artifacts: SyncArtifact[]): SyncBundle => ({ version: 1, service: { name: 'orders' }, artifacts });
const limits = { maxFileBytes: 100, maxSchemaBytes: 200, maxSyncBytes: 250, maxArtifacts: 3 };

function thrown(action: () => void): DomainError {
  try {
    action();
  } catch (error) {
    expect(error).toBeInstanceOf(DomainError);
    return error as DomainError;
  }
  throw new Error('expected a DomainError');
}

describe('parseBundleShape', () => {
  it('accepts a well-formed bundle', () => {
    expect(parseBundleShape(bundleOf([doc('a')]))).toEqual({ ok: true, bundle: bundleOf([doc('a')]) });
  });

  it('lists every shape problem with its JSON path', () => {
    const result = parseBundleShape({
      version: 2,
      service: { name: 7, repositoryUrl: 1 },
      artifacts: [{ kind: 'picture', name: 'x', file: { path: 'a', content: 1 } }, 'nope', { kind: 'doc', name: 'd', file: file('d', ''), notes: null, engine: 'oracle' }],
    });
    expect(result.ok).toBe(false);
    expect(!result.ok && result.details.map((detail) => detail.path)).toEqual([
      '$.version',
      '$.service.name',
      '$.service.repositoryUrl',
      '$.artifacts[0].kind',
      '$.artifacts[0].file.content',
      '$.artifacts[0].file.sha256',
      '$.artifacts[1]',
      '$.artifacts[2].notes',
      '$.artifacts[2].engine',
    ]);
  });

  it('refuses an unstorable character in every string but file contents, property names included, by JSON path', () => {
    const withNul = { ...doc('a', 'line\u0000'), name: 'a\u0000', ['extra\u0000']: 1 };
    const result = parseBundleShape({ ...bundleOf([withNul as SyncArtifact]), service: { name: 'or\ud800ders' } });
    expect(!result.ok && result.details).toEqual([
      { path: '$.service.name', message: expect.stringContaining('unpaired UTF-16 surrogate') },
      { path: '$.artifacts[0].name', message: expect.stringContaining('NUL') },
      { path: '$.artifacts[0].extra\u0000', message: expect.stringContaining('NUL') },
    ]);
  });
});

describe('enforceLimits', () => {
  it('passes a bundle at the limits', () => {
    expect(() => enforceLimits(bundleOf([doc('a', 'x'.repeat(100)), doc('b', 'x'.repeat(100)), doc('c', 'x'.repeat(50))]), limits)).not.toThrow();
  });

  it('names the artifact-count limit', () => {
    const error = thrown(() => enforceLimits(bundleOf([doc('a'), doc('b'), doc('c'), doc('d')]), limits));
    expect([error.status, error.code]).toEqual([413, 'sync_too_many_artifacts']);
    expect(error.message).toContain('SERVICE_SYNC_MAX_ARTIFACTS');
  });

  it('names every file over the per-file limit, counting UTF-8 bytes rather than characters', () => {
    const error = thrown(() => enforceLimits(bundleOf([doc('a', 'é'.repeat(51)), doc('b'), doc('c', 'x'.repeat(101))]), limits));
    expect([error.status, error.code]).toEqual([413, 'sync_file_too_large']);
    expect(error.details.map((detail) => [detail.file, detail.actual])).toEqual([['docs/a.md', 102], ['docs/c.md', 101]]);
  });

  it('lets a database schema file grow to SERVICE_SYNC_MAX_SCHEMA_BYTES; its notes keep the per-file limit', () => {
    const schema = (content: string, notes = ''): SyncArtifact => ({ kind: 'database-schema', name: 'db', engine: 'postgres', file: file('db.sql', content), ...(notes ? { notes: file('db.md', notes) } : {}) });
    expect(() => enforceLimits(bundleOf([schema('x'.repeat(200))]), limits)).not.toThrow();
    const error = thrown(() => enforceLimits(bundleOf([schema('x'.repeat(201), 'y'.repeat(101))]), { ...limits, maxSyncBytes: 1000 }));
    expect(error.message).toBe('2 file(s) exceed their size limit (SERVICE_SYNC_MAX_SCHEMA_BYTES, SERVICE_SYNC_MAX_FILE_BYTES).');
    expect(error.details.map((detail) => [detail.file, detail.limit, detail.max])).toEqual([['db.sql', 'SERVICE_SYNC_MAX_SCHEMA_BYTES', 200], ['db.md', 'SERVICE_SYNC_MAX_FILE_BYTES', 100]]);
  });

  it('names the per-sync limit when the files add up to more', () => {
    const error = thrown(() => enforceLimits(bundleOf([doc('a', 'x'.repeat(100)), doc('b', 'x'.repeat(100)), doc('c', 'x'.repeat(51))]), limits));
    expect([error.status, error.code]).toEqual([413, 'sync_too_large']);
    expect(error.message).toContain('251 bytes');
  });
});

describe('checkBundleRules', () => {
  it('finds nothing wrong with a valid bundle', () => {
    const schema: SyncArtifact = { kind: 'database-schema', name: 'main', engine: 'postgres', file: file('s/main.sql', ''), notes: file('s/main.md', '') };
    expect(checkBundleRules(bundleOf([doc('a'), schema]))).toEqual([]);
  });

  it('reports every rule broken, each tied to its artifact and file', () => {
    const tampered = doc('tampered');
    tampered.file.content += ' (edited after hashing)';
    const problems = checkBundleRules({
      version: 1,
      service: { name: '../evil' },
      artifacts: [
        doc('twice'),
        doc('twice'),
        tampered,
        { kind: 'doc', name: 'escape', file: file('../secrets.md', '') },
        { kind: 'database-schema', name: 'db', file: file('s/db.sql', '') },
        { kind: 'database-schema', name: 'docs-db', engine: 'mongodb', file: file('s/docs.sql', '') },
        { kind: 'api-spec', name: 'api', file: file('api.yaml', '') },
        { kind: 'service-summary', name: 'summary', file: file('s.md', '') },
        { kind: 'service-summary', name: 'summary-2', file: file('s2.md', '') },
        { kind: 'flow', name: 'f', file: file('f.mmd', ''), context: file('f.json', '{}') },
        { kind: 'doc', name: 'bad name!', file: file('x.md', '') },
      ],
    });
    expect(problems.map((problem) => [problem.code, problem.artifact?.name ?? null, problem.file ?? null])).toEqual([
      ['invalid_name', null, null],
      ['duplicate_name', 'twice', null],
      ['sha256_mismatch', 'tampered', 'docs/tampered.md'],
      ['invalid_path', 'escape', '../secrets.md'],
      ['missing_engine', 'db', null],
      ['schema_extension_mismatch', 'docs-db', 's/docs.sql'],
      ['missing_format', 'api', null],
      ['duplicate_artifact', 'summary-2', null],
      ['unexpected_field', 'f', 'f.json'],
      ['invalid_name', 'bad name!', null],
    ]);
  });

  it('refuses text no database can store and descriptions over the limit, with where they are', () => {
    const problems = checkBundleRules({
      version: 1,
      service: { name: 'orders', description: 'x'.repeat(2001), repositoryUrl: 'https://git.example/\u0000' },
      artifacts: [doc('nul', '# Title\nstep\u0000\n'), doc('surrogate', 'a\ud800'), { kind: 'doc', name: 'path', file: file('docs/\udc00.md', '') }],
    });
    expect(problems).toEqual([
      expect.objectContaining({ code: 'text_too_long', path: '$.service.description', message: expect.stringContaining('at most 2000') }),
      expect.objectContaining({ code: 'unstorable_character', path: '$.service.repositoryUrl', message: expect.stringContaining('NUL') }),
      expect.objectContaining({ code: 'unstorable_character', artifact: { kind: 'doc', name: 'nul' }, file: 'docs/nul.md', line: 2, column: 5 }),
      expect.objectContaining({ code: 'unstorable_character', artifact: { kind: 'doc', name: 'surrogate' }, file: 'docs/surrogate.md', line: 1, column: 2 }),
      expect.objectContaining({ code: 'unstorable_character', artifact: { kind: 'doc', name: 'path' }, file: 'docs/\udc00.md' }),
    ]);
  });
});
