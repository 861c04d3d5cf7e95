import { Injectable } from '@nestjs/common';
import { OAuthState } from './oauth-state.entity';
import { TransactionalRepository } from '../../database/unit-of-work';

export interface ConsumeConditions {
  stateHash: string;
  organizationId: string;
  providerId: string;
  bindingHash: string;
  now: Date;
}

@Injectable()
export class OAuthStateRepository extends TransactionalRepository {
  async insert(state: OAuthState): Promise<void> {
    await this.manager.insert(OAuthState, state);
  }

  /**
   * Marks the state consumed and returns it, in one conditional UPDATE … RETURNING: of any number of
   * concurrent callbacks carrying the same state, the database lets exactly one row update through.
   * Every condition is part of the WHERE clause, so a callback for another organization or provider, or
   * from another browser, leaves the state usable by its rightful callback.
   */
  async consume(conditions: ConsumeConditions): Promise<OAuthState | null> {
    const result = await this.manager
      .createQueryBuilder()
      .update(OAuthState)
      .set({ consumedAt: conditions.now })
      .where('state_hash = :stateHash', { stateHash: conditions.stateHash })
      .andWhere('organization_id = :organizationId', { organizationId: conditions.organizationId })
      .andWhere('provider_id = :providerId', { providerId: conditions.providerId })
      .andWhere('binding_hash = :bindingHash', { bindingHash: conditions.bindingHash })
      .andWhere('consumed_at IS NULL')
      .andWhere('expires_at > :now', { now: conditions.now })
      .returning('*')
      .execute();
    const rows = result.raw as Record<string, unknown>[];
    return rows.length === 1 ? this.fromRaw(rows[0]) : null;
  }

  findByHash(stateHash: string): Promise<OAuthState | null> {
    return this.manager.findOneBy(OAuthState, { stateHash });
  }

  /** States stay a day after expiry so replays can be told apart from unknown states in the audit log. */
  async deleteExpiredBefore(cutoff: Date): Promise<void> {
    await this.manager.createQueryBuilder().delete().from(OAuthState).where('expires_at < :cutoff', { cutoff }).execute();
  }

  private fromRaw(row: Record<string, unknown>): OAuthState {
    const state = new OAuthState();
    state.id = row['id'] as string;
    state.stateHash = row['state_hash'] as string;
    state.organizationId = row['organization_id'] as string;
    state.providerId = row['provider_id'] as string;
    state.purpose = row['purpose'] as OAuthState['purpose'];
    state.nonce = row['nonce'] as string;
    state.codeVerifierSealed = row['code_verifier_sealed'] as string;
    state.redirectPath = row['redirect_path'] as string;
    state.bindingHash = row['binding_hash'] as string;
    state.initiatedByUserId = (row['initiated_by_user_id'] as string | null) ?? null;
    state.createdAt = new Date(row['created_at'] as string);
    state.expiresAt = new Date(row['expires_at'] as string);
    state.consumedAt = row['consumed_at'] ? new Date(row['consumed_at'] as string) : null;
    return state;
  }
}
