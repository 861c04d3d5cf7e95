import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { UsersModule } from '../users/users.module';
import { AuditEvent } from './audit-event.entity';
import { AuditController } from './audit.controller';
import { AuditRepository } from './audit.repository';
import { AuditService } from './audit.service';
import { RevocationService } from './revocation';

/**
 * The organization audit log (members, roles, API tokens, SSO providers, the organization, sign-in links).
 * Other modules record changes through AuditService, inside their transaction.
 */
@Module({
  imports: [TypeOrmModule.forFeature([AuditEvent]), UsersModule],
  controllers: [AuditController],
  providers: [AuditRepository, AuditService, RevocationService],
  exports: [AuditService, RevocationService],
})
export class AuditModule {}
