import { Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import type { SetupRequest, SetupResponse } from '@sc/contracts';
import { Clock } from '../../common/clock';
import { randomToken, safeEqual } from '../../common/crypto/tokens';
import { AppConfig } from '../../config/app-config';
import type { AuditActorInput } from '../audit/audit.service';
import { MembersService } from '../members/members.service';
import { OrganizationsService, toOrganizationResponse } from '../organizations/organizations.service';
import { SessionsService, type StartedSession } from '../sessions/sessions.service';
import { TokensService } from '../tokens/tokens.service';
import { displayNameOf } from '../users/users.service';
import { UsersService } from '../users/users.service';
import { SetupErrorCode, setupError } from './setup.errors';
import { SetupRepository } from './setup.repository';
import { UnitOfWork } from '../../database/unit-of-work';

const GENERATED_TOKEN_TTL_MS = 60 * 60 * 1000;

interface SetupToken {
  value: string;
  /** null for SERVICE_SETUP_TOKEN: the operator controls it. */
  expiresAt: Date | null;
}

/**
 * First run: while no organization exists, a generated setup token is printed at boot (the one place a token
 * is logged, on purpose: it is how the operator gets in); a token from SERVICE_SETUP_TOKEN is never printed. POST /setup with it creates the first
 * organization and its owner.
 */
@Injectable()
export class SetupService implements OnApplicationBootstrap {
  private readonly logger = new Logger('Setup');
  private setupToken: SetupToken | null = null;

  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly config: AppConfig,
    private readonly clock: Clock,
    private readonly setupLock: SetupRepository,
    private readonly organizations: OrganizationsService,
    private readonly users: UsersService,
    private readonly members: MembersService,
    private readonly tokens: TokensService,
    private readonly sessions: SessionsService,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    if (await this.organizations.anyExists()) return;
    if (this.config.setupToken) {
      // The operator chose this token and already has it; printing it would only copy a secret into the logs.
      this.setupToken = { value: this.config.setupToken, expiresAt: null };
      this.logger.log(`First run: waiting for setup. Open ${this.config.publicUrl}/setup and enter the token configured in SERVICE_SETUP_TOKEN to create the first organization.`);
      return;
    }
    this.setupToken = { value: randomToken(24), expiresAt: new Date(this.clock.now().getTime() + GENERATED_TOKEN_TTL_MS) };
    this.logger.log(
      `First run: open ${this.config.publicUrl}/setup?token=${encodeURIComponent(this.setupToken.value)} to create the first organization (valid until ${this.setupToken.expiresAt?.toISOString()}).`,
    );
  }

  async isRequired(): Promise<boolean> {
    return !(await this.organizations.anyExists());
  }

  /** Creates the first organization, its owner and an admin token; returns them and the owner's new session. */
  async run(input: SetupRequest, clientAddress: string | null): Promise<{ response: SetupResponse; session: StartedSession }> {
    if (!(await this.isRequired())) throw this.alreadyDone();
    const result = await this.unitOfWork.run(async () => {
      // Two concurrent setups: the second waits here, then sees the first one's organization. The token is checked
      // only under the lock: the winner forgets it, and a loser checking it earlier would be told its token is wrong.
      await this.setupLock.lockSetup();
      if (await this.organizations.anyExists()) throw this.alreadyDone();
      this.checkToken(input.token);
      const { user } = await this.users.findOrCreate({ email: input.owner.email, displayName: input.owner.name });
      // The audit log names the first owner, acting through setup; the setup token is the proof.
      const actor: AuditActorInput = { kind: 'setup', userId: user.id, clientAddress };
      const organization = await this.organizations.create(input.organization, actor);
      await this.members.addOwner(organization.id, user, actor);
      const apiToken = await this.tokens.create({ organizationId: organization.id, name: 'Setup admin token', scopes: ['admin'], actor });
      return { organization, user, apiToken };
    });
    this.setupToken = null;
    this.logger.log(`Setup done: organization "${result.organization.id}" created.`);
    const session = await this.sessions.startSession({ userId: result.user.id, organizationId: result.organization.id });
    return {
      response: {
        organization: toOrganizationResponse(result.organization),
        user: { id: result.user.id, email: result.user.email, displayName: displayNameOf(result.user) },
        apiToken: result.apiToken,
      },
      session,
    };
  }

  private checkToken(candidate: string): void {
    const token = this.setupToken;
    const valid = token !== null && safeEqual(candidate, token.value) && (token.expiresAt === null || token.expiresAt > this.clock.now());
    if (!valid) {
      throw setupError(SetupErrorCode.TokenInvalid, 'The setup token is wrong or has expired; use the setup URL printed in the server log (restart the server to print a new one).');
    }
  }

  private alreadyDone() {
    return setupError(SetupErrorCode.AlreadyDone, 'Setup was already completed: an organization exists. Sign in instead.');
  }
}
