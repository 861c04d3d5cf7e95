import { Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { createHmac, randomUUID } from 'node:crypto';
import { Clock } from '../../common/clock';
import { randomToken, sha256Hex } from '../../common/crypto/tokens';
import { AppConfig } from '../../config/app-config';
import { Session } from './session.entity';
import { SessionsRepository } from './sessions.repository';

/** Idle expiry is pushed forward on use, but written at most once per this interval per session. */
const TOUCH_INTERVAL_MS = 60_000;
/** Expired rows are refused on lookup anyway; the sweep only keeps the table small. */
const SWEEP_INTERVAL_MS = 60 * 60 * 1000;

/** A session just stored: what the controller puts in the `sc_session` and `sc_csrf` cookies (SessionCookies.write). */
export interface StartedSession {
  sessionId: string;
  /** The raw `sc_session` cookie value; only its SHA-256 is stored. */
  cookieValue: string;
  csrfToken: string;
  expiresAt: Date;
}

export type SessionLookup = { status: 'valid'; session: Session } | { status: 'unknown' } | { status: 'expired' };

@Injectable()
export class SessionsService implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('Sessions');
  private sweepTimer: NodeJS.Timeout | undefined;

  constructor(
    private readonly sessions: SessionsRepository,
    private readonly config: AppConfig,
    private readonly clock: Clock,
  ) {}

  onApplicationBootstrap(): void {
    this.sweepTimer = setInterval(() => void this.sweepExpired(), SWEEP_INTERVAL_MS);
    this.sweepTimer.unref();
  }

  onApplicationShutdown(): void {
    clearInterval(this.sweepTimer);
  }

  /** Deletes sessions past their idle or absolute expiry. */
  async sweepExpired(): Promise<void> {
    try {
      await this.sessions.deleteExpired(this.clock.now());
    } catch (error) {
      this.logger.warn(`Could not delete expired sessions: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  /**
   * Signs the user in to one organization: stores a new session (hash only) and returns it; the controller
   * sets the `sc_session` (HttpOnly) and `sc_csrf` cookies from it (SessionCookies.write). Call after the user was authenticated *by this organization's
   * own means* (setup, its SSO callback, a sign-in link minted in it, creating it) and their membership
   * checked; never on the strength of a session of another organization. Does not end another session of
   * the request; pass `replacing` (the current raw cookie value) to rotate.
   */
  async startSession(input: { userId: string; organizationId: string; replacing?: string; viaSso?: boolean }): Promise<StartedSession> {
    if (input.replacing) await this.end(input.replacing);
    const now = this.clock.now();
    const rawToken = randomToken(32);
    const session = Object.assign(new Session(), {
      id: randomUUID(),
      tokenHash: sha256Hex(rawToken),
      userId: input.userId,
      organizationId: input.organizationId,
      createdAt: now,
      lastSeenAt: now,
      idleExpiresAt: new Date(now.getTime() + this.config.sessionIdleTtlMs),
      absoluteExpiresAt: new Date(now.getTime() + this.config.sessionAbsoluteTtlMs),
      viaSso: input.viaSso === true,
    });
    await this.sessions.insert(session);
    return { sessionId: session.id, cookieValue: rawToken, csrfToken: this.csrfTokenFor(session.id), expiresAt: session.absoluteExpiresAt };
  }

  /** Looks a cookie value up; an expired session is deleted; a valid one has its idle expiry extended. */
  async lookup(rawToken: string): Promise<SessionLookup> {
    const session = await this.sessions.findByTokenHash(sha256Hex(rawToken));
    if (!session) return { status: 'unknown' };
    const now = this.clock.now();
    if (session.idleExpiresAt <= now || session.absoluteExpiresAt <= now) {
      await this.sessions.deleteById(session.id);
      return { status: 'expired' };
    }
    if (now.getTime() - session.lastSeenAt.getTime() >= TOUCH_INTERVAL_MS) {
      session.lastSeenAt = now;
      session.idleExpiresAt = new Date(Math.min(now.getTime() + this.config.sessionIdleTtlMs, session.absoluteExpiresAt.getTime()));
      await this.sessions.touch(session.id, session.lastSeenAt, session.idleExpiresAt);
    }
    return { status: 'valid', session };
  }

  /**
   * Until when (clock ms) a lookup's answer may be reused without asking again (AuthCache): not past either expiry,
   * and not past the next due write of its idle expiry, so a session in use keeps being extended.
   */
  reusableUntil(session: Session): number {
    return Math.min(session.idleExpiresAt.getTime(), session.absoluteExpiresAt.getTime(), session.lastSeenAt.getTime() + TOUCH_INTERVAL_MS);
  }

  /** Deletes the session of this cookie value (if any). */
  async end(rawToken: string): Promise<void> {
    const session = await this.sessions.findByTokenHash(sha256Hex(rawToken));
    if (session) await this.sessions.deleteById(session.id);
  }

  /** Whether this session started with a sign-in through an SSO provider. */
  async startedViaSso(sessionId: string): Promise<boolean> {
    return (await this.sessions.findById(sessionId))?.viaSso === true;
  }

  /** Require SSO turned on: ends the organization's sessions that did not start through SSO (inside the caller's unit of work). */
  async endAllNotViaSso(organizationId: string): Promise<void> {
    await this.sessions.deleteNotViaSso(organizationId);
  }

  /** Deletes the session rows of a member (removed or disabled), inside the caller's unit of work. */
  async endAllOfMember(organizationId: string, userId: string): Promise<void> {
    await this.sessions.deleteForMember(organizationId, userId);
  }

  /**
   * The session's CSRF token: an HMAC of the session id under the server key. Binding it to the session
   * (instead of a free random value) means a cookie planted by a sibling subdomain cannot be paired with
   * a matching header, and no extra column is needed.
   */
  csrfTokenFor(sessionId: string): string {
    return createHmac('sha256', this.config.secretKey).update(`csrf:${sessionId}`).digest('base64url');
  }
}
