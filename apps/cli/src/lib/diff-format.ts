import { previewDiagramUrl } from '@sc/contracts/core';
import { countStatuses, type ArtifactDiffEntry, type ArtifactsDiff, type ColumnChange, type ColumnRef, type CountTriple, type DiagramDiffEntry, type ElementChange, type ElementDiff, type ElementRef } from './artifact-diff';
import { renderTable } from './format';

/** The first line of the pull-request comment: the CI templates find (and update) their comment by it. */
export const DIFF_COMMENT_MARKER = '<!-- service-cli:diff -->';
/** GitHub refuses comments over 65,536 characters; the markdown stays under this, with room for the note. */
export const MAX_COMMENT_CHARS = 65_000;

/** What the two sides are, in words: `revision 4 of payments on https://…` or a directory. */
export interface DiffSides {
  service: string;
  before: string;
  after: string;
}

type Part = 'nodes' | 'edges' | 'groups';
const SINGULAR: Record<Part, string> = { nodes: 'node', edges: 'edge', groups: 'group' };
const plural = (count: number, word: string) => `${count} ${word}${count === 1 ? '' : 's'}`;

/** "3 diagrams changed (1 new): 2 nodes added, 1 edge removed; 1 other artifact changed", or that nothing did. */
export function summaryLine(diff: ArtifactsDiff): string {
  if (!diff.changed) return 'No changes.';
  const { diagrams, artifacts } = diff.summary;
  const sentences: string[] = [];
  const touched = diagrams.added + diagrams.removed + diagrams.changed;
  if (touched > 0) {
    const extra = [diagrams.added ? `${diagrams.added} new` : '', diagrams.removed ? `${diagrams.removed} removed` : ''].filter(Boolean).join(', ');
    const counts = (['nodes', 'edges', 'groups'] as const).flatMap((part) => countWords(diff.summary[part], SINGULAR[part]));
    sentences.push(`${plural(touched, 'diagram')} changed${extra ? ` (${extra})` : ''}${counts.length ? `: ${counts.join(', ')}` : ': files only, the drawings are the same'}`);
  }
  const others = artifacts.added + artifacts.removed + artifacts.changed;
  if (others > 0) sentences.push(`${plural(others, 'other artifact')} changed (${otherArtifactsChanged(diff.artifacts)})`);
  return `${sentences.join('; ')}.`;
}

function countWords(counts: CountTriple, word: string): string[] {
  return (['added', 'removed', 'changed'] as const).filter((status) => counts[status] > 0).map((status) => `${plural(counts[status], word)} ${status}`);
}

function otherArtifactsChanged(artifacts: readonly ArtifactDiffEntry[]): string {
  return artifacts
    .filter((artifact) => artifact.status !== 'unchanged')
    // The summary and the job-dependency graph are named after their kind: said once.
    .map((artifact) => `${artifact.kind === artifact.name ? artifact.kind : `${artifact.kind} ${artifact.name}`} ${artifact.status}${tableCountWords(artifact)}`)
    .join(', ');
}

/** " (1 table added, 2 tables changed)" for a compared SQL schema; "" otherwise. */
function tableCountWords(artifact: ArtifactDiffEntry): string {
  if (!artifact.tables) return '';
  const words = countWords(countStatuses(artifact.tables), 'table');
  return words.length ? ` (${words.join(', ')})` : artifact.status === 'changed' ? ' (files only, the tables are the same)' : '';
}


/** How ids and labels are written: plain text, or markdown (ids as code, labels escaped). */
interface Words {
  id: (id: string) => string;
  label: (label: string) => string;
}
const PLAIN: Words = { id: (id) => id, label: (label) => `"${label}"` };
const MARKDOWN: Words = { id: (id) => `\`${code(id)}\``, label: (label) => `“${escapeMarkdown(label)}”` };

/** An element in words: `api "Public API"`; an edge `api → db` (its n-th parallel edge: `api → db (2nd)`) with its label. */
function elementWords(part: Part, element: ElementRef, words: Words): string {
  const label = element.label !== undefined ? ` ${words.label(element.label)}` : '';
  const match = part === 'edges' ? /^(.*)->(.*)#(\d+)$/.exec(element.id) : null;
  if (!match) return `${words.id(element.id)}${label}`;
  const index = Number(match[3]);
  return `${words.id(match[1] as string)} → ${words.id(match[2] as string)}${index > 0 ? ` (${ordinal(index + 1)})` : ''}${label}`;
}

function ordinal(n: number): string {
  const suffix = n % 100 >= 11 && n % 100 <= 13 ? 'th' : (['th', 'st', 'nd', 'rd'][n % 10] ?? 'th');
  return `${n}${suffix}`;
}

/** One line per added, removed or changed element, in words, the same for the text and the markdown output. */
function changeLines(diagram: DiagramDiffEntry, words: Words = PLAIN): string[] {
  const lines: string[] = [];
  for (const part of ['nodes', 'edges', 'groups'] as const) {
    const diff: ElementDiff = diagram[part];
    const noun = SINGULAR[part];
    for (const element of diff.added) lines.push(`added ${noun} ${elementWords(part, element, words)}`);
    for (const element of diff.removed) lines.push(`removed ${noun} ${elementWords(part, element, words)}`);
    for (const element of diff.changed) lines.push(`changed ${noun} ${elementWords(part, element, words)}: ${fieldsWords(element)}`);
  }
  if (diagram.filesOnly) lines.push('files changed, the drawing is the same (comments, formatting or context fields outside the graph)');
  return lines;
}

/**
 * A changed SQL schema in words, one line per table and, indented under a changed table, one per column, key or
 * comment change; the same for the text and the markdown output.
 */
function schemaLines(artifact: ArtifactDiffEntry, words: Words = PLAIN): Array<{ depth: 0 | 1; text: string }> {
  const lines: Array<{ depth: 0 | 1; text: string }> = [];
  for (const table of artifact.tables ?? []) {
    const noun = table.kind === 'view' ? 'view' : 'table';
    if (table.status !== 'changed') {
      const columns = table.status === 'added' ? table.columns.added : table.columns.removed;
      lines.push({ depth: 0, text: `${table.status} ${noun} ${words.id(table.name)} (${plural(columns.length, 'column')})` });
      continue;
    }
    lines.push({ depth: 0, text: `changed ${noun} ${words.id(table.name)}${table.kindChanged ? ' (was a table or view of the other kind)' : ''}` });
    for (const column of table.columns.added) lines.push({ depth: 1, text: `added column ${columnWords(column, words)}` });
    for (const column of table.columns.removed) lines.push({ depth: 1, text: `removed column ${columnWords(column, words)}` });
    for (const column of table.columns.changed) lines.push({ depth: 1, text: `changed column ${words.id(column.name)}: ${columnChangeWords(column, words)}` });
    if (table.primaryKey) lines.push({ depth: 1, text: `primary key ${keyWords(table.primaryKey.before, words)} → ${keyWords(table.primaryKey.after, words)}` });
    if (table.comment) lines.push({ depth: 1, text: `comment ${valueWords(table.comment.before, words)} → ${valueWords(table.comment.after, words)}` });
  }
  if (artifact.status === 'changed' && artifact.tables?.length === 0) lines.push({ depth: 0, text: 'files changed, the tables are the same (comments, formatting, statements that define no table)' });
  return lines;
}

function columnWords(column: ColumnRef, words: Words): string {
  const type = column.type ? ` ${words.id(column.type)}` : '';
  return `${words.id(column.name)}${type}${column.nullable ? '' : ' not null'}`;
}

/** `type numeric(10, 2) → numeric(12, 2), nullable → not null, default none → 0`. */
function columnChangeWords(change: ColumnChange, words: Words): string {
  return change.fields
    .map((field) => {
      const before = change.before[field];
      const after = change.after[field];
      if (field === 'nullable') return after ? 'not null → nullable' : 'nullable → not null';
      if (typeof before === 'boolean' || typeof after === 'boolean') return `${after ? 'now' : 'no longer'} ${FLAG_WORDS[field] ?? field}`;
      return `${FIELD_WORDS[field] ?? field} ${valueWords(before ?? null, words)} → ${valueWords(after ?? null, words)}`;
    })
    .join(', ');
}

const FLAG_WORDS: Partial<Record<ColumnChange['fields'][number], string>> = { primaryKey: 'in the primary key', unique: 'unique' };
const FIELD_WORDS: Partial<Record<ColumnChange['fields'][number], string>> = { references: 'reference' };

function valueWords(value: string | null, words: Words): string {
  return value === null || value === '' ? 'none' : words.id(value);
}

function keyWords(columns: readonly string[], words: Words): string {
  return columns.length ? `(${columns.map(words.id).join(', ')})` : 'none';
}

function fieldsWords(change: ElementChange): string {
  return change.fields.join(', ');
}

function elementCounts(diagram: DiagramDiffEntry): string {
  const parts = (['nodes', 'edges', 'groups'] as const).map((part) => `${diagram[part].added.length}/${diagram[part].removed.length}/${diagram[part].changed.length}`);
  return parts.join('  ');
}

/** The default output: a table of diagrams (added/removed/changed elements), the other artifacts, then the changes in words. */
export function diffText(diff: ArtifactsDiff, sides: DiffSides): string {
  const out: string[] = [`Service ${sides.service}: ${sides.before} → ${sides.after}`];
  if (diff.diagrams.length) {
    out.push(
      '',
      renderTable(
        ['DIAGRAM', 'STATUS', 'NODES +/-/~', 'EDGES +/-/~', 'GROUPS +/-/~'],
        diff.diagrams.map((diagram) => [diagram.name, diagram.status, ...elementCounts(diagram).split('  ')]),
      ),
    );
  }
  if (diff.artifacts.length) {
    out.push(
      '',
      renderTable(
        ['KIND', 'NAME', 'STATUS', 'FILES CHANGED', 'TABLES +/-/~'],
        diff.artifacts.map((artifact) => [artifact.kind, artifact.name, artifact.status, artifact.files.join(', ') || '-', artifact.tables ? tripleText(countStatuses(artifact.tables)) : '-']),
      ),
    );
  }
  for (const diagram of diff.diagrams.filter((entry) => entry.status !== 'unchanged')) {
    out.push('', `${diagram.name} (${diagram.status}):`, ...changeLines(diagram).map((line) => `  ${line}`));
  }
  for (const schema of changedSchemas(diff)) {
    out.push('', `${schema.kind} ${schema.name} (${schema.status}):`, ...schemaLines(schema).map((line) => `${'  '.repeat(line.depth + 1)}${line.text}`));
  }
  out.push('', summaryLine(diff));
  return out.join('\n');
}

/**
 * The pull-request comment: the hidden marker, a summary line, the preview link, a collapsible section per changed
 * diagram listing its changes in words, and a table of the other artifacts that changed. Kept under GitHub's limit:
 * long element lists are shortened first, then whole sections, each time with a note saying so.
 */
export function diffMarkdown(diff: ArtifactsDiff, sides: DiffSides, previewUrl?: string, maxChars = MAX_COMMENT_CHARS): string {
  for (const perDiagram of [Infinity, 50, 10, 0]) {
    const text = renderMarkdown(diff, sides, previewUrl, perDiagram, Infinity);
    if (text.length <= maxChars) return text;
  }
  // Even one line per diagram is too long: as many sections as fit, then the note.
  let sections = diff.diagrams.length;
  let text = renderMarkdown(diff, sides, previewUrl, 0, sections);
  while (text.length > maxChars && sections > 0) {
    sections = Math.max(0, Math.floor(sections * 0.8));
    text = renderMarkdown(diff, sides, previewUrl, 0, sections);
  }
  return text.length <= maxChars ? text : `${text.slice(0, maxChars - 80)}\n\n_Truncated: run \`service-cli diff\` for the whole list._\n`;
}

/**
 * One collapsible section per changed item: at most `maxSections` of them, each with at most `perSection` bullets,
 * and a note where either limit left something out. Answers whether anything was left out.
 */
function pushDetailSections<T>(
  out: string[],
  items: readonly T[],
  limits: { perSection: number; maxSections: number },
  moreWhat: string,
  section: (item: T) => { summary: string; bullets: readonly string[] },
): boolean {
  let shortened = false;
  for (const item of items.slice(0, limits.maxSections)) {
    const { summary, bullets } = section(item);
    const shown = bullets.slice(0, limits.perSection);
    out.push('', '<details>', `<summary>${summary}</summary>`, '', ...shown);
    if (shown.length < bullets.length) {
      shortened = true;
      out.push(`- … and ${bullets.length - shown.length} more`);
    }
    out.push('', '</details>');
  }
  if (items.length > limits.maxSections) {
    shortened = true;
    out.push('', `… and ${plural(items.length - limits.maxSections, moreWhat)}.`);
  }
  return shortened;
}

function renderMarkdown(diff: ArtifactsDiff, sides: DiffSides, previewUrl: string | undefined, perDiagram: number, maxSections: number): string {
  const out: string[] = [DIFF_COMMENT_MARKER, `### System context: service \`${code(sides.service)}\``, '', `**${escapeMarkdown(summaryLine(diff))}**`, ''];
  out.push(`Compared ${escapeMarkdown(sides.after)} with ${escapeMarkdown(sides.before)}.`);
  if (previewUrl) out.push('', `[See the change on the drawing (preview)](${escapeUrl(previewUrl)})`);
  const changed = diff.diagrams.filter((diagram) => diagram.status !== 'unchanged');
  const limits = { perSection: perDiagram, maxSections };
  const diagramsShortened = pushDetailSections(out, changed, limits, 'more changed diagram', (diagram) => {
    const counts = (['nodes', 'edges', 'groups'] as const).flatMap((part) => countWords(countsOf(diagram, part), SINGULAR[part]));
    return {
      summary: `Diagram ${diagramTitle(diagram, previewUrl)} ${diagram.status}${counts.length ? `: ${escapeHtml(counts.join(', '))}` : ''}`,
      bullets: changeLines(diagram, MARKDOWN).map((line) => `- ${capitalize(line)}`),
    };
  });
  const schemasShortened = pushDetailSections(out, changedSchemas(diff), limits, 'more changed schema', (schema) => ({
    summary: `Schema <code>${escapeHtml(schema.name)}</code> ${schema.status}${escapeHtml(tableCountWords(schema))}`,
    bullets: schemaLines(schema, MARKDOWN).map((line) => `${'  '.repeat(line.depth)}- ${capitalize(line.text)}`),
  }));
  const shortened = diagramsShortened || schemasShortened;
  const others = diff.artifacts.filter((artifact) => artifact.status !== 'unchanged');
  if (others.length) {
    out.push('', '| Artifact | Status | Files |', '|---|---|---|', ...others.map((artifact) => `| ${escapeMarkdown(`${artifact.kind} ${artifact.name}`)} | ${artifact.status} | ${artifact.files.join(', ') || '-'} |`));
  }
  if (shortened) out.push('', '_Shortened to fit a comment: run `service-cli diff` (or `--json`) for every change._');
  return `${out.join('\n')}\n`;
}

/** SQL schemas whose tables were compared and that differ. */
function changedSchemas(diff: ArtifactsDiff): ArtifactDiffEntry[] {
  return diff.artifacts.filter((artifact) => artifact.tables !== undefined && artifact.status !== 'unchanged');
}

function tripleText(counts: CountTriple): string {
  return `${counts.added}/${counts.removed}/${counts.changed}`;
}

function countsOf(diagram: DiagramDiffEntry, part: Part): CountTriple {
  return { added: diagram[part].added.length, removed: diagram[part].removed.length, changed: diagram[part].changed.length };
}

/** The diagram's name, linked to its section of the preview page when there is one (a removed diagram is not drawn there). */
function diagramTitle(diagram: DiagramDiffEntry, previewUrl: string | undefined): string {
  const name = `<code>${escapeHtml(diagram.name)}</code>`;
  if (!previewUrl || diagram.status === 'removed') return name;
  return `<a href="${escapeHtml(previewDiagramUrl(previewUrl, diagram.name))}">${name}</a>`;
}

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** Text inside an inline code span: backticks cannot be escaped there, so they become a look-alike. */
function code(text: string): string {
  return text.replace(/`/g, 'ˋ').replace(/\r?\n/g, ' ');
}

/** Labels come from the repository: no HTML, links or emphasis of theirs may render in the comment. */
function escapeMarkdown(text: string): string {
  return escapeHtml(text).replace(/([\\`*_[\]|#!~])/g, '\\$1').replace(/\r?\n/g, ' ');
}

function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

function escapeUrl(url: string): string {
  return url.replace(/[()\s<>]/g, (char) => encodeURIComponent(char));
}
