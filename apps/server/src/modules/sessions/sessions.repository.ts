import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { Session } from './session.entity';

@Injectable()
export class SessionsRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  findByTokenHash(tokenHash: string): Promise<Session | null> {
    return this.dataSource.manager.findOneBy(Session, { tokenHash });
  }

  async insert(session: Session, manager: EntityManager = this.dataSource.manager): Promise<void> {
    await manager.insert(Session, session);
  }

  async touch(id: string, lastSeenAt: Date, idleExpiresAt: Date): Promise<void> {
    await this.dataSource.manager.update(Session, { id }, { lastSeenAt, idleExpiresAt });
  }

  async deleteById(id: string): Promise<void> {
    await this.dataSource.manager.delete(Session, { id });
  }

  async deleteForMember(organizationId: string, userId: string, manager: EntityManager = this.dataSource.manager): Promise<void> {
    await manager.delete(Session, { organizationId, userId });
  }

  async deleteExpired(now: Date): Promise<number> {
    const result = await this.dataSource.manager
      .createQueryBuilder()
      .delete()
      .from(Session)
      .where('idle_expires_at <= :now OR absolute_expires_at <= :now', { now })
      .execute();
    return result.affected ?? 0;
  }
}
