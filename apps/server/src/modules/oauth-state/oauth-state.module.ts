import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { OAuthState } from './oauth-state.entity';
import { OAuthStateRepository } from './oauth-state.repository';
import { OAuthStateService } from './oauth-state.service';

/** The one-time OAuth state store of SSO sign-in (issue at login start, atomic consumption at callback). */
@Module({
  imports: [TypeOrmModule.forFeature([OAuthState])],
  providers: [OAuthStateRepository, OAuthStateService],
  exports: [OAuthStateService],
})
export class OAuthStateModule {}
