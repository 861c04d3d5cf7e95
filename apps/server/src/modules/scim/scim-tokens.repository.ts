import { Injectable } from '@nestjs/common';
import { ScimToken } from './scim.entities';
import { HashedTokenRepository } from '../../database/record-repository';

@Injectable()
export class ScimTokensRepository extends HashedTokenRepository<ScimToken> {
  protected readonly entity = ScimToken;

  /** Newest first; an organization has a handful (one per identity provider). */
  listForOrganization(organizationId: string): Promise<ScimToken[]> {
    return this.manager.find(ScimToken, { where: { organizationId }, order: { createdAt: 'DESC', id: 'DESC' } });
  }
}
