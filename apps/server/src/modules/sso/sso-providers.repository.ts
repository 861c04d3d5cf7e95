import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { SsoProvider } from './entities/sso-provider.entity';

@Injectable()
export class SsoProvidersRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  list(organizationId: string): Promise<SsoProvider[]> {
    return this.dataSource.manager.find(SsoProvider, { where: { organizationId }, order: { displayName: 'ASC', slug: 'ASC' } });
  }

  listEnabled(organizationId: string): Promise<SsoProvider[]> {
    return this.dataSource.manager.find(SsoProvider, { where: { organizationId, enabled: true }, order: { displayName: 'ASC', slug: 'ASC' } });
  }

  findBySlug(organizationId: string, slug: string): Promise<SsoProvider | null> {
    return this.dataSource.manager.findOneBy(SsoProvider, { organizationId, slug });
  }

  async insert(provider: SsoProvider, manager: EntityManager = this.dataSource.manager): Promise<void> {
    await manager.insert(SsoProvider, provider);
  }

  async save(provider: SsoProvider, manager: EntityManager = this.dataSource.manager): Promise<void> {
    await manager.save(SsoProvider, provider);
  }

  async delete(id: string, manager: EntityManager = this.dataSource.manager): Promise<void> {
    await manager.delete(SsoProvider, { id });
  }
}
