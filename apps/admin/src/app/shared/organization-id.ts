import type { AbstractControl } from '@angular/forms';

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


/** The sentence for an invalid organization-id field (required, then ORGANIZATION_ID_PATTERN), or null. */
export function organizationIdError(control: AbstractControl): string | null {
  if (control.hasError('required')) return 'Enter an organization ID.';
  if (control.hasError('pattern')) return 'Use 2–63 lowercase letters, digits and dashes, starting with a letter or digit.';
  return null;
}
