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

