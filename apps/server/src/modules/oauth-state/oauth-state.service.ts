import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { SSO_STATE_TTL_SECONDS } from '@sc/contracts';
import { Clock } from '../../common/clock';
import { randomToken, sha256Hex } from '../../common/crypto/tokens';
import { SecretBox } from '../../common/crypto/secret-box';
import { OAuthState, OAuthStatePurpose } from './oauth-state.entity';
import { OAuthStateErrorCode, oauthStateError } from './oauth-state.errors';
import { OAuthStateRepository } from './oauth-state.repository';

export interface IssueStateInput {
  organizationId: string;
  providerId: string;
  purpose: OAuthStatePurpose;
  nonce: string;
  codeVerifier: string;
  redirectPath: string;
  /** The random value set in the browser's binding cookie; only its hash is stored. */
  bindingValue: string;
  initiatedByUserId: string | null;
}

/** What the callback needs of a consumed state: what was issued, without the binding (checked by the consume). */
export interface ConsumedState extends Omit<IssueStateInput, 'bindingValue'> {
  id: string;
}

export interface ConsumeStateInput {
  state: unknown;
  organizationId: string;
  providerId: string;
  bindingValue: string | undefined;
}

/** Why a state was refused; for the audit log only (the caller always sees invalid_or_expired_state). */
export type StateRefusal = 'missing' | 'unknown' | 'consumed' | 'expired' | 'other_organization' | 'other_provider' | 'binding_missing' | 'binding_mismatch';

const REFUSAL_TEXT: Record<StateRefusal, string> = {
  missing: 'the callback carried no state',
  unknown: 'the state is unknown',
  consumed: 'the state was already used',
  expired: 'the state expired (10 minutes)',
  other_organization: 'the state was issued for another organization',
  other_provider: 'the state was issued for another provider',
  binding_missing: 'the browser-binding cookie is missing (another browser, or cookies blocked)',
  binding_mismatch: 'the browser-binding cookie belongs to another sign-in',
};

/** Kept after expiry so a late replay is reported as "expired"/"consumed" rather than "unknown". */
const RETENTION_AFTER_EXPIRY_MS = 24 * 3_600_000;

@Injectable()
export class OAuthStateService {
  constructor(
    private readonly states: OAuthStateRepository,
    private readonly clock: Clock,
    private readonly secretBox: SecretBox,
  ) {}

  /** Stores a new one-time state and returns the value to send to the provider. */
  async issue(input: IssueStateInput): Promise<{ state: string; expiresAt: Date }> {
    const now = this.clock.now();
    await this.states.deleteExpiredBefore(new Date(now.getTime() - RETENTION_AFTER_EXPIRY_MS));
    const state = randomToken(32);
    const record = new OAuthState();
    record.id = randomUUID();
    record.stateHash = sha256Hex(state);
    record.organizationId = input.organizationId;
    record.providerId = input.providerId;
    record.purpose = input.purpose;
    record.nonce = input.nonce;
    record.codeVerifierSealed = this.secretBox.seal(input.codeVerifier);
    record.redirectPath = input.redirectPath;
    record.bindingHash = sha256Hex(input.bindingValue);
    record.initiatedByUserId = input.initiatedByUserId;
    record.createdAt = now;
    record.expiresAt = new Date(now.getTime() + SSO_STATE_TTL_SECONDS * 1000);
    record.consumedAt = null;
    await this.states.insert(record);
    return { state, expiresAt: record.expiresAt };
  }

  /**
   * Consumes a state atomically or throws invalid_or_expired_state (details carry the reason for the
   * audit log). Exactly one of any number of concurrent callbacks with the same state succeeds.
   */
  async consume(input: ConsumeStateInput): Promise<ConsumedState> {
    if (typeof input.state !== 'string' || input.state === '') throw refused('missing');
    const stateHash = sha256Hex(input.state);
    const now = this.clock.now();
    // The callback clears the binding cookie, so a reload of a finished callback arrives without it: say
    // "already used" rather than "another browser" when the record shows that.
    if (!input.bindingValue) throw refused(await this.diagnose(stateHash, input, now, 'binding_missing'));
    const consumed = await this.states.consume({
      stateHash,
      organizationId: input.organizationId,
      providerId: input.providerId,
      bindingHash: sha256Hex(input.bindingValue),
      now,
    });
    if (!consumed) throw refused(await this.diagnose(stateHash, input, now, 'binding_mismatch'));
    return {
      id: consumed.id,
      organizationId: consumed.organizationId,
      providerId: consumed.providerId,
      purpose: consumed.purpose,
      nonce: consumed.nonce,
      codeVerifier: this.secretBox.open(consumed.codeVerifierSealed),
      redirectPath: consumed.redirectPath,
      initiatedByUserId: consumed.initiatedByUserId,
    };
  }

  /** Runs only after the atomic UPDATE refused the state: explains why, it decides nothing. */
  private async diagnose(stateHash: string, input: ConsumeStateInput, now: Date, otherwise: StateRefusal): Promise<StateRefusal> {
    const record = await this.states.findByHash(stateHash);
    if (!record) return 'unknown';
    if (record.consumedAt) return 'consumed';
    if (record.expiresAt.getTime() <= now.getTime()) return 'expired';
    if (record.organizationId !== input.organizationId) return 'other_organization';
    if (record.providerId !== input.providerId) return 'other_provider';
    return otherwise;
  }
}

function refused(reason: StateRefusal) {
  return oauthStateError(
    OAuthStateErrorCode.InvalidOrExpiredState,
    'This sign-in attempt cannot be completed: it was already used, it expired (after 10 minutes), or it was started in another browser.',
    [{ code: reason, message: REFUSAL_TEXT[reason] }],
  );
}
