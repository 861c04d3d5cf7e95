import { Injectable } from '@nestjs/common';
import { TransactionalRepository } from '../../database/unit-of-work';

/** Arbitrary constant naming the transaction-scoped advisory lock that serializes setup attempts. */
const SETUP_LOCK_KEY = 727_274_001;

@Injectable()
export class SetupRepository extends TransactionalRepository {
  /** Waits until no other setup holds the lock; held until the current unit of work ends. */
  async lockSetup(): Promise<void> {
    await this.manager.query('SELECT pg_advisory_xact_lock($1)', [SETUP_LOCK_KEY]);
  }
}
