/** The context JSON overlay, as the spec's "Context JSON" tables define it. */

export const NODE_TYPES = [
  'shape', 'text', 'code', 'table', 'comment', 'cloud', 'image', 'gif', 'component', 'data-source', 'db-table',
] as const;
export type NodeType = (typeof NODE_TYPES)[number];

export const SHAPES = [
  'rectangle', 'rounded-rect', 'ellipse', 'diamond', 'triangle', 'parallelogram', 'trapezoid', 'hexagon',
  'document', 'cylinder', 'delay', 'off-page-connector', 'display', 'collate', 'sort', 'terminator', 'or',
  'database', 'multiple-documents', 'subroutine', 'manual-input', 'summing-junction', 'internal-storage',
] as const;
export type ContextShape = (typeof SHAPES)[number];

/** Node overlay fields that apply to some node types only (the spec's "type=…" notes), and those types. */
export const TYPE_SPECIFIC_FIELDS: Readonly<Record<string, readonly NodeType[]>> = {
  shape: ['shape'],
  value: ['text', 'code'],
  table: ['table'],
  cloud: ['cloud'],
  service: ['cloud'],
  src: ['image', 'gif'],
  animatedIcon: ['gif'],
  componentId: ['component'],
  dbConfig: ['data-source', 'db-table'],
};

export const STROKE_STYLES = ['solid', 'dashed', 'dotted'] as const;
export type StrokeStyle = (typeof STROKE_STYLES)[number];

export const INPUT_TYPE_LABELS = [
  'Text Input', 'URL Input', 'Number Input', 'Text Editor', 'Date Picker', 'Dropdown', 'Multi Select',
  'Boolean Toggle', 'Link or File Upload', 'Rich Text Editor', 'Code Editor', 'Key-Value List', 'Tag Input',
  'Date Range Picker', 'Color Picker', 'Slider', 'File Upload', 'Search Select', 'Checkbox Group',
] as const;
export type InputTypeLabel = (typeof INPUT_TYPE_LABELS)[number];

export interface NodeStyle {
  fill?: string;
  stroke?: string;
  strokeWidth?: number;
  borderRadius?: number;
  strokeStyle?: StrokeStyle;
  borderAnimationEnabled?: boolean;
}

export interface DataField {
  type: InputTypeLabel;
  value?: string | number | string[];
  options?: unknown[];
}

export interface DbConfig {
  serviceName: string;
  databaseName: string;
  tableName: string;
}

export interface ContextNode {
  type?: NodeType;
  name?: string;
  data?: Record<string, DataField>;
  style?: NodeStyle;
  shape?: ContextShape;
  value?: string;
  table?: { columns?: string[]; rows?: string[][] };
  cloud?: string;
  service?: string;
  src?: string;
  animatedIcon?: string;
  componentId?: string;
  dbConfig?: DbConfig;
}

export interface EdgeStyle {
  stroke?: string;
  strokeWidth?: number;
  strokeStyle?: StrokeStyle;
  borderAnimationEnabled?: boolean;
}

export interface Marker {
  type: string;
  color?: string;
}

export interface ContextEdge {
  label?: string;
  style?: EdgeStyle;
  markerStart?: Marker;
  markerEnd?: Marker;
}

export interface ContextGroup {
  name?: string;
  nodes?: string[];
}

export interface DiagramContext {
  name?: string;
  description?: string;
  nodes?: Record<string, ContextNode>;
  edges?: Record<string, ContextEdge>;
  groups?: Record<string, ContextGroup>;
}
