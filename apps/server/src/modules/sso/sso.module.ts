import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { APP_ENV } from '../../config/app-config';
import type { Env } from '../../config/env';
import { AuditModule } from '../audit/audit.module';
import { MembersModule } from '../members/members.module';
import { OAuthStateModule } from '../oauth-state/oauth-state.module';
import { OrganizationsModule } from '../organizations/organizations.module';
import { SessionsModule } from '../sessions/sessions.module';
import { UsersModule } from '../users/users.module';
import { SsoAuditEvent } from './entities/sso-audit-event.entity';
import { SsoIdentity } from './entities/sso-identity.entity';
import { SsoProvider } from './entities/sso-provider.entity';
import { OrgSsoStrategy } from './passport/org-sso.strategy';
import { SsoAdminController } from './sso-admin.controller';
import { SsoAuditRepository } from './sso-audit.repository';
import { SsoBindingCookie } from './sso-binding-cookie';
import { SsoAuditService } from './sso-audit.service';
import { SsoAuthController } from './sso-auth.controller';
import { SsoConfig } from './sso.config';
import { SsoIdentitiesRepository } from './sso-identities.repository';
import { SsoIdentityLinker } from './sso-identity-linker';
import { SsoProvidersRepository } from './sso-providers.repository';
import { SsoProvidersService } from './sso-providers.service';
import { SsoSignInService } from './sso-sign-in.service';
import { SamlAuthController } from './saml-auth.controller';
import { SamlAssertionsRepository } from './saml/saml-assertions.repository';
import { SamlSignIn } from './saml/saml-sign-in';
import { SsoRequirementService } from './sso-requirement.service';

/**
 * Organization SSO: provider configuration (owner/admin), discovery, the public sign-in routes (login
 * start, callback with every rule), test sign-in and the sign-in audit log.
 */
@Module({
  imports: [TypeOrmModule.forFeature([SsoProvider, SsoIdentity, SsoAuditEvent]), OAuthStateModule, UsersModule, MembersModule, SessionsModule, OrganizationsModule, AuditModule],
  controllers: [SsoAdminController, SsoAuthController, SamlAuthController],
  providers: [
    { provide: SsoConfig, inject: [APP_ENV], useFactory: (env: Env) => SsoConfig.fromEnv(env) },
    SsoProvidersRepository,
    SsoIdentitiesRepository,
    SsoAuditRepository,
    SsoProvidersService,
    SsoAuditService,
    SsoIdentityLinker,
    SsoSignInService,
    SsoBindingCookie,
    OrgSsoStrategy,
    SamlAssertionsRepository,
    SamlSignIn,
    SsoRequirementService,
  ],
  // SCIM maps groups to roles with the providers' claim rules; sign-in by email lists enabled providers.
  exports: [SsoProvidersService],
})
export class SsoModule {}
