import { Injectable } from '@nestjs/common';
import { ScimToken } from './scim.entities';
import { TransactionalRepository } from '../../database/unit-of-work';

@Injectable()
export class ScimTokensRepository extends TransactionalRepository {
  findByHash(tokenHash: string): Promise<ScimToken | null> {
    return this.manager.findOneBy(ScimToken, { tokenHash });
  }

  findInOrganization(organizationId: string, id: string): Promise<ScimToken | null> {
    return this.manager.findOneBy(ScimToken, { organizationId, id });
  }

  /** Newest first; an organization has a handful (one per identity provider). */
  listForOrganization(organizationId: string): Promise<ScimToken[]> {
    return this.manager.find(ScimToken, { where: { organizationId }, order: { createdAt: 'DESC', id: 'DESC' } });
  }

  async insert(token: ScimToken): Promise<void> {
    await this.manager.insert(ScimToken, token);
  }

  async revoke(id: string, revokedAt: Date): Promise<void> {
    await this.manager.createQueryBuilder().update(ScimToken).set({ revokedAt }).where('id = :id AND revoked_at IS NULL', { id }).execute();
  }

  /** Records use at most once per interval (the condition keeps concurrent requests from writing twice). */
  async touch(id: string, usedAt: Date, notBefore: Date): Promise<void> {
    await this.manager
      .createQueryBuilder()
      .update(ScimToken)
      .set({ lastUsedAt: usedAt })
      .where('id = :id AND (last_used_at IS NULL OR last_used_at < :notBefore)', { id, notBefore })
      .execute();
  }
}
