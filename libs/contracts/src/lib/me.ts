import type { Role, TokenScope } from './auth';
import { OrganizationResponse } from './organizations';

export interface UserResponse {
  id: string;
  email: string;
  displayName: string;
}

/**
 * GET /api/v1/me: who is calling and in which organization. Nothing about the person's other organizations:
 * a session is only as trustworthy as the organization that signed it in (see the SSO README, "Organization
 * boundary"), so it lists none of them.
 */
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
}
