/** RFC 7644 §3.12: the body of every SCIM error, `status` as a string. */
export const SCIM_ERROR_SCHEMA = 'urn:ietf:params:scim:api:messages:2.0:Error';

/** `scimType` values of RFC 7644 §3.12 this server answers with. */
export type ScimType = 'invalidFilter' | 'tooMany' | 'uniqueness' | 'mutability' | 'invalidSyntax' | 'invalidPath' | 'noTarget' | 'invalidValue' | 'invalidVers';

/**
 * An error of the SCIM protocol routes, answered as an RFC 7644 error body by ScimExceptionFilter. It is not a
 * DomainError on purpose: SCIM clients read `status`, `scimType` and `detail`, not this API's error codes.
 */
export class ScimError extends Error {
  constructor(
    readonly status: number,
    readonly detail: string,
    readonly scimType?: ScimType,
  ) {
    super(detail);
  }
}

export interface ScimErrorBody {
  schemas: [typeof SCIM_ERROR_SCHEMA];
  status: string;
  scimType?: ScimType;
  detail: string;
}

export function scimErrorBody(status: number, detail: string, scimType?: ScimType): ScimErrorBody {
  return { schemas: [SCIM_ERROR_SCHEMA], status: String(status), ...(scimType ? { scimType } : {}), detail };
}

export const invalidValue = (detail: string) => new ScimError(400, detail, 'invalidValue');
export const notFound = (resource: 'User' | 'Group', id: string) => new ScimError(404, `No ${resource} with id "${id}" exists here.`);
