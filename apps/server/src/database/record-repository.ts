import type { EntityTarget, FindOptionsWhere, ObjectLiteral, SelectQueryBuilder } from 'typeorm';
import type { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity';
import type { HashedTokenRecord } from './columns';
import { TransactionalRepository } from './unit-of-work';

/**
 * Repository bases for the queries several tables ask the same way, so that a repository states only its own.
 * A subclass names its entity (`protected readonly entity = ApiToken;`); Nest injects it as any repository.
 */

/** A position in a keyset-paged list: the row's time and id. */
export interface KeysetPosition {
  at: Date;
  id: string;
}

export interface KeysetPage {
  /** The time column (snake_case) the list is ordered by; the id breaks ties. */
  time: string;
  timeOrder: 'ASC' | 'DESC';
  idOrder?: 'ASC' | 'DESC';
  /** Undefined: the whole list. */
  limit?: number;
  /** Only the rows after this position in the list's order. */
  after?: KeysetPosition;
}

/**
 * Orders `query` (whose entity is `alias`) by (time, id) and keeps at most `limit` rows after the position `after`.
 * With both columns in one direction the position compares as a row, which the (organization_id, time, id) indexes
 * serve; mixed directions need the spelled-out comparison.
 */
export function keysetPage<T extends ObjectLiteral>(query: SelectQueryBuilder<T>, alias: string, { time, timeOrder, idOrder = timeOrder, limit, after }: KeysetPage): SelectQueryBuilder<T> {
  const at = `${alias}.${time}`;
  const id = `${alias}.id`;
  query.orderBy(at, timeOrder).addOrderBy(id, idOrder);
  if (limit !== undefined) query.take(limit);
  if (after) {
    const atOp = timeOrder === 'DESC' ? '<' : '>';
    const idOp = idOrder === 'DESC' ? '<' : '>';
    const condition = atOp === idOp ? `(${at}, ${id}) ${atOp} (:afterAt, :afterId)` : `(${at} ${atOp} :afterAt OR (${at} = :afterAt AND ${id} ${idOp} :afterId))`;
    query.andWhere(condition, { afterAt: after.at, afterId: after.id });
  }
  return query;
}

/** Rows written whole and found by their id. */
export abstract class RecordRepository<T extends { id: string }> extends TransactionalRepository {
  protected abstract readonly entity: EntityTarget<T>;

  async insert(row: T): Promise<void> {
    await this.manager.insert(this.entity, row as QueryDeepPartialEntity<T>);
  }
}

/** Rows that change afterwards: only the `Editable` columns, by id; and are deleted by id. */
export abstract class EditableRecordRepository<T extends { id: string }, Editable extends keyof T> extends RecordRepository<T> {
  async update(id: string, changes: Partial<Pick<T, Editable>>): Promise<void> {
    await this.manager.update(this.entity, { id } as FindOptionsWhere<T>, changes as QueryDeepPartialEntity<T>);
  }

  async delete(id: string): Promise<void> {
    await this.manager.delete(this.entity, { id } as FindOptionsWhere<T>);
  }
}

/** The lookups of the bearer secrets (HashedTokenRecord): by hash, revocation, last use, newest-first pages. */
export abstract class HashedTokenRepository<T extends HashedTokenRecord> extends RecordRepository<T> {
  /** Revoked and expired ones too: the caller tells them apart (and answers each its own way). */
  findByHash(tokenHash: string): Promise<T | null> {
    return this.manager.findOneBy(this.entity, { tokenHash } as FindOptionsWhere<T>);
  }

  findInOrganization(organizationId: string, id: string): Promise<T | null> {
    return this.manager.findOneBy(this.entity, { organizationId, id } as FindOptionsWhere<T>);
  }

  /** Only an unrevoked one: the first revocation's time stays. */
  async revoke(id: string, revokedAt: Date): Promise<void> {
    await this.manager.createQueryBuilder().update(this.entity).set(this.tokenColumns({ revokedAt })).where('id = :id AND revoked_at IS NULL', { id }).execute();
  }

  /** Records use, skipping the write when the stored time is newer than `notBefore` (throttles writes across instances). */
  async touch(id: string, usedAt: Date, notBefore: Date): Promise<void> {
    await this.manager
      .createQueryBuilder()
      .update(this.entity)
      .set(this.tokenColumns({ lastUsedAt: usedAt }))
      .where('id = :id AND (last_used_at IS NULL OR last_used_at < :notBefore)', { id, notBefore })
      .execute();
  }

  /** TypeORM's deep-partial type of a generic entity is not built from its base's columns; these are HashedTokenRecord's. */
  private tokenColumns(values: Partial<HashedTokenRecord>): QueryDeepPartialEntity<T> {
    return values as unknown as QueryDeepPartialEntity<T>;
  }

  /** The organization's, newest first (id breaks ties), at most `limit`, only those before the (createdAt, id) position `before`. */
  protected newestFirst(alias: string, organizationId: string, { limit, before }: { limit: number; before?: KeysetPosition }): SelectQueryBuilder<T> {
    const query = this.manager.createQueryBuilder(this.entity, alias).where(`${alias}.organization_id = :organizationId`, { organizationId });
    return keysetPage(query, alias, { time: 'created_at', timeOrder: 'DESC', limit, after: before });
  }
}
