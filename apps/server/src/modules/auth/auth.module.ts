import { Global, Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { MembersModule } from '../members/members.module';
import { SessionsModule } from '../sessions/sessions.module';
import { TokensModule } from '../tokens/tokens.module';
import { UsersModule } from '../users/users.module';
import { AuthFailureLimiter } from './auth-failure-limit';
import { AuthController } from './auth.controller';
import { AuthGuard } from './auth.guard';

/**
 * Registers the global AuthGuard and re-exports what other modules need to sign users in
 * (SessionsService, MembersService, UsersService).
 */
@Global()
@Module({
  imports: [SessionsModule, TokensModule, UsersModule, MembersModule],
  controllers: [AuthController],
  providers: [AuthFailureLimiter, { provide: APP_GUARD, useClass: AuthGuard }],
  exports: [SessionsModule, UsersModule, MembersModule],
})
export class AuthModule {}
