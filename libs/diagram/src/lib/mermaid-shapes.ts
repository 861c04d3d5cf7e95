/**
 * The shape names Mermaid 12.3 accepts in a flowchart's `@{ shape: … }` (its shape registry, without the
 * names it refuses there: upper case or `_`). A drawn graph may give a node any of these; export writes them
 * as they are. node/mermaid-shapes.spec.ts checks every one against Mermaid's parser.
 */
export const MERMAID_SHAPE_NAMES: ReadonlySet<string> = new Set([
  'state', 'choice', 'note', 'composite', 'icon', 'anchor', 'bpmn-start', 'bpmn-intermediate', 'bpmn-boundary',
  'bpmn-end', 'bpmn-gateway', 'bpmn-activity', 'bpmn-data', 'bpmn-data-store', 'bpmn-annotation', 'rect', 'proc',
  'process', 'rectangle', 'rounded', 'event', 'stadium', 'terminal', 'pill', 'fr-rect', 'subprocess', 'subproc',
  'framed-rectangle', 'subroutine', 'cyl', 'db', 'database', 'cylinder', 'datastore', 'data-store', 'folder',
  'directory', 'bucket', 'console', 'browser', 'person', 'circle', 'circ', 'bang', 'cloud', 'diam', 'decision',
  'diamond', 'question', 'hex', 'hexagon', 'prepare', 'lean-r', 'lean-right', 'in-out', 'lean-l', 'lean-left',
  'out-in', 'trap-b', 'priority', 'trapezoid-bottom', 'trapezoid', 'trap-t', 'manual', 'trapezoid-top',
  'inv-trapezoid', 'dbl-circ', 'double-circle', 'doublecircle', 'text', 'notch-rect', 'card', 'notched-rectangle',
  'lin-rect', 'lined-rectangle', 'lined-process', 'lin-proc', 'shaded-process', 'sm-circ', 'start', 'small-circle',
  'fr-circ', 'stop', 'framed-circle', 'fork', 'join', 'hourglass', 'collate', 'brace', 'comment', 'brace-l',
  'brace-r', 'braces', 'bolt', 'com-link', 'lightning-bolt', 'doc', 'document', 'delay', 'half-rounded-rectangle',
  'h-cyl', 'das', 'horizontal-cylinder', 'lin-cyl', 'disk', 'lined-cylinder', 'curv-trap', 'curved-trapezoid',
  'display', 'div-rect', 'div-proc', 'divided-rectangle', 'divided-process', 'tri', 'extract', 'triangle',
  'win-pane', 'internal-storage', 'window-pane', 'f-circ', 'junction', 'filled-circle', 'notch-pent', 'loop-limit',
  'notched-pentagon', 'flip-tri', 'manual-file', 'flipped-triangle', 'sl-rect', 'manual-input', 'sloped-rectangle',
  'docs', 'documents', 'st-doc', 'stacked-document', 'st-rect', 'procs', 'processes', 'stacked-rectangle',
  'bow-rect', 'stored-data', 'bow-tie-rectangle', 'cross-circ', 'summary', 'crossed-circle', 'tag-doc',
  'tagged-document', 'tag-rect', 'tagged-rectangle', 'tag-proc', 'tagged-process', 'flag', 'paper-tape', 'odd',
  'lin-doc', 'lined-document',
]);
