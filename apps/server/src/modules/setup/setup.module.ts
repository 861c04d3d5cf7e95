import { Module } from '@nestjs/common';
import { MembersModule } from '../members/members.module';
import { OrganizationsModule } from '../organizations/organizations.module';
import { SessionsModule } from '../sessions/sessions.module';
import { TokensModule } from '../tokens/tokens.module';
import { UsersModule } from '../users/users.module';
import { SetupController } from './setup.controller';
import { SetupRepository } from './setup.repository';
import { SetupService } from './setup.service';

@Module({
  imports: [OrganizationsModule, UsersModule, MembersModule, TokensModule, SessionsModule],
  controllers: [SetupController],
  providers: [SetupRepository, SetupService],
})
export class SetupModule {}
