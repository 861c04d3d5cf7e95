import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
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

  async insert(provider: SsoProvider): Promise<void> {
    await this.dataSource.manager.insert(SsoProvider, provider);
  }

  async save(provider: SsoProvider): Promise<void> {
    await this.dataSource.manager.save(SsoProvider, provider);
  }

  async delete(id: string): Promise<void> {
    await this.dataSource.manager.delete(SsoProvider, { id });
  }
}
