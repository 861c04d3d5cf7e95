import { Module } from '@nestjs/common';
import { MembersModule } from '../members/members.module';
import { OrganizationsModule } from '../organizations/organizations.module';
import { SessionsModule } from '../sessions/sessions.module';
import { UsersModule } from '../users/users.module';
import { MeController } from './me.controller';
import { MeService } from './me.service';

@Module({
  imports: [OrganizationsModule, UsersModule, MembersModule, SessionsModule],
  controllers: [MeController],
  providers: [MeService],
})
export class MeModule {}
