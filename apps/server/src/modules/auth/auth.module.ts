import { Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { MembersModule } from '../members/members.module';
import { SessionsModule } from '../sessions/sessions.module';
import { TokensModule } from '../tokens/tokens.module';
import { AuthFailureLimiter } from './auth-failure-limit';
import { AuthController } from './auth.controller';
import { AuthGuard } from './auth.guard';

/**
 * Registers the global AuthGuard (it enforces the rules modules/access declares) and sign-out. Exports nothing:
 * a module that needs sessions, members or users imports their module itself.
 */
@Module({
  imports: [SessionsModule, TokensModule, MembersModule],
  controllers: [AuthController],
  providers: [AuthFailureLimiter, { provide: APP_GUARD, useClass: AuthGuard }],
})
export class AuthModule {}
