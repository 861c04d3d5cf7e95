import type { FieldErrorMessages } from './field-errors.component';

/** Suggests a URL-safe organization id from its name: "Acme Corp." → "acme-corp". */
export function suggestOrganizationId(name: string, maxLength = 63): string {
  const slug = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
  return slug.slice(0, maxLength).replace(/-+$/, '');
}

/** The sentences for an invalid organization-id field (required, ORGANIZATION_ID_PATTERN), for <sc-field-errors>. */
export const ORGANIZATION_ID_ERRORS: FieldErrorMessages = {
  required: 'Enter an organization ID.',
  pattern: 'Use 2–63 lowercase letters, digits and dashes, starting with a letter or digit.',
};
