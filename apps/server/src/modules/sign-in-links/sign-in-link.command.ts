import { DynamicModule, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { TypeOrmModule } from '@nestjs/typeorm';
import { existsSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { CommonModule } from '../../common/common.module';
import { DomainError } from '../../common/errors/domain-error';
import { APP_ENV, AppConfig, ConfigError, loadAppConfig } from '../../config';
import type { Env } from '../../config/env';
import { DataDirInUseError } from '../../database/data-dir-lock';
import { DatabaseModule } from '../../database/database.module';
import { AuditModule } from '../audit/audit.module';
import { MembersModule } from '../members/members.module';
import { OrganizationsModule } from '../organizations/organizations.module';
import { SessionsModule } from '../sessions/sessions.module';
import { UsersModule } from '../users/users.module';
import { SignInLink } from './sign-in-link.entity';
import { SignInLinksRepository } from './sign-in-links.repository';
import { SignInLinksService } from './sign-in-links.service';

/** The first argument that selects this command instead of starting the server. */
export const SIGN_IN_LINK_COMMAND = 'sign-in-link';

/** Exit codes of `sign-in-link` (documented in README.md, "Break-glass sign-in link"). */
export enum SignInLinkExit {
  Printed = 0,
  Failed = 1,
  Usage = 2,
  Refused = 3,
  DataDirInUse = 4,
}

export interface CommandOutput {
  out(text: string): void;
  err(text: string): void;
}

const USAGE = `Usage: node dist/apps/server/apps/server/src/main.js ${SIGN_IN_LINK_COMMAND} --org <organization id> --email <owner email>
       npm run sign-in-link -- --org <organization id> --email <owner email>

Prints a one-time sign-in link (valid 15 minutes, single use) for an active owner of the organization.
Run it on the server host with the server's environment (DATABASE_URL or SERVICE_DATA_DIR, SERVICE_PUBLIC_URL,
SERVICE_SECRET_KEY). Exit codes: 0 printed, 1 failed, 2 usage, 3 refused (no such organization or not an
active owner), 4 the embedded database is in use by the running server.`;

/**
 * Only what minting a link needs: configuration, clock, database, the modules whose services it calls, and
 * the service with its own repository. SignInLinksModule itself is left out: its controller's rate-limit
 * guard and sign-in metrics belong to the HTTP side, which has no place in a command.
 */
@Module({})
class SignInLinkCommandModule {
  static forEnv(env: Env, config: AppConfig): DynamicModule {
    return {
      module: SignInLinkCommandModule,
      global: true,
      imports: [CommonModule, DatabaseModule, AuditModule, MembersModule, OrganizationsModule, UsersModule, SessionsModule, TypeOrmModule.forFeature([SignInLink])],
      providers: [{ provide: APP_ENV, useValue: env }, { provide: AppConfig, useValue: config }, SignInLinksService, SignInLinksRepository],
      exports: [APP_ENV, AppConfig],
    };
  }
}

/**
 * Break-glass for the server host: the first owner of an organization without SSO has no other way back in
 * once their session ends (sessions never move between organizations). Whoever can run this can read the
 * database anyway, so it adds no new power; it only refuses anyone who is not an active owner.
 */
export async function runSignInLinkCommand(args: string[], env: Env, output: CommandOutput): Promise<SignInLinkExit> {
  let org: string | undefined;
  let email: string | undefined;
  try {
    const { values } = parseArgs({ args, options: { org: { type: 'string' }, email: { type: 'string' }, help: { type: 'boolean', short: 'h' } }, strict: true });
    if (values.help) {
      output.out(`${USAGE}\n`);
      return SignInLinkExit.Printed;
    }
    ({ org, email } = values);
  } catch (error) {
    output.err(`${error instanceof Error ? error.message : String(error)}\n\n${USAGE}\n`);
    return SignInLinkExit.Usage;
  }
  if (!org || !email) {
    output.err(`Both --org and --email are required.\n\n${USAGE}\n`);
    return SignInLinkExit.Usage;
  }

  let config: AppConfig;
  try {
    config = loadAppConfig(env);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    output.err(`${error.message}\n`);
    return SignInLinkExit.Usage;
  }
  if (config.database.kind === 'pglite' && config.database.dataDir && !existsSync(config.database.dataDir)) {
    // Otherwise a run from the wrong directory would create an empty database and report no organization.
    output.err(`No embedded database at ${config.database.dataDir}: run the command in the server's working directory, or set SERVICE_DATA_DIR (or DATABASE_URL) as the server has it.\n`);
    return SignInLinkExit.Usage;
  }

  try {
    const context = await NestFactory.createApplicationContext(SignInLinkCommandModule.forEnv(env, config), { logger: ['error'], abortOnError: false });
    try {
      const link = await context.get(SignInLinksService).mintForOwner(org, email);
      output.err(`One-time sign-in link for ${email} in "${org}", single use, valid until ${link.expiresAt}:\n`);
      output.out(`${link.url}\n`);
      return SignInLinkExit.Printed;
    } finally {
      await context.close();
    }
  } catch (error) {
    if (error instanceof DomainError) {
      output.err(`${error.message}\n`);
      return SignInLinkExit.Refused;
    }
    if (error instanceof DataDirInUseError) {
      output.err(
        `The server (pid ${error.holderPid}) is running on this embedded database (${error.dir}), and only one process may open it.\n` +
          'Stop the server, run this command again, then start the server and open the link within 15 minutes.\n' +
          'With PostgreSQL (DATABASE_URL) the command works while the server runs.\n',
      );
      return SignInLinkExit.DataDirInUse;
    }
    output.err(`Could not create the sign-in link: ${error instanceof Error ? error.message : String(error)}\n`);
    return SignInLinkExit.Failed;
  }
}
