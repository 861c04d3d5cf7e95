import { TYPE_SPECIFIC_FIELDS, type ContextNode, type DataField, type NodeStyle, type NodeType, type OverlaidNode } from '@sc/diagram';
import { compact, withField } from './element-checks';

/** The node with its overlay patched: a key set to undefined is removed, and an overlay left empty is dropped. */
export function withOverlay(node: OverlaidNode, patch: Partial<ContextNode>): OverlaidNode {
  return withField(node, 'overlay', compact({ ...node.overlay, ...patch }));
}

/** The node with its style patched (empty strings and NaN are "unset"), the style dropped when nothing is left. */
export function withStyle(node: OverlaidNode, patch: Partial<NodeStyle>): OverlaidNode {
  return withOverlay(node, { style: compact({ ...node.overlay?.style, ...patch }) });
}

/**
 * The node as another type: fields that belong to other types only (a shape on a table node) are dropped, since
 * the context rules refuse or ignore them. Choosing no type keeps only the common fields.
 */
export function withType(node: OverlaidNode, type: NodeType | undefined): OverlaidNode {
  const patch: Partial<ContextNode> = { type };
  for (const [key, types] of Object.entries(TYPE_SPECIFIC_FIELDS)) {
    if (type === undefined || !types.includes(type)) (patch as Record<string, undefined>)[key] = undefined;
  }
  return withOverlay(node, patch);
}

/** One data field as the panel lists it: the overlay keys data fields by label, the list keeps their order. */
export interface DataFieldEntry {
  label: string;
  field: DataField;
}

export function dataEntries(node: OverlaidNode): DataFieldEntry[] {
  return Object.entries(node.overlay?.data ?? {}).map(([label, field]) => ({ label, field }));
}

/** The node with these data fields, in this order (an empty list removes `data`). */
export function withData(node: OverlaidNode, entries: readonly DataFieldEntry[]): OverlaidNode {
  return withOverlay(node, { data: entries.length === 0 ? undefined : Object.fromEntries(entries.map((entry) => [entry.label, entry.field])) });
}
