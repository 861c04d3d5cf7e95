import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { Session } from './session.entity';
import { SessionCookies } from './session-cookies';
import { SessionsRepository } from './sessions.repository';
import { SessionsService } from './sessions.service';

@Module({
  imports: [TypeOrmModule.forFeature([Session])],
  providers: [SessionsRepository, SessionsService, SessionCookies],
  exports: [SessionsService, SessionCookies],
})
export class SessionsModule {}
