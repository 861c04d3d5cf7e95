import { mermaidLineText } from './labels';
import type { OverlaidGraph } from './overlay';

/**
 * Sequence diagrams are drawn by Mermaid from their own source, so message order, notes, blocks and activations
 * are exactly as written. The context's participant names (`nodes.<id>.name`) are applied by rewriting the
 * source before it is drawn, never the drawing after: Mermaid sizes each participant box from its text.
 *
 * Mermaid names a participant by its description (the text after `as`), taken from the statement that first
 * creates it: a `participant`/`actor` declaration, or the first message or note that mentions it. So:
 * - a declaration gets (or changes) its `as` text;
 * - a participant first met in a message or note is declared just before that statement, together
 *   with the other participants that statement introduces, in their order, so Mermaid's order is unchanged;
 * - later declarations that set an `as` text again get the name too; ones without change nothing in Mermaid.
 * Statements stay on their lines (added declarations join the line with `;`), so line numbers do not move.
 */
export function withParticipantNames(source: string, graph: Pick<OverlaidGraph, 'nodes'>): string {
  const names = new Map<string, string>();
  for (const node of graph.nodes) {
    const name = node.overlay?.name;
    // An id with spaces (`participant Alice Smith`) cannot take an `as` text in Mermaid's grammar.
    if (name !== undefined && name !== '' && /^[^<>:,;@\s]+$/.test(node.id)) names.set(node.id, name);
  }
  if (names.size === 0) return source;
  // Longest first, so `api-gateway` is found before `api` at the start of a message.
  const ids = graph.nodes.map((node) => node.id).sort((a, b) => b.length - a.length);
  const seen = new Set<string>();
  const lines = source.split('\n');
  let inBody = false;
  let inDescription = false;

  return lines
    .map((line) => {
      if (!inBody) {
        inBody = /^\s*sequenceDiagram\b/.test(line);
        return line;
      }
      if (inDescription) {
        inDescription = !line.includes('}');
        return line;
      }
      if (/^\s*accDescr\s*\{/i.test(line)) {
        inDescription = !line.includes('}');
        return line;
      }
      if (/^\s*%%/.test(line)) return line;
      return splitStatements(line)
        .map((statement) => {
          const declaration = parseDeclaration(statement);
          if (declaration) {
            const first = !seen.has(declaration.id);
            seen.add(declaration.id);
            const name = names.get(declaration.id);
            return name !== undefined && (first || declaration.alias !== undefined) ? withAlias(declaration, name) : statement;
          }
          const fresh = [...new Set(mentionedIds(statement, ids))].filter((id) => !seen.has(id));
          for (const id of fresh) seen.add(id);
          if (!fresh.some((id) => names.has(id))) return statement;
          // Declare what this statement introduces, in its order; Mermaid then meets them as already known.
          const indent = /^\s*/.exec(statement)?.[0] ?? '';
          const added = fresh.map((id) => (names.has(id) ? `participant ${id} as ${mermaidLineText(names.get(id) ?? id)}` : `participant ${id}`));
          return `${indent}${added.join('; ')}; ${statement.trimStart()}`;
        })
        .join(';');
    })
    .join('\n');
}

interface Declaration {
  /** Everything before the id: indentation, `create`, `participant`/`actor`. */
  head: string;
  id: string;
  /** `@{ "type": "database" }` metadata, when written. */
  metadata: string;
  /** The `as` text as written (with a `wrap:` prefix, if any); undefined without `as`. */
  alias?: string;
}

const DECLARATION = /^(\s*(?:create\s+)?(?:participant|actor)\s+)([^<>:,;@\s]+)(\s*@\{[^}]*\})?(?:\s+as\s+(.*?))?\s*$/i;

function parseDeclaration(statement: string): Declaration | null {
  const match = DECLARATION.exec(statement);
  if (match === null) return null;
  return { head: match[1], id: match[2], metadata: match[3] ?? '', ...(match[4] !== undefined ? { alias: match[4] } : {}) };
}

function withAlias(declaration: Declaration, name: string): string {
  const wrap = /^:?(?:no)?wrap:/i.exec(declaration.alias ?? '')?.[0] ?? '';
  return `${declaration.head}${declaration.id}${declaration.metadata} as ${wrap}${mermaidLineText(name)}`;
}

/**
 * Statements of one line: Mermaid also ends a statement at `;`, except inside `@{ … }` metadata and in entity
 * codes such as `#59;`.
 */
function splitStatements(line: string): string[] {
  const statements: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (c === '{') depth++;
    else if (c === '}') depth = Math.max(0, depth - 1);
    else if (c === ';' && depth === 0 && !/#\w+$/.test(line.slice(start, i))) {
      statements.push(line.slice(start, i));
      start = i + 1;
    }
  }
  statements.push(line.slice(start));
  return statements;
}

/** Statements whose text is free (block titles) or that never create a participant. */
const NO_PARTICIPANTS =
  /^\s*(loop|alt|else|opt|par|par_over|and|critical|option|break|rect|end|box|autonumber|title|accTitle|accDescr|activate|deactivate|destroy|links?|properties|details)\b/i;
const NOTE = /^\s*note\s+(?:left\s+of|right\s+of|over)\s+([^:]+)/i;

/** The participants a message or note statement mentions, in order (message: sender, then receiver). */
function mentionedIds(statement: string, ids: readonly string[]): string[] {
  if (NO_PARTICIPANTS.test(statement)) return [];
  const note = NOTE.exec(statement);
  if (note) return note[1].split(',').map((id) => id.trim());
  // A message: `sender <arrow> [+|-] receiver : text`. Ids are matched against the diagram's own participants,
  // because an id may itself contain `-` or `x`.
  const colon = statement.indexOf(':');
  const head = (colon === -1 ? statement : statement.slice(0, colon)).trim();
  const sender = ids.find((id) => head.startsWith(id) && /^\s*[-<]/.test(head.slice(id.length)));
  const receiver = ids.find((id) => head.endsWith(id) && /[->x)|\\/+()]\s*$/.test(head.slice(0, head.length - id.length)));
  return sender !== undefined && receiver !== undefined ? [sender, receiver] : [];
}
