import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { Organization } from './organization.entity';

@Injectable()
export class OrganizationsRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  findById(id: string, manager: EntityManager = this.dataSource.manager): Promise<Organization | null> {
    return manager.findOneBy(Organization, { id });
  }

  async anyExists(manager: EntityManager = this.dataSource.manager): Promise<boolean> {
    return (await manager.createQueryBuilder(Organization, 'o').select('1').limit(1).getRawOne()) !== undefined;
  }

  async insert(organization: Organization, manager: EntityManager = this.dataSource.manager): Promise<void> {
    await manager.insert(Organization, organization);
  }
}
