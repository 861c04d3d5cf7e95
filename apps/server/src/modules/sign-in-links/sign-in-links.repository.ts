import { Injectable } from '@nestjs/common';
import { IsNull, MoreThan } from 'typeorm';
import { SignInLink } from './sign-in-link.entity';
import { TransactionalRepository } from '../../database/unit-of-work';

@Injectable()
export class SignInLinksRepository extends TransactionalRepository {
  async insert(link: SignInLink): Promise<void> {
    await this.manager.insert(SignInLink, link);
  }

  /** An unused, unexpired link, without using it up (for the confirmation page). */
  findUsable(tokenHash: string, now: Date): Promise<SignInLink | null> {
    return this.manager.findOneBy(SignInLink, { tokenHash, usedAt: IsNull(), expiresAt: MoreThan(now) });
  }

  /**
   * Marks an unused, unexpired link as used and returns it, in one statement: of two concurrent
   * redemptions only one gets the row back.
   */
  async consume(tokenHash: string, now: Date): Promise<Pick<SignInLink, 'organizationId' | 'userId' | 'breakGlass'> | null> {
    const rows: unknown = await this.manager.query(
      'UPDATE sign_in_links SET used_at = $2 WHERE token_hash = $1 AND used_at IS NULL AND expires_at > $2 RETURNING organization_id, user_id, break_glass',
      [tokenHash, now],
    );
    // pg answers UPDATE ... RETURNING with [rows, count]; both drivers go through TypeORM's postgres driver.
    const list = (Array.isArray(rows) && Array.isArray(rows[0]) ? rows[0] : rows) as { organization_id: string; user_id: string; break_glass: boolean }[];
    const row = list[0];
    return row ? { organizationId: row.organization_id, userId: row.user_id, breakGlass: row.break_glass } : null;
  }
}
