import { Module } from '@nestjs/common';
import { OrganizationsModule } from '../organizations/organizations.module';
import { SessionsModule } from '../sessions/sessions.module';
import { UsersModule } from '../users/users.module';
import { MeController } from './me.controller';
import { MeService } from './me.service';

@Module({
  imports: [OrganizationsModule, UsersModule, SessionsModule],
  controllers: [MeController],
  providers: [MeService],
})
export class MeModule {}
