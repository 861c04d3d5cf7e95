/**
 * Mermaid stores `#quot;`-style entity codes as private placeholders until it renders
 * (encodeEntities / decodeEntities in Mermaid's utils), and keeps sanitized label HTML such
 * as `a &lt; b`. The graph model carries the text a reader sees, so both are decoded here.
 * HTML tags (`<br>`, `<b>`) are kept: they are part of how the label renders.
 */
const NAMED_ENTITIES: Record<string, string> = { quot: '"', amp: '&', lt: '<', gt: '>', apos: "'", nbsp: '\u00a0' };

export function labelText(stored: string): string {
  const html = stored.replace(/\uFB02\u00B0\u00B0/g, '&#').replace(/\uFB02\u00B0/g, '&').replace(/\u00B6\u00DF/g, ';');
  return html.replace(/&(#[xX][0-9a-fA-F]+|#\d+|[a-zA-Z]+);/g, (entity, code: string) => {
    if (code.startsWith('#')) {
      const point = code[1] === 'x' || code[1] === 'X' ? parseInt(code.slice(2), 16) : parseInt(code.slice(1), 10);
      return Number.isFinite(point) && point <= 0x10ffff ? String.fromCodePoint(point) : entity;
    }
    return NAMED_ENTITIES[code] ?? entity;
  });
}

const ESCAPES: Record<string, string> = { '#': '#35;', '&': '#amp;', '"': '#quot;', ';': '#59;', '`': '#96;' };

/**
 * The inverse of labelText for text written into Mermaid: a double quote, and anything
 * Mermaid would read as an entity code, become entity codes themselves. In text that runs to
 * the end of a statement (state transition labels, messages, box titles) a `;` would end the
 * statement and a `#` can start a comment, so both are always escaped there.
 */
function escapeForMermaid(text: string, statementText: boolean): string {
  // In a quoted string "` opens a Markdown string, so a backtick is written as an entity code there; and every
  // `&` is, because the label is HTML to Mermaid, where `&#0` or `&lt` is a character reference even without `;`.
  const pattern = statementText ? /#|&(?=#?\w+;)|"|;/g : /#(?=[\w+]+;)|&|"|`/g;
  // Mermaid cuts the `;` off an entity code on a line where `style` or `classDef` comes before a `:` that is
  // followed by `#` without a space (its /style.*:\S*#.*;/ rule), e.g. node `lifestyle` with label `a:"b"`.
  return text.replace(pattern, (c) => ESCAPES[c]).replace(/:(?=\S*#)/g, '#58;');
}

/** A label inside a double-quoted Mermaid string. */
export function mermaidQuoted(text: string): string {
  return `"${escapeForMermaid(text, false)}"`;
}

/** Text after `:` or `as` that runs to the end of the line; line breaks become <br>. */
export function mermaidLineText(text: string): string {
  return escapeForMermaid(text.replace(/\r?\n/g, '<br>'), true);
}
