// Moved to libs/diagram (canvas/canvas-model.ts): the server builds the same model to lay out a diagram's default
// view, so both sides give every node the same size.
export { DEFAULT_EDGE_COLOUR, ModelReuse, buildModel, canvasEdge, canvasNode, edgeKeys, layoutDirection, layoutInput, plainLabel, safeImageSource } from '@sc/diagram';
export type {
  CanvasEdge,
  CanvasGroup,
  CanvasModel,
  CanvasNode,
  ChangeStatus,
  DataRow,
  Highlights,
  MarkerSpec,
  MarkerType,
  ModelInput,
  NodeBody,
  NodeKind,
  NodeLook,
  StrokeDash,
  TableColumns,
} from '@sc/diagram';
