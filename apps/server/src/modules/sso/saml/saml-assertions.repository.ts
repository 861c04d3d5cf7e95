import { Injectable } from '@nestjs/common';
import { TransactionalRepository } from '../../../database/unit-of-work';

export interface AcceptedAssertion {
  organizationId: string;
  providerId: string;
  assertionIdHash: string;
  now: Date;
  expiresAt: Date;
}

/** The IDs of SAML assertions already accepted (hashed), kept until the assertion could no longer pass anyway. */
@Injectable()
export class SamlAssertionsRepository extends TransactionalRepository {
  /**
   * Records an assertion ID; false when this provider already accepted it. One INSERT … ON CONFLICT DO NOTHING: of
   * concurrent posts of one assertion, the primary key lets exactly one through.
   */
  async accept(assertion: AcceptedAssertion): Promise<boolean> {
    const rows = (await this.manager.query(
      `INSERT INTO saml_assertions (provider_id, assertion_id_hash, organization_id, created_at, expires_at)
       VALUES ($1, $2, $3, $4, $5) ON CONFLICT DO NOTHING RETURNING provider_id`,
      [assertion.providerId, assertion.assertionIdHash, assertion.organizationId, assertion.now, assertion.expiresAt],
    )) as unknown[];
    return rows.length === 1;
  }

  async deleteExpiredBefore(moment: Date): Promise<void> {
    await this.manager.query(`DELETE FROM saml_assertions WHERE expires_at < $1`, [moment]);
  }
}
