import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { APP_ENV } from '../../config/app-config';
import type { Env } from '../../config/env';
import { AuditModule } from '../audit/audit.module';
import { OrganizationsModule } from '../organizations/organizations.module';
import { SsoModule } from '../sso/sso.module';
import { DnsTxtLookup } from './dns-txt';
import { DomainRecheckJob } from './domain-recheck.job';
import { DomainsConfig } from './domains.config';
import { DomainsController } from './domains.controller';
import { DomainsRepository } from './domains.repository';
import { DomainsService } from './domains.service';
import { VerifiedDomain } from './verified-domain.entity';

/** Verified email domains and sign-in by work email (README.md). */
@Module({
  imports: [TypeOrmModule.forFeature([VerifiedDomain]), AuditModule, OrganizationsModule, SsoModule],
  controllers: [DomainsController],
  providers: [{ provide: DomainsConfig, inject: [APP_ENV], useFactory: (env: Env) => DomainsConfig.fromEnv(env) }, DomainsRepository, DnsTxtLookup, DomainsService, DomainRecheckJob],
  exports: [DomainsService],
})
export class DomainsModule {}
