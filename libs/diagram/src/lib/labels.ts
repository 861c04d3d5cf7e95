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

/**
 * The inverse for writing a label inside a double-quoted Mermaid string: a double quote and
 * anything Mermaid would read as an entity code are written as entity codes themselves.
 */
export function mermaidQuoted(text: string): string {
  const escaped = text
    .replace(/#(?=[\w+]+;)/g, '#35;')
    .replace(/&(?=#?\w+;)/g, '#amp;')
    .replace(/"/g, '#quot;');
  return `"${escaped}"`;
}
