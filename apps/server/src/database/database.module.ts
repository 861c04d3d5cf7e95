import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import type { DataSourceOptions } from 'typeorm';
import { AppConfig } from '../config/app-config';
import { buildDataSourceOptions, openDataSource } from './data-source-options';

@Module({
  imports: [
    TypeOrmModule.forRootAsync({
      inject: [AppConfig],
      useFactory: async (config: AppConfig) => ({ ...(await buildDataSourceOptions(config.database)), autoLoadEntities: true, retryAttempts: 0 }),
      dataSourceFactory: (options) => openDataSource(options as DataSourceOptions),
    }),
  ],
})
export class DatabaseModule {}
