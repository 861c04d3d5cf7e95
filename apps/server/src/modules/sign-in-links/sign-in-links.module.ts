import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AuditModule } from '../audit/audit.module';
import { MembersModule } from '../members/members.module';
import { OrganizationsModule } from '../organizations/organizations.module';
import { SessionsModule } from '../sessions/sessions.module';
import { UsersModule } from '../users/users.module';
import { SignInLink } from './sign-in-link.entity';
import { SignInLinksController } from './sign-in-links.controller';
import { SignInLinksRepository } from './sign-in-links.repository';
import { SignInLinksService } from './sign-in-links.service';

@Module({
  imports: [TypeOrmModule.forFeature([SignInLink]), MembersModule, OrganizationsModule, UsersModule, SessionsModule, AuditModule],
  controllers: [SignInLinksController],
  providers: [SignInLinksRepository, SignInLinksService],
})
export class SignInLinksModule {}
