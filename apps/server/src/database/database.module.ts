import { Global, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ClsPluginTransactional } from '@nestjs-cls/transactional';
import { TransactionalAdapterTypeOrm } from '@nestjs-cls/transactional-adapter-typeorm';
import { ClsModule } from 'nestjs-cls';
import { DataSource, type DataSourceOptions } from 'typeorm';
import { AppConfig } from '../config/app-config';
import { CacheChanges } from './cache-changes';
import { buildDataSourceOptions, openDataSource } from './data-source-options';
import { UnitOfWork } from './unit-of-work';

/** The database connection, the unit of work (UnitOfWork, TransactionalRepository) every module uses, and CacheChanges. */
@Global()
@Module({
  imports: [
    TypeOrmModule.forRootAsync({
      inject: [AppConfig],
      useFactory: async (config: AppConfig) => ({ ...(await buildDataSourceOptions(config.database)), autoLoadEntities: true, retryAttempts: 0 }),
      dataSourceFactory: (options) => openDataSource(options as DataSourceOptions),
    }),
    // The transaction context: UnitOfWork.run opens it (no per-request middleware needed, commands and timers work too).
    ClsModule.forRoot({
      global: true,
      plugins: [new ClsPluginTransactional({ adapter: new TransactionalAdapterTypeOrm({ dataSourceToken: DataSource }) })],
    }),
  ],
  providers: [UnitOfWork, CacheChanges],
  exports: [UnitOfWork, CacheChanges],
})
export class DatabaseModule {}
