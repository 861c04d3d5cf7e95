/**
 * The graph model every diagram kind is reduced to. Node ids are the ids Mermaid keys its
 * diagram database by (flowchart vertex ids, state ids, participant ids, C4 aliases), so a
 * context file can address them. An edge's source/target may name a group (a flowchart
 * subgraph or a composite state), because Mermaid allows linking to those.
 */
export type DiagramKind = 'flowchart' | 'state' | 'sequence' | 'c4';

export const DIAGRAM_KINDS: readonly DiagramKind[] = ['flowchart', 'state', 'sequence', 'c4'];

export interface GraphNode {
  id: string;
  label: string;
  /** Mermaid's own shape name (flowchart vertex type, state type, participant type, C4 element type). */
  shape?: string;
  /** Id of the group the node is a direct member of. */
  parent?: string;
  /**
   * Flowchart CSS declarations from the node's `classDef` classes, then its own `style` lines (later ones win),
   * as Mermaid read them, e.g. `fill:#f9f`. The admin applies the ones it can check (colours, widths).
   */
  styles?: string[];
  /** C4 elements: description and technology as written. */
  description?: string;
  technology?: string;
}

export interface GraphEdge {
  /** Only ids the author wrote (`e1@-->`); Mermaid's generated ids are not stable and are omitted. */
  id?: string;
  source: string;
  target: string;
  label?: string;
  /** Mermaid's link / message / relationship type, e.g. `arrow_point`, `SOLID_OPEN`, `rel`, `birel`. */
  type?: string;
  /** Flowchart link stroke: `normal`, `thick`, `dotted` or `invisible`. */
  stroke?: string;
  /** Flowchart `linkStyle` CSS declarations, e.g. `stroke:#f00`. */
  styles?: string[];
  /** C4 relationships: technology as written. */
  technology?: string;
}

export interface GraphGroup {
  id: string;
  label: string;
  /** Id of the enclosing group, when nested. */
  parent?: string;
  /** Ids of the direct members: nodes and nested groups. */
  nodes: string[];
  /**
   * C4 boundaries: Mermaid's boundary type as its renderer writes it between brackets under the name
   * (`ENTERPRISE`, `SYSTEM`, `CONTAINER` for the typed boundaries, `system` for a plain `Boundary` unless one is
   * given, `node` for deployment nodes).
   */
  type?: string;
}

/**
 * A transition from or to a `[*]` marker of a state diagram. `[*]` is never a node; the mark
 * records which state starts or ends, inside which composite state (`scope`, undefined at
 * the top level).
 */
export interface StateMark {
  state: string;
  scope?: string;
  label?: string;
}

/** A sequence diagram's block kinds, as Mermaid names their keywords (`par_over` draws as `par`). */
export type SequenceBlockKind = 'loop' | 'alt' | 'opt' | 'par' | 'critical' | 'break' | 'rect';

/**
 * One step of a sequence diagram, in source order: a message (by its index in `edges`), a note, the start of a block
 * with its label (`rect`: its colour as written, in `fill`), a section inside the open block (`else`, `and`,
 * `option`), the end of the innermost open block, or a participant's activation starting or ending.
 */
export type SequenceStep =
  | { kind: 'message'; edge: number }
  | { kind: 'note'; placement: 'left' | 'right' | 'over'; participants: string[]; text: string }
  | { kind: 'block'; block: SequenceBlockKind; label: string; fill?: string }
  | { kind: 'section'; label: string }
  | { kind: 'end' }
  | { kind: 'activate' | 'deactivate'; participant: string };

export interface GraphModel {
  kind: DiagramKind;
  /** Flowchart / state direction (TB, TD, BT, LR, RL) when the source states one. */
  direction?: string;
  nodes: GraphNode[];
  edges: GraphEdge[];
  groups: GraphGroup[];
  /** State diagrams only: transitions from `[*]`. */
  start?: StateMark[];
  /** State diagrams only: transitions to `[*]`. */
  end?: StateMark[];
  /**
   * Sequence diagrams only, and only when they have notes, blocks or activations: every step in source order (the
   * messages by index into `edges`). Without it the messages are the whole diagram, in `edges` order.
   */
  steps?: SequenceStep[];
}

export type IssueSeverity = 'error' | 'warning';

/** One problem found in a Mermaid file or a context file, with where it is. */
export interface DiagramIssue {
  code: DiagramIssueCode;
  message: string;
  severity: IssueSeverity;
  /** 1-based line in the file the issue is about. */
  line?: number;
  /** 1-based column. */
  column?: number;
  /** JSON path into a context file, e.g. `$.nodes.api.style.fill`. */
  path?: string;
  /** What was expected instead: Mermaid's expected tokens, or the allowed values. */
  expected?: string[];
  /** A suggestion for fixing it ("did you mean API?"). */
  hint?: string;
  /** Which file the issue is about; filled in by validateDiagramWithContext. */
  file?: string;
  /**
   * The author's source line with a caret under the column (`sourceExcerpt`), for a monospaced display under the
   * message. Mermaid issues with a position carry one.
   */
  excerpt?: string;
  /** The parser's own report (found token, expected tokens), for a verbose or "details" view only; never in `message`. */
  detail?: string;
}

export enum DiagramIssueCode {
  UnsupportedDiagramKind = 'unsupported_diagram_kind',
  EmptyDiagram = 'empty_diagram',
  MermaidSyntaxError = 'mermaid_syntax_error',
  DiagramTooLarge = 'diagram_too_large',
  ContextInvalidJson = 'context_invalid_json',
  /** Objects and arrays nested deeper than MAX_JSON_DEPTH. */
  ContextTooDeep = 'context_too_deep',
  /** A string decoding to a NUL or an unpaired surrogate, which no database can store. */
  UnstorableCharacter = 'unstorable_character',
  ContextTooLarge = 'context_too_large',
  ContextInvalidValue = 'context_invalid_value',
  ContextUnknownProperty = 'context_unknown_property',
  ContextUnmatchedKey = 'context_unmatched_key',
  ContextAmbiguousKey = 'context_ambiguous_key',
  ContextUnknownDatabase = 'context_unknown_database',
  ExportUnsupportedId = 'export_unsupported_id',
  /** A drawn graph (JSON) that is not a well-formed flowchart graph: see validateDrawnGraph. */
  GraphInvalid = 'graph_invalid',
}
