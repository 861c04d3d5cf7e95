import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import type { SignInLinkPreviewResponse, SignInLinkResponse } from '@sc/contracts';
import { Clock } from '../../common/clock';
import { randomToken, sha256Hex } from '../../common/crypto/tokens';
import { AppConfig } from '../../config/app-config';
import { AuditService, accountableUserId, type AuditActorInput } from '../audit/audit.service';
import { SignInLinksErrorCode, signInLinksError } from './sign-in-links.errors';
import { MembersService } from '../members/members.service';
import { OrganizationsService } from '../organizations/organizations.service';
import { SessionsService, type StartedSession } from '../sessions/sessions.service';
import type { User } from '../users/user.entity';
import { UsersService } from '../users/users.service';
import { SignInLink } from './sign-in-link.entity';
import { SignInLinksRepository } from './sign-in-links.repository';
import { UnitOfWork } from '../../database/unit-of-work';

const LINK_TTL_MS = 15 * 60 * 1000;

const invalidLink = () => signInLinksError(SignInLinksErrorCode.Invalid, 'This sign-in link is invalid, expired or was already used; ask an owner for a new one.');
const ssoRequired = () =>
  signInLinksError(
    SignInLinksErrorCode.SsoRequired,
    'This organization requires single sign-on: sign in with one of its identity providers. Sign-in links work only for owners, minted with the sign-in-link command on the server host.',
  );
const accountDisabled = () => signInLinksError(SignInLinksErrorCode.AccountDisabled, 'Your account or your membership in this organization is disabled or was removed.');

@Injectable()
export class SignInLinksService {
  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly links: SignInLinksRepository,
    private readonly audit: AuditService,
    private readonly members: MembersService,
    private readonly users: UsersService,
    private readonly organizations: OrganizationsService,
    private readonly sessions: SessionsService,
    private readonly config: AppConfig,
    private readonly clock: Clock,
  ) {}

  /** Mints a single-use link, valid 15 minutes, that signs `userId` in to the organization. */
  async mint(organizationId: string, userId: string, actor: AuditActorInput, breakGlass = false): Promise<SignInLinkResponse> {
    if (!breakGlass && (await this.organizations.requiresSso(organizationId))) throw ssoRequired();
    const user = await this.requireActiveMember(organizationId, userId, () => signInLinksError(SignInLinksErrorCode.MemberNotFound, 'No active member with this id in this organization.'));
    const now = this.clock.now();
    const token = randomToken(32);
    const link = Object.assign(new SignInLink(), {
      id: randomUUID(),
      tokenHash: sha256Hex(token),
      organizationId,
      userId,
      createdByUserId: accountableUserId(actor),
      createdAt: now,
      expiresAt: new Date(now.getTime() + LINK_TTL_MS),
      usedAt: null,
      breakGlass,
    });
    await this.unitOfWork.run(async () => {
      await this.links.insert(link);
      // Who may sign in as whom is the record; the link itself (a bearer secret) never is.
      await this.audit.record(
        { organizationId, actor, action: 'sign_in_link.created', target: { type: 'sign_in_link', id: link.id, label: user.email }, after: { userId, expiresAt: link.expiresAt.toISOString() } }
      );
    });
    // The token rides in the fragment: browsers never send it to a server (no access logs, no Referer), and
    // the admin page only redeems it on an explicit click, so link-preview bots cannot use it up.
    return { url: `${this.config.publicUrl}/sign-in-link#${token}`, expiresAt: link.expiresAt.toISOString() };
  }

  /**
   * Break-glass on the server host (`sign-in-link` command): a link for an active owner of the organization,
   * found by email, for when no owner can sign in any more (no SSO yet, the last session ended).
   */
  async mintForOwner(organizationId: string, email: string): Promise<SignInLinkResponse> {
    if (!(await this.organizations.find(organizationId))) {
      throw signInLinksError(SignInLinksErrorCode.OrganizationNotFound, `No organization "${organizationId}" exists on this server.`);
    }
    const user = await this.users.findByEmail(email);
    const member = user ? await this.members.activeMember(organizationId, user.id) : null;
    if (!user || member?.role !== 'owner') {
      throw signInLinksError(SignInLinksErrorCode.MemberNotFound, `${email} is not an active owner of "${organizationId}"; the link is only for owners (check the address, or whether the membership was disabled).`);
    }
    // Nobody signed in: the operator on the server host acts, answerable as the owner the link is for.
    return this.mint(organizationId, user.id, { kind: 'host', userId: user.id, clientAddress: null }, true);
  }

  /** Who and where a usable link signs in, for the confirmation page; the link stays unused. */
  async preview(token: string): Promise<SignInLinkPreviewResponse> {
    const link = await this.links.findUsable(sha256Hex(token), this.clock.now());
    if (!link) throw invalidLink();
    await this.requireActiveMember(link.organizationId, link.userId, accountDisabled);
    await this.requireAllowedUnderSso(link);
    const [organization, user] = await Promise.all([this.organizations.find(link.organizationId), this.users.findById(link.userId)]);
    if (!organization || !user) throw invalidLink();
    return { organization: { id: organization.id, name: organization.name }, email: user.email, expiresAt: link.expiresAt.toISOString() };
  }

  /** Redeems a link: starts a session in its organization; returns it and where to send the browser. */
  async redeem(token: string, currentSession: string | undefined): Promise<{ redirect: string; session: StartedSession }> {
    const link = await this.links.consume(sha256Hex(token), this.clock.now());
    if (!link) throw invalidLink();
    await this.requireActiveMember(link.organizationId, link.userId, accountDisabled);
    await this.requireAllowedUnderSso(link);
    const session = await this.sessions.startSession({ userId: link.userId, organizationId: link.organizationId, replacing: currentSession });
    return { redirect: `/orgs/${encodeURIComponent(link.organizationId)}`, session };
  }

  /** Under Require SSO only a break-glass link of a (still) active owner signs in; any other link minted before is refused. */
  private async requireAllowedUnderSso(link: Pick<SignInLink, 'organizationId' | 'userId' | 'breakGlass'>): Promise<void> {
    if (!(await this.organizations.requiresSso(link.organizationId))) return;
    const member = await this.members.activeMember(link.organizationId, link.userId);
    if (!link.breakGlass || member?.role !== 'owner') throw ssoRequired();
  }

  private async requireActiveMember(organizationId: string, userId: string, refusal: () => Error): Promise<User> {
    const member = await this.members.activeMember(organizationId, userId);
    if (!member) throw refusal();
    return member.user;
  }
}
