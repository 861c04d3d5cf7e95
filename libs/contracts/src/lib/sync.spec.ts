import { createHash } from 'node:crypto';
import { servicePageUrl, syncBundleDigest, type SyncDigestInput } from './sync';

const sha256Hex = (text: string): string => createHash('sha256').update(text, 'utf8').digest('hex');
const hash = (char: string): string => char.repeat(64);

function bundle(): SyncDigestInput {
  return {
    service: { name: 'billing', description: 'Invoices', repositoryUrl: 'https://git.example.com/acme/billing.git' },
    artifacts: [
      { kind: 'architecture-diagram', name: 'topology', file: { path: 'd/topology.mmd', sha256: hash('a') }, context: { path: 'd/topology.json', sha256: hash('b') } },
      { kind: 'database-schema', name: 'main', engine: 'postgres', file: { path: 's/main.sql', sha256: hash('c') }, notes: { path: 's/main.md', sha256: hash('d') } },
      { kind: 'api-spec', name: 'public', format: 'openapi', file: { path: 'api.yaml', sha256: hash('e') } },
    ],
  };
}

describe('syncBundleDigest', () => {
  it('is a SHA-256 hex that ignores artifact order and the case of the file hashes', () => {
    const digest = syncBundleDigest(bundle(), sha256Hex);
    expect(digest).toMatch(/^[0-9a-f]{64}$/);
    const reordered = bundle();
    reordered.artifacts = [...reordered.artifacts].reverse().map((artifact) => ({ ...artifact, file: { ...artifact.file, sha256: artifact.file.sha256.toUpperCase() } }));
    expect(syncBundleDigest(reordered, sha256Hex)).toBe(digest);
  });

  it('ignores file contents that travel with a full bundle (the SHA-256 stands for them)', () => {
    const withContent = bundle();
    const [first, ...rest] = withContent.artifacts;
    withContent.artifacts = [{ ...first, file: { ...first.file, content: 'flowchart LR' } as typeof first.file }, ...rest];
    expect(syncBundleDigest(withContent, sha256Hex)).toBe(syncBundleDigest(bundle(), sha256Hex));
  });

  const changes: Array<[string, (input: SyncDigestInput) => void]> = [
    ['a file hash', (input) => ((input.artifacts[0].file as { sha256: string }).sha256 = hash('f'))],
    ['a file path', (input) => ((input.artifacts[0].file as { path: string }).path = 'd/other.mmd')],
    ['a context hash', (input) => ((input.artifacts[0].context as { sha256: string }).sha256 = hash('f'))],
    ['a dropped context', (input) => (input.artifacts = [{ ...input.artifacts[0], context: undefined }, ...input.artifacts.slice(1)])],
    ['a notes path', (input) => ((input.artifacts[1].notes as { path: string }).path = 's/other.md')],
    ['an artifact name', (input) => (input.artifacts = [{ ...input.artifacts[0], name: 'renamed' }, ...input.artifacts.slice(1)])],
    ['an artifact kind', (input) => (input.artifacts = [{ ...input.artifacts[0], kind: 'flow' }, ...input.artifacts.slice(1)])],
    ['an engine', (input) => (input.artifacts = [input.artifacts[0], { ...input.artifacts[1], engine: 'mysql' }, input.artifacts[2]])],
    ['a format', (input) => (input.artifacts = [...input.artifacts.slice(0, 2), { ...input.artifacts[2], format: 'asyncapi' }])],
    ['a removed artifact', (input) => (input.artifacts = input.artifacts.slice(1))],
    ['the service name', (input) => (input.service.name = 'billing-2')],
    ['the description', (input) => (input.service.description = 'Invoices and refunds')],
    ['a description becoming empty', (input) => (input.service.description = '')],
    ['the repository URL', (input) => delete input.service.repositoryUrl],
    ['strict mode', (input) => (input.strict = true)],
  ];
  it.each(changes)('changes with %s', (_label, change) => {
    const changed = bundle();
    change(changed);
    expect(syncBundleDigest(changed, sha256Hex)).not.toBe(syncBundleDigest(bundle(), sha256Hex));
  });

  it('is unchanged by strict: false, so lenient bundles keep the digests they had', () => {
    expect(syncBundleDigest({ ...bundle(), strict: false }, sha256Hex)).toBe(syncBundleDigest(bundle(), sha256Hex));
  });

  it('cannot be confused by field values that contain the separators of the canonical form', () => {
    const a = bundle();
    a.service = { name: 'x","y', description: 'z' };
    const b = bundle();
    b.service = { name: 'x', description: 'y","z' };
    expect(syncBundleDigest(a, sha256Hex)).not.toBe(syncBundleDigest(b, sha256Hex));
  });
});

describe('servicePageUrl', () => {
  it('joins the public URL and the admin route, without a double slash, escaping what a path segment cannot hold', () => {
    expect(servicePageUrl('https://context.example.com', 'acme', 'payments')).toBe('https://context.example.com/orgs/acme/services/payments');
    expect(servicePageUrl('https://example.com/context/', 'acme', 'a b/c')).toBe('https://example.com/context/orgs/acme/services/a%20b%2Fc');
  });
});
