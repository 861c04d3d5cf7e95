import { decodeHTML } from 'entities/decode';

/**
 * The text a reader sees, from a label as Mermaid stores it. Mermaid keeps `#name;` / `#123;` entity codes as
 * private placeholders until it renders (encodeEntities / decodeEntities in Mermaid's utils), turns them into
 * `&name;` / `&#123;`, and the browser decodes those with every other HTML entity left in the sanitized label
 * (`a &lt; b`). Node has no browser, so the `entities` package decodes them the way an HTML parser does: every
 * HTML5 named entity (`&infin;` → ∞) and numeric references.
 *
 * Line breaks: a `<br>` tag (`<br/>`, `<br />`, any case) is a line break and becomes "\n"; this happens before
 * decoding, so a literal `&lt;br&gt;` (or `#lt;br#gt;`), which Mermaid shows as the text "<br>", stays the text
 * "<br>". Other HTML tags (`<b>`) are kept: they are part of how the label renders.
 */
const LINE_BREAK_TAG = /<br\s*\/?>/gi;

export function labelText(stored: string): string {
  const html = stored.replace(LINE_BREAK_TAG, '\n').replace(/\uFB02\u00B0\u00B0/g, '&#').replace(/\uFB02\u00B0/g, '&').replace(/\u00B6\u00DF/g, ';');
  return decodeHTML(html);
}

const ESCAPES: Record<string, string> = { '#': '#35;', '&': '#amp;', '"': '#quot;', ';': '#59;', '`': '#96;', '<': '#lt;' };

/**
 * The inverse of labelText for text written into Mermaid: a line break becomes `<br>`, the text "<br>" its entity
 * code (so it does not turn into a line break), and a double quote and anything Mermaid would read as an entity code
 * become entity codes themselves. In text that runs to the end of a statement (state transition labels, messages,
 * box titles) a `;` would end the statement and a `#` can start a comment, so both are always escaped there.
 */
function escapeForMermaid(text: string, statementText: boolean): string {
  // In a quoted string "` opens a Markdown string, so a backtick is written as an entity code there; and every
  // `&` is, because the label is HTML to Mermaid, where `&#0` or `&lt` is a character reference even without `;`.
  // In statement text an `&` is escaped where an HTML parser would read an entity at it.
  const pattern = statementText ? /#|&|"|;|<(?=br\s*\/?>)/gi : /#(?=[\w+]+;)|&|"|`|<(?=br\s*\/?>)/gi;
  // Mermaid cuts the `;` off an entity code on a line where `style` or `classDef` comes before a `:` that is
  // followed by `#` without a space (its /style.*:\S*#.*;/ rule), e.g. node `lifestyle` with label `a:"b"`.
  return text
    .replace(pattern, (c, offset: number) => (c === '&' && statementText && !startsEntity(text, offset) ? c : ESCAPES[c]))
    .replace(/:(?=\S*#)/g, '#58;')
    .replace(/\r?\n/g, '<br>');
}

/** Would an HTML parser read an entity at this `&` (`&amp;`, `&#65;`, or a legacy one without `;` such as `&copy`)? */
function startsEntity(text: string, offset: number): boolean {
  const next = text.indexOf('&', offset + 1);
  const candidate = text.slice(offset, next < 0 ? text.length : next);
  return /^&[#a-zA-Z]/.test(candidate) && decodeHTML(candidate) !== candidate;
}

/** A label inside a double-quoted Mermaid string. */
export function mermaidQuoted(text: string): string {
  return `"${escapeForMermaid(text, false)}"`;
}

/** Text after `:` or `as` that runs to the end of the line. */
export function mermaidLineText(text: string): string {
  return escapeForMermaid(text, true);
}
