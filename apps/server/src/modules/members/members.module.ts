import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AuditModule } from '../audit/audit.module';
import { SessionsModule } from '../sessions/sessions.module';
import { TokensModule } from '../tokens/tokens.module';
import { UsersModule } from '../users/users.module';
import { Membership } from './membership.entity';
import { MembersController } from './members.controller';
import { MembersService } from './members.service';
import { MembershipsRepository } from './memberships.repository';

@Module({
  imports: [TypeOrmModule.forFeature([Membership]), UsersModule, SessionsModule, TokensModule, AuditModule],
  controllers: [MembersController],
  providers: [MembershipsRepository, MembersService],
  exports: [MembersService],
})
export class MembersModule {}
