import { Matches } from 'class-validator';
import { ORGANIZATION_ID_PATTERN } from './auth';
import type { Role, TokenScope } from './auth';
import { OrganizationResponse } from './organizations';

export interface UserResponse {
  id: string;
  email: string;
  displayName: string;
}

/** GET /api/v1/me: who is calling and in which organization. */
export interface MeResponse {
  kind: 'session' | 'token';
  organization: OrganizationResponse;
  /** Session callers only. */
  user: UserResponse | null;
  role: Role | null;
  /** Token callers only. */
  scopes: TokenScope[] | null;
  /** Session callers: the value to send in X-CSRF-Token (also set as the sc_csrf cookie). */
  csrfToken: string | null;
  /** Session callers: every organization the user can act in (switch with POST /api/v1/auth/switch-organization). */
  organizations: { id: string; name: string; role: Role }[];
}

export class SwitchOrganizationRequest {
  @Matches(ORGANIZATION_ID_PATTERN, { message: 'organizationId must be an organization id' })
  organizationId!: string;
}
