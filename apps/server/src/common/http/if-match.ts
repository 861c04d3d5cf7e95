/**
 * The version an `If-Match` header names: `"3"`, `W/"3"` or `3` (at least `min`); null when the header is missing or
 * names anything else (a list, `*`, text). Each module answers null with its own "version required" error.
 */
export function ifMatchVersion(ifMatch: string | undefined, min = 1): number | null {
  const match = /^\s*(?:W\/)?"?(\d{1,9})"?\s*$/.exec(ifMatch ?? '');
  if (!match || (match[1].length > 1 && match[1].startsWith('0'))) return null;
  const version = Number(match[1]);
  return version >= min ? version : null;
}
