import { Injectable } from '@nestjs/common';
import { SsoProvider } from './entities/sso-provider.entity';
import { TransactionalRepository } from '../../database/unit-of-work';

@Injectable()
export class SsoProvidersRepository extends TransactionalRepository {
  list(organizationId: string): Promise<SsoProvider[]> {
    return this.manager.find(SsoProvider, { where: { organizationId }, order: { displayName: 'ASC', slug: 'ASC' } });
  }

  listEnabled(organizationId: string): Promise<SsoProvider[]> {
    return this.manager.find(SsoProvider, { where: { organizationId, enabled: true }, order: { displayName: 'ASC', slug: 'ASC' } });
  }

  findBySlug(organizationId: string, slug: string): Promise<SsoProvider | null> {
    return this.manager.findOneBy(SsoProvider, { organizationId, slug });
  }

  async insert(provider: SsoProvider): Promise<void> {
    await this.manager.insert(SsoProvider, provider);
  }

  async save(provider: SsoProvider): Promise<void> {
    await this.manager.save(SsoProvider, provider);
  }

  async recordTest(id: string, result: Pick<SsoProvider, 'lastTestAt' | 'lastTestOk' | 'lastTestErrorCode' | 'lastTestMessage'>): Promise<void> {
    await this.manager.update(SsoProvider, { id }, result);
  }

  async delete(id: string): Promise<void> {
    await this.manager.delete(SsoProvider, { id });
  }
}
