/**
 * "1 attempt", "2 attempts", "0 attempts": a count with its noun in the right number (English). Pass the plural
 * for nouns that do not just take an "s" ("1 entry", "3 entries"). Shared so the dashboard, the server's messages
 * and service-cli never print "1 attempts".
 */
export function plural(count: number, singular: string, pluralForm = `${singular}s`): string {
  return `${count} ${count === 1 ? singular : pluralForm}`;
}
