import { Injectable } from '@nestjs/common';
import { Organization } from './organization.entity';
import { TransactionalRepository } from '../../database/unit-of-work';

@Injectable()
export class OrganizationsRepository extends TransactionalRepository {
  findById(id: string): Promise<Organization | null> {
    return this.manager.findOneBy(Organization, { id });
  }

  async anyExists(): Promise<boolean> {
    return (await this.manager.createQueryBuilder(Organization, 'o').select('1').limit(1).getRawOne()) !== undefined;
  }

  async setRequireSso(id: string, requireSso: boolean): Promise<void> {
    await this.manager.update(Organization, { id }, { requireSso });
  }

  async insert(organization: Organization): Promise<void> {
    await this.manager.insert(Organization, organization);
  }
}
