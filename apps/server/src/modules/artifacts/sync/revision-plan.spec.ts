// @sc/contracts carries class-transformer decorators, which need the metadata polyfill the server's main.ts loads.
import 'reflect-metadata';
import type { SyncArtifact } from '@sc/contracts';
import { sha256Hex } from '../../../common/crypto/tokens';
import { artifactFingerprint, planRevision } from './revision-plan';

function artifact(name: string, content: string, extra: Partial<SyncArtifact> = {}): SyncArtifact {
  return { kind: 'doc', name, file: { path: `docs/${name}.md`, content, sha256: sha256Hex(content) }, ...extra };
}
const withFingerprint = (a: SyncArtifact) => ({ kind: a.kind, name: a.name, fingerprint: artifactFingerprint(a) });

describe('artifactFingerprint', () => {
  it('changes with the content, the path, a companion file and the engine, and ignores hash letter case', () => {
    const base = artifact('guide', '# Guide');
    const fingerprint = artifactFingerprint(base);
    expect(artifactFingerprint({ ...base, file: { ...base.file, sha256: base.file.sha256.toUpperCase() } })).toBe(fingerprint);
    expect(artifactFingerprint(artifact('guide', '# Guide!'))).not.toBe(fingerprint);
    expect(artifactFingerprint({ ...base, file: { ...base.file, path: 'docs/other.md' } })).not.toBe(fingerprint);
    expect(artifactFingerprint({ ...base, notes: { path: 'n.md', content: '', sha256: sha256Hex('') } })).not.toBe(fingerprint);
    expect(artifactFingerprint({ ...base, kind: 'database-schema', engine: 'mysql' })).not.toBe(
      artifactFingerprint({ ...base, kind: 'database-schema', engine: 'sqlite' }),
    );
  });
});

describe('planRevision', () => {
  const current = [artifact('a', 'A'), artifact('b', 'B'), artifact('c', 'C')].map(withFingerprint);

  it('finds no change when the same set arrives in another order', () => {
    const plan = planRevision(current, [artifact('c', 'C'), artifact('a', 'A'), artifact('b', 'B')].map(withFingerprint));
    expect(plan.changed).toBe(false);
    expect(plan.unchanged.map((ref) => ref.name)).toEqual(['c', 'a', 'b']);
  });

  it('sorts incoming artifacts into created, updated and unchanged, and lists the missing ones as removed', () => {
    const plan = planRevision(current, [artifact('a', 'A'), artifact('b', 'B2'), artifact('d', 'D')].map(withFingerprint));
    expect(plan.changed).toBe(true);
    expect(plan.created.map((ref) => ref.name)).toEqual(['d']);
    expect(plan.updated.map((ref) => ref.name)).toEqual(['b']);
    expect(plan.unchanged.map((ref) => ref.name)).toEqual(['a']);
    expect(plan.removed.map((ref) => ref.name)).toEqual(['c']);
  });

  it('keeps artifacts of different kinds with the same name apart', () => {
    const flow = { kind: 'flow' as const, name: 'a', fingerprint: 'x' };
    const plan = planRevision(current, [...current, flow]);
    expect(plan.created).toEqual([flow]);
    expect(plan.unchanged).toHaveLength(3);
  });

  it('treats an empty bundle as removing everything', () => {
    const plan = planRevision(current, []);
    expect(plan.removed).toHaveLength(3);
    expect(plan.changed).toBe(true);
  });
});
