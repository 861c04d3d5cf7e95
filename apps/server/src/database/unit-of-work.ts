import { Injectable } from '@nestjs/common';
import { TransactionHost } from '@nestjs-cls/transactional';
import type { TransactionalAdapterTypeOrm } from '@nestjs-cls/transactional-adapter-typeorm';
import type { EntityManager } from 'typeorm';

/**
 * The one way to run a unit of work (several writes that commit together or not at all). The current
 * transaction lives in an AsyncLocalStorage context (nestjs-cls): every repository call made while `run`'s
 * callback is pending joins it by itself, so no EntityManager is passed around and none can be forgotten
 * (on PGlite's single connection a forgotten one used to wait 30 s for the connection the transaction holds).
 * A `run` inside another `run` joins the outer transaction.
 */
@Injectable()
export class UnitOfWork {
  constructor(private readonly host: TransactionHost<TransactionalAdapterTypeOrm>) {}

  run<T>(work: () => Promise<T>): Promise<T> {
    return this.host.withTransaction(work);
  }
}

/**
 * Base of every repository: `manager` is the current unit of work's EntityManager, or the pool's outside one.
 * Repositories are the only classes that touch TypeORM; services call them and UnitOfWork.
 */
@Injectable()
export abstract class TransactionalRepository {
  constructor(private readonly transactionHost: TransactionHost<TransactionalAdapterTypeOrm>) {}

  protected get manager(): EntityManager {
    return this.transactionHost.tx;
  }
}
