import { Injectable } from '@nestjs/common';
import { SsoIdentity } from './entities/sso-identity.entity';
import { TransactionalRepository } from '../../database/unit-of-work';

@Injectable()
export class SsoIdentitiesRepository extends TransactionalRepository {
  findBySubject(providerId: string, subject: string): Promise<SsoIdentity | null> {
    return this.manager.findOneBy(SsoIdentity, { providerId, subject });
  }

  findByUser(providerId: string, userId: string): Promise<SsoIdentity | null> {
    return this.manager.findOneBy(SsoIdentity, { providerId, userId });
  }

  async insert(identity: SsoIdentity): Promise<void> {
    await this.manager.insert(SsoIdentity, identity);
  }

  async touch(id: string, changes: Pick<SsoIdentity, 'email' | 'lastLoginAt'>): Promise<void> {
    await this.manager.update(SsoIdentity, { id }, changes);
  }
}
