import { DEFAULT_EDGE_COLOUR } from './edge-look';

export type DiagramTheme = 'light' | 'dark';
export const DIAGRAM_THEMES: readonly DiagramTheme[] = ['light', 'dark'];

/** The colours the drawing does not take from the diagram (a context's or Mermaid's own style colours stay as given). */
export interface Palette {
  background: string;
  ink: string;
  muted: string;
  link: string;
  /** Default outline of shapes and Mermaid nodes. */
  outline: string;
  mermaidFill: string;
  shapeFill: string;
  cardFill: string;
  cardStroke: string;
  divider: string;
  rowDivider: string;
  codeFill: string;
  tableHeader: string;
  tableStroke: string;
  commentFill: string;
  commentStroke: string;
  groupStroke: string;
  groupFill: string;
  groupTitle: string;
  /** Edges and markers without a colour of their own (DEFAULT_EDGE_COLOUR) are drawn in this one. */
  edge: string;
  status: Record<'added' | 'changed' | 'removed', string>;
}

/** Light: the canvas's own colours (canvas-node.component.scss). Dark: GitHub-dark-like surfaces, the same hues lighter. */
export const PALETTES: Record<DiagramTheme, Palette> = {
  light: {
    background: '#ffffff',
    ink: '#1f2933',
    muted: '#5f6b7a',
    link: '#0b57d0',
    outline: '#4a5a70',
    mermaidFill: '#f3f6fa',
    shapeFill: '#eef3fb',
    cardFill: '#ffffff',
    cardStroke: '#9aa8ba',
    divider: '#e3e8ef',
    rowDivider: '#eef1f5',
    codeFill: '#f6f8fa',
    tableHeader: '#f1f4f8',
    tableStroke: '#d5dce5',
    commentFill: '#fff8c5',
    commentStroke: '#d4a72c',
    groupStroke: '#9aa8ba',
    groupFill: 'rgba(31,111,235,0.04)',
    groupTitle: '#344256',
    edge: DEFAULT_EDGE_COLOUR,
    status: { added: '#1a7f37', changed: '#b7791f', removed: '#c62828' },
  },
  dark: {
    background: '#0d1117',
    ink: '#e6edf3',
    muted: '#9da7b3',
    link: '#79b8ff',
    outline: '#8b9bb0',
    mermaidFill: '#1b2430',
    shapeFill: '#1a2536',
    cardFill: '#161b22',
    cardStroke: '#4b5a6e',
    divider: '#30363d',
    rowDivider: '#21262d',
    codeFill: '#0d1117',
    tableHeader: '#21262d',
    tableStroke: '#30363d',
    commentFill: '#3a3217',
    commentStroke: '#b08d2a',
    groupStroke: '#56657a',
    groupFill: 'rgba(121,184,255,0.06)',
    groupTitle: '#c9d4e0',
    edge: '#9da7b3',
    status: { added: '#3fb950', changed: '#d29922', removed: '#f85149' },
  },
};

