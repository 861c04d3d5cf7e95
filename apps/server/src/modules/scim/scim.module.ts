import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AuditModule } from '../audit/audit.module';
import { AuthModule } from '../auth/auth.module';
import { MembersModule } from '../members/members.module';
import { SsoModule } from '../sso/sso.module';
import { UsersModule } from '../users/users.module';
import { ScimController } from './scim.controller';
import { ScimGroup, ScimToken, ScimUser } from './scim.entities';
import { ScimGroupsService } from './scim-groups.service';
import { ScimResourcesRepository } from './scim-resources.repository';
import { ScimRolesService } from './scim-roles.service';
import { ScimTokensController } from './scim-tokens.controller';
import { ScimTokensRepository } from './scim-tokens.repository';
import { ScimTokensService } from './scim-tokens.service';
import { ScimUsersService } from './scim-users.service';
import { ScimTokenGuard } from './scim-http';

/** SCIM 2.0 provisioning (README.md): the SCIM routes of each organization and the owners' SCIM token API. */
@Module({
  imports: [TypeOrmModule.forFeature([ScimToken, ScimUser, ScimGroup]), MembersModule, UsersModule, AuditModule, SsoModule, AuthModule],
  controllers: [ScimController, ScimTokensController],
  providers: [ScimTokensRepository, ScimResourcesRepository, ScimTokensService, ScimRolesService, ScimUsersService, ScimGroupsService, ScimTokenGuard],
})
export class ScimModule {}
