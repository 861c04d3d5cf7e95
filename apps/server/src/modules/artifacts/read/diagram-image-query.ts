import { ArtifactsErrorCode, artifactsError } from '../artifacts.errors';
import type { DiagramImageOptions } from '../layouts/diagram-layout.service';

/** The query of image.svg / image.png: `?collapsed=g1,g2`, `?theme=light|dark`, `?scale=1..4` (PNG, default 2). */
export interface DiagramImageQuery {
  collapsed?: unknown;
  theme?: unknown;
  scale?: unknown;
}

function invalid(message: string): Error {
  return artifactsError(ArtifactsErrorCode.InvalidImageQuery, message);
}

/** The options the query asks for, or 400 invalid_diagram_image_query. */
export function diagramImageOptions(query: DiagramImageQuery, format: 'svg' | 'png'): DiagramImageOptions {
  if (query.collapsed !== undefined && typeof query.collapsed !== 'string') throw invalid('?collapsed= is given more than once; write the group ids comma-separated in one.');
  const collapsed = (query.collapsed ?? '')
    .split(',')
    .map((id) => id.trim())
    .filter(Boolean);
  if (query.theme !== undefined && query.theme !== 'light' && query.theme !== 'dark') throw invalid('?theme= must be light or dark.');
  const theme = query.theme ?? 'light';
  let scale = 2;
  if (query.scale !== undefined) {
    if (format === 'svg') throw invalid('?scale= applies to image.png only; an SVG scales itself.');
    if (typeof query.scale !== 'string' || !/^[1-4]$/.test(query.scale)) throw invalid('?scale= must be a whole number from 1 to 4.');
    scale = Number(query.scale);
  }
  return { collapsed, format, scale, theme };
}
