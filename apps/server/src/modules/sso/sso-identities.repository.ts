import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { SsoIdentity } from './entities/sso-identity.entity';

@Injectable()
export class SsoIdentitiesRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  findBySubject(providerId: string, subject: string, manager: EntityManager = this.dataSource.manager): Promise<SsoIdentity | null> {
    return manager.findOneBy(SsoIdentity, { providerId, subject });
  }

  findByUser(providerId: string, userId: string, manager: EntityManager = this.dataSource.manager): Promise<SsoIdentity | null> {
    return manager.findOneBy(SsoIdentity, { providerId, userId });
  }

  async insert(identity: SsoIdentity, manager: EntityManager): Promise<void> {
    await manager.insert(SsoIdentity, identity);
  }

  async touch(id: string, changes: Pick<SsoIdentity, 'email' | 'lastLoginAt'>, manager: EntityManager): Promise<void> {
    await manager.update(SsoIdentity, { id }, changes);
  }
}
