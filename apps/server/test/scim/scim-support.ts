import type { CreatedScimTokenResponse } from '@sc/contracts';
import { call, sessionHeaders, type JsonResponse, type SeededOrganization, type TestApp } from '../support';

export const SCIM_JSON = 'application/scim+json';
export const PATCH_OP = 'urn:ietf:params:scim:api:messages:2.0:PatchOp';
export const USER_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:User';
export const GROUP_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:Group';
export const ENTERPRISE = 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User';

export type ScimBody = Record<string, unknown> & { id: string; meta: { version: string; location: string } };
export interface ScimErrorBody {
  schemas: string[];
  status: string;
  scimType?: string;
  detail: string;
}

/** An owner creates a SCIM token through the real API. */
export async function createScimToken(t: TestApp, org: SeededOrganization, name = 'Identity provider'): Promise<CreatedScimTokenResponse> {
  const response = await call<CreatedScimTokenResponse>(t.baseUrl, 'POST', `/api/v1/orgs/${org.organizationId}/scim-tokens`, { headers: sessionHeaders(org.owner), body: { name } });
  if (response.status !== 201) throw new Error(`create SCIM token: ${response.status} ${JSON.stringify(response.body)}`);
  return response.body;
}

/** A SCIM request as identity providers send it: bearer token, application/scim+json body. */
export function scim<T = ScimBody>(t: TestApp, token: string, method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<JsonResponse<T>> {
  return call<T>(t.baseUrl, method, path, { headers: { authorization: `Bearer ${token}`, ...(body !== undefined ? { 'content-type': SCIM_JSON } : {}), ...headers }, body });
}

export function patchOps(...operations: Record<string, unknown>[]): Record<string, unknown> {
  return { schemas: [PATCH_OP], Operations: operations };
}

export function expectScimError(response: JsonResponse<unknown>, status: number, scimType?: string): void {
  const body = response.body as ScimErrorBody;
  expect({ status: response.status, schemas: body?.schemas, bodyStatus: body?.status, scimType: body?.scimType }).toEqual({
    status,
    schemas: ['urn:ietf:params:scim:api:messages:2.0:Error'],
    bodyStatus: String(status),
    scimType,
  });
  expect(typeof body.detail).toBe('string');
  expect(response.headers.get('content-type')).toMatch(/^application\/scim\+json/);
}
