import { Injectable } from '@nestjs/common';
import { Session } from './session.entity';
import { TransactionalRepository } from '../../database/unit-of-work';

@Injectable()
export class SessionsRepository extends TransactionalRepository {
  findByTokenHash(tokenHash: string): Promise<Session | null> {
    return this.manager.findOneBy(Session, { tokenHash });
  }

  async insert(session: Session): Promise<void> {
    await this.manager.insert(Session, session);
  }

  async touch(id: string, lastSeenAt: Date, idleExpiresAt: Date): Promise<void> {
    await this.manager.update(Session, { id }, { lastSeenAt, idleExpiresAt });
  }

  async deleteById(id: string): Promise<void> {
    await this.manager.delete(Session, { id });
  }

  async deleteNotViaSso(organizationId: string): Promise<void> {
    await this.manager.delete(Session, { organizationId, viaSso: false });
  }

  findById(id: string): Promise<Session | null> {
    return this.manager.findOneBy(Session, { id });
  }

  async deleteForMember(organizationId: string, userId: string): Promise<void> {
    await this.manager.delete(Session, { organizationId, userId });
  }

  async deleteExpired(now: Date): Promise<number> {
    const result = await this.manager
      .createQueryBuilder()
      .delete()
      .from(Session)
      .where('idle_expires_at <= :now OR absolute_expires_at <= :now', { now })
      .execute();
    return result.affected ?? 0;
  }
}
