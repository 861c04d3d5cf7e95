/**
 * "1 group", "2 groups", "0 groups": a count with its noun in the right number (English). Pass the plural
 * for nouns that do not just take an "s" ("1 entry", "3 entries").
 */
export function plural(count: number, singular: string, pluralForm = `${singular}s`): string {
  return `${count} ${count === 1 ? singular : pluralForm}`;
}
