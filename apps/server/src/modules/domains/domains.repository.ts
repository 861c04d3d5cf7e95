import { Injectable } from '@nestjs/common';
import { EditableRecordRepository } from '../../database/record-repository';
import { VerifiedDomain } from './verified-domain.entity';

@Injectable()
export class DomainsRepository extends EditableRecordRepository<VerifiedDomain, 'state' | 'verifiedAt' | 'lastCheckedAt' | 'lastError'> {
  protected readonly entity = VerifiedDomain;

  list(organizationId: string): Promise<VerifiedDomain[]> {
    return this.manager.find(VerifiedDomain, { where: { organizationId }, order: { domain: 'ASC' } });
  }

  find(organizationId: string, id: string): Promise<VerifiedDomain | null> {
    return this.manager.findOneBy(VerifiedDomain, { organizationId, id });
  }

  findByDomain(organizationId: string, domain: string): Promise<VerifiedDomain | null> {
    return this.manager.findOneBy(VerifiedDomain, { organizationId, domain });
  }

  /** The organizations that verified exactly this domain. */
  async verifiedOrganizations(domain: string): Promise<string[]> {
    const rows = await this.manager.find(VerifiedDomain, { select: { organizationId: true }, where: { domain, state: 'verified' }, order: { organizationId: 'ASC' } });
    return rows.map((row) => row.organizationId);
  }

  /** Domains whose last check is older than `due` (or never ran), oldest first. */
  listDue(due: Date, limit: number): Promise<VerifiedDomain[]> {
    return this.manager
      .createQueryBuilder(VerifiedDomain, 'd')
      .where('d.last_checked_at IS NULL OR d.last_checked_at < :due', { due })
      .orderBy('d.last_checked_at', 'ASC', 'NULLS FIRST')
      .addOrderBy('d.id')
      .take(limit)
      .getMany();
  }

  /** Takes a due domain for one check: false when another instance already took it (its last_checked_at moved). */
  async claimCheck(id: string, due: Date, now: Date): Promise<boolean> {
    const result = await this.manager
      .createQueryBuilder()
      .update(VerifiedDomain)
      .set({ lastCheckedAt: now })
      .where('id = :id AND (last_checked_at IS NULL OR last_checked_at < :due)', { id, due })
      .execute();
    return (result.affected ?? 0) > 0;
  }
}
