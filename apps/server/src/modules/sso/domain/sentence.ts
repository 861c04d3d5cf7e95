/**
 * Ends a text with exactly one full stop unless it already ends a sentence. Messages join texts the
 * service does not write (a provider's error_description, a fetch failure) that may or may not end with
 * punctuation; appending "." blindly shows "cancelled the sign-in..".
 */
export function sentence(text: string): string {
  const trimmed = text.trimEnd();
  if (trimmed === '') return '';
  return /[.!?…]$/.test(trimmed) ? trimmed : `${trimmed}.`;
}
