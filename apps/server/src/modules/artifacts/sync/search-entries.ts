import type { SyncArtifact } from '@sc/contracts';
import type { OverlaidGraph } from '@sc/diagram';
import type { NewSearchEntry } from '../../search/search.service';
import type { ArtifactAnalysis } from './artifact-analysis';

/** Longest title and text stored per entry: enough for any label or description, bounded for a pathological file. */
const MAX_TITLE = 300;
const MAX_TEXT = 2000;

/**
 * The search index's entries of a service's revision, from the analyses the sync already made (nothing is parsed
 * again): the service, each diagram's nodes and groups (id, label, context name, type and data-field values),
 * each schema's tables and columns, and the Markdown headings of notes and documents.
 */
export function searchEntriesOf(
  service: { name: string; description: string | null },
  artifacts: ReadonlyArray<{ artifact: SyncArtifact; analysis: ArtifactAnalysis }>,
): NewSearchEntry[] {
  const entries: NewSearchEntry[] = [entry(null, 'service', service.name, service.name, [service.description])];
  for (const { artifact, analysis } of artifacts) {
    const ref = { kind: artifact.kind, name: artifact.name };
    if (analysis.type === 'diagram') entries.push(...diagramEntries(ref, analysis.overlaid ?? analysis.graph));
    if (analysis.type === 'sql-schema') {
      for (const table of analysis.tables) {
        entries.push(entry(ref, 'table', table.name, table.name, [table.comment, ...table.columns.map((column) => column.name)]));
        for (const column of table.columns) {
          entries.push(entry(ref, 'column', `${table.name}.${column.name}`, column.name, [table.name, column.type, column.references, column.comment]));
        }
      }
    }
    if (analysis.type === 'json-schema') for (const collection of analysis.collections) entries.push(entry(ref, 'table', collection, collection, []));
    // Headings of the notes file, and of the Markdown artifacts themselves (summary, job notes, documents).
    const markdown = [artifact.notes?.content, analysis.type === 'text' && artifact.file.path.toLowerCase().endsWith('.md') ? artifact.file.content : undefined];
    for (const heading of new Set(markdown.flatMap((content) => (content ? markdownHeadings(content) : [])))) {
      entries.push(entry(ref, 'heading', heading, heading, [artifact.name]));
    }
  }
  return entries;
}

type Ref = NewSearchEntry['artifact'];

function diagramEntries(ref: Ref, graph: OverlaidGraph): NewSearchEntry[] {
  // Edges have no entries of their own: their labels ("writes", "publishes") are text of the nodes they join.
  const edgeLabels = new Map<string, string[]>();
  for (const edge of graph.edges) {
    const label = edge.overlay?.label ?? edge.label;
    if (!label) continue;
    for (const end of new Set([edge.source, edge.target])) edgeLabels.set(end, [...(edgeLabels.get(end) ?? []), label]);
  }
  const nodes = graph.nodes.map((node) => {
    const overlay = node.overlay;
    const data = Object.entries(overlay?.data ?? {}).flatMap(([field, { value }]) => [field, ...(Array.isArray(value) ? value : value === undefined ? [] : [String(value)])]);
    // The table a db-table node binds (dbConfig) is text of the node too: "where is this table used" starts from it.
    const binding = [overlay?.dbConfig?.tableName, overlay?.dbConfig?.databaseName];
    return entry(ref, 'node', node.id, overlay?.name ?? node.label, [node.label, node.id, overlay?.type, node.description, node.technology, overlay?.value, ...binding, ...data, ...new Set(edgeLabels.get(node.id))]);
  });
  const groups = graph.groups.map((group) => entry(ref, 'group', group.id, group.overlay?.name ?? group.label, [group.label, group.id]));
  return [...nodes, ...groups];
}

function entry(artifact: Ref, elementKind: NewSearchEntry['elementKind'], elementId: string, title: string, parts: Array<string | null | undefined>): NewSearchEntry {
  // The label repeats the title unless the context renamed the element: said once, it does not weigh twice.
  const text = parts.filter((part): part is string => typeof part === 'string' && part !== '' && part !== title).join(' · ');
  return { artifact, elementKind, elementId, title: clean(title || elementId).slice(0, MAX_TITLE), text: clean(text).slice(0, MAX_TEXT) };
}

/** Line breaks of labels become spaces; NUL (which PostgreSQL text refuses) is dropped. */
function clean(text: string): string {
  return text.replace(/\0/g, '').replace(/\s+/g, ' ').trim();
}

/** ATX headings (`# Title` … `###### Title`) outside fenced code blocks, in order. */
export function markdownHeadings(markdown: string): string[] {
  const headings: string[] = [];
  let fenced = false;
  for (const line of markdown.split(/\r?\n/)) {
    if (/^\s{0,3}(```|~~~)/.test(line)) fenced = !fenced;
    const match = fenced ? null : /^\s{0,3}#{1,6}\s+(.+?)\s*#*\s*$/.exec(line);
    if (match?.[1]) headings.push(match[1]);
  }
  return headings;
}
