/**
 * The URL of an organization's API resource, `/api/v1/orgs/<orgId>/<resource>` (the organization itself without
 * `resource`): the one place the admin writes the API's organization prefix and encodes the id.
 */
export function orgApiUrl(orgId: string, resource?: string): string {
  const organization = `/api/v1/orgs/${encodeURIComponent(orgId)}`;
  return resource === undefined ? organization : `${organization}/${resource}`;
}
