import { randomBytes } from 'node:crypto';
import { Clock } from '../../common/clock';
import { DomainError } from '../../common/errors/domain-error';
import { SecretBox } from '../../common/crypto/secret-box';
import type { AppConfig } from '../../config/app-config';
import { OAuthState } from './oauth-state.entity';
import { ConsumeConditions, OAuthStateRepository } from './oauth-state.repository';
import { OAuthStateService } from './oauth-state.service';

/** The repository's contract in memory; the atomic SQL itself is proven by the integration tests. */
class MemoryStates {
  readonly rows: OAuthState[] = [];
  async insert(state: OAuthState) {
    this.rows.push({ ...state });
  }
  async consume(c: ConsumeConditions) {
    const row = this.rows.find((r) => r.stateHash === c.stateHash && r.organizationId === c.organizationId && r.providerId === c.providerId && r.bindingHash === c.bindingHash && !r.consumedAt && r.expiresAt > c.now);
    if (!row) return null;
    row.consumedAt = c.now;
    return { ...row };
  }
  async findByHash(hash: string) {
    return this.rows.find((r) => r.stateHash === hash) ?? null;
  }
  async deleteExpiredBefore(cutoff: Date) {
    for (let i = this.rows.length - 1; i >= 0; i--) if (this.rows[i].expiresAt < cutoff) this.rows.splice(i, 1);
  }
}

class FixedClock extends Clock {
  at = new Date('2026-01-01T10:00:00Z');
  now() {
    return this.at;
  }
}

describe('OAuthStateService', () => {
  const clock = new FixedClock();
  const repo = new MemoryStates();
  const box = new SecretBox({ secretKey: randomBytes(32) } as AppConfig);
  const service = new OAuthStateService(repo as unknown as OAuthStateRepository, clock, box);
  const input = { organizationId: 'acme', providerId: 'p1', purpose: 'login' as const, nonce: 'n', codeVerifier: 'verifier-123', redirectPath: '/orgs/acme', bindingValue: 'binding-1', initiatedByUserId: null };

  async function refusal(promise: Promise<unknown>): Promise<string | undefined> {
    try {
      await promise;
    } catch (error) {
      expect(error).toBeInstanceOf(DomainError);
      expect((error as DomainError).code).toBe('invalid_or_expired_state');
      return (error as DomainError).details[0]?.code;
    }
    throw new Error('expected a refusal');
  }

  it('stores only hashes and the sealed verifier, and gives the verifier back once', async () => {
    const { state, expiresAt } = await service.issue(input);
    expect(expiresAt.getTime() - clock.at.getTime()).toBe(600_000);
    const stored = JSON.stringify(repo.rows);
    expect(stored).not.toContain(state);
    expect(stored).not.toContain('binding-1');
    expect(stored).not.toContain('verifier-123');
    const consumed = await service.consume({ state, organizationId: 'acme', providerId: 'p1', bindingValue: 'binding-1' });
    expect(consumed).toMatchObject({ codeVerifier: 'verifier-123', nonce: 'n', redirectPath: '/orgs/acme', purpose: 'login' });
    expect(await refusal(service.consume({ state, organizationId: 'acme', providerId: 'p1', bindingValue: 'binding-1' }))).toBe('consumed');
    // A reload after the callback cleared the binding cookie: still "already used", not "another browser".
    expect(await refusal(service.consume({ state, organizationId: 'acme', providerId: 'p1', bindingValue: undefined }))).toBe('consumed');
  });

  it('explains each refusal and leaves the state usable when the caller is wrong', async () => {
    const { state } = await service.issue(input);
    expect(await refusal(service.consume({ state: undefined, organizationId: 'acme', providerId: 'p1', bindingValue: 'binding-1' }))).toBe('missing');
    expect(await refusal(service.consume({ state, organizationId: 'acme', providerId: 'p1', bindingValue: undefined }))).toBe('binding_missing');
    expect(await refusal(service.consume({ state, organizationId: 'acme', providerId: 'p1', bindingValue: 'other' }))).toBe('binding_mismatch');
    expect(await refusal(service.consume({ state, organizationId: 'globex', providerId: 'p1', bindingValue: 'binding-1' }))).toBe('other_organization');
    expect(await refusal(service.consume({ state, organizationId: 'acme', providerId: 'p2', bindingValue: 'binding-1' }))).toBe('other_provider');
    expect(await refusal(service.consume({ state: 'made-up', organizationId: 'acme', providerId: 'p1', bindingValue: 'binding-1' }))).toBe('unknown');
    await expect(service.consume({ state, organizationId: 'acme', providerId: 'p1', bindingValue: 'binding-1' })).resolves.toMatchObject({ organizationId: 'acme' });
  });

  it('refuses a state once 10 minutes have passed', async () => {
    const { state } = await service.issue(input);
    clock.at = new Date(clock.at.getTime() + 600_000);
    expect(await refusal(service.consume({ state, organizationId: 'acme', providerId: 'p1', bindingValue: 'binding-1' }))).toBe('expired');
    expect(await refusal(service.consume({ state, organizationId: 'acme', providerId: 'p1', bindingValue: undefined }))).toBe('expired');
  });
});
