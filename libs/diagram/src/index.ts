// Browser-safe entry point: graph model, context validation and application, collapse, export.
// Nothing here may import Node built-ins, jsdom or mermaid: the Angular app bundles it.
export * from './lib/model';
export * from './lib/context/context-types';
export * from './lib/overlay';
export * from './lib/view';
export { detectDiagramKind, type DetectKindResult } from './lib/detect-kind';
export { parseContextJson } from './lib/context/parse-context';
export { contextJsonSchema, contextReferenceMarkdown, CONTEXT_OBJECTS, CONTEXT_SCHEMA_FILE, CONTEXT_SCHEMA_PATH, EXAMPLE_CONTEXT, EXAMPLE_MERMAID, INPUT_TYPE_EXAMPLES, NODE_TYPE_EXAMPLES, type ContextObjectName, type FieldDoc, type FieldType, type ObjectDoc } from './lib/context/context-reference';
export { parseStrictJson, jsonPath, type StrictJsonResult } from './lib/context/strict-json';
export { applyContext } from './lib/apply-context';
export { createView, collapseGroup, collapseGroups, expandGroup } from './lib/collapse';
export { exportToMermaid, DiagramExportError, flowchartIdProblem, isWritableFlowchartShape, FLOWCHART_LINK_STROKES, type ExportResult } from './lib/export-mermaid';
export { validateDrawnGraph, FLOWCHART_DIRECTIONS, type DrawnGraphValidation } from './lib/validate-graph';
export { MERMAID_SHAPE_NAMES } from './lib/mermaid-shapes';
export { validateParsedDiagram, type ParsedDiagram, type ValidateDiagramOptions, type ValidateDiagramResult } from './lib/validate-parsed';
export { positionOf } from './lib/source-map';
export { atPosition, explainMermaidSyntaxError, rawParserDetail, sourceExcerpt, type MermaidSyntaxWords, type RawMermaidSyntaxError } from './lib/mermaid-syntax-words';
export { hintToAdd } from './lib/issue-hint';
export { isColor } from './lib/context/colors';
export { withParticipantNames } from './lib/sequence-names';
// The canvas's model (node sizes from a width table, not the browser's fonts), its layout, and the default view's
// layout the server computes once per diagram content (the dashboard draws a first visit from it).
export * from './lib/canvas/text-size';
export * from './lib/canvas/shapes';
export * from './lib/canvas/canvas-types';
export { GROUP_NAME_ROOM, GROUP_TITLE_FONT, TABLE_NOT_FOUND, c4TypeLine, canvasNode, groupBox, groupHeaderExtra, plainLabel, rowsUnderOutline, safeImageSource } from './lib/canvas/node-look';
export * from './lib/canvas/edge-look';
export * from './lib/canvas/canvas-model';
export * from './lib/canvas/layout';
export * from './lib/canvas/small-steps';
export * from './lib/canvas/default-layout';
export * from './lib/canvas/route-check';
// The drawing as a standalone SVG (the dashboard's Export and the server's image.svg / image.png).
export * from './lib/canvas/edge-path';
export { ICON_PATHS } from './lib/canvas/icons';
export { diagramSvg, withoutRemoteImages } from './lib/canvas/render-svg';
export { DIAGRAM_THEMES, type DiagramTheme } from './lib/canvas/palette';
export { sequenceSvg } from './lib/canvas/sequence-svg';
export * from './lib/canvas/png-scale';
// The revision compare of the dashboard (server) and `service-cli diff`: one diff of two graph models.
export { diffGraphs, keyEdges, type DiffableGraph, type GraphDiff } from './lib/graph-diff';
// Schemas compared table by table and column by column (`service-cli diff`), from the SQL parsers' table model.
export { diffSqlTables, type SchemaColumnChange, type SchemaDiff, type SchemaTableChange } from './lib/schema-diff';
export * from './lib/canvas/arrangement';
export * from './lib/canvas/elk-placement';
