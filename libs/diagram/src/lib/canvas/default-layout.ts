import type { DiagramLayout } from '@sc/contracts';
import { createView } from '../collapse';
import type { OverlaidGraph } from '../overlay';
import { buildModel, layoutInput, type ModelInput } from './canvas-model';
import { LayoutCache, layoutDiagram, type ElkEngine, type LayoutInput, type LayoutResult } from './layout';

/**
 * The layout of a diagram's default view (every group expanded, no change highlights), computed by the server once
 * per diagram content and drawn by the dashboard on a first visit without running ELK in the browser. Both sides
 * build the layout input with the same code (buildModel, whose node sizes come from the width table in
 * text-size.ts, not from the browser's fonts), so a graph gives one input, and ELK one layout, on both.
 */

/**
 * Names everything a stored layout depends on besides its input: the layout code (options, the per-group passes),
 * the width table and elkjs's version. Change it whenever any of them changes, so stored layouts are computed
 * again and a dashboard of another version falls back to its own ELK (a spec checks the elkjs part).
 */
export const LAYOUT_ENGINE_VERSION = 'layered-1+sizes-1+elkjs-0.12.1';

/** The canvas's layout input for the default view of `graph`, with the databases its data nodes name. */
export function defaultViewLayoutInput(graph: OverlaidGraph, databases: ModelInput['databases']): LayoutInput {
  return layoutInput(buildModel({ view: createView(graph), databases, highlights: null }));
}

/** 53 bits of a string hash (cyrb53): not cryptographic, only to tell two layout inputs apart. */
function hash53(text: string, seed: number): number {
  let h1 = 0xdeadbeef ^ seed;
  let h2 = 0x41c6ce57 ^ seed;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ code, 2654435761);
    h2 = Math.imul(h2 ^ code, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return 4294967296 * (2097151 & h2) + (h1 >>> 0);
}

/** Identifies a layout input (two seeds: 106 bits); synchronous, so the page checks it without waiting. */
export function layoutFingerprint(input: LayoutInput): string {
  const text = JSON.stringify(input);
  return `${hash53(text, 1).toString(36)}.${hash53(text, 2).toString(36)}`;
}

const round = (value: number) => Math.round(value);

/** The layout as the API sends it: boxes and routes only, in whole pixels. */
export function compactLayout(result: LayoutResult, fingerprint: string): DiagramLayout {
  const boxes: DiagramLayout['boxes'] = {};
  for (const [id, box] of Object.entries(result.boxes)) boxes[id] = [round(box.x), round(box.y), round(box.width), round(box.height)];
  const edges: DiagramLayout['edges'] = {};
  for (const [key, route] of Object.entries(result.edges)) {
    edges[key] = {
      points: route.points.flatMap((point) => [round(point.x), round(point.y)]),
      ...(route.label ? { label: [round(route.label.x), round(route.label.y)] } : {}),
    };
  }
  return { engine: LAYOUT_ENGINE_VERSION, fingerprint, width: round(result.width), height: round(result.height), boxes, edges };
}

/** The canvas's layout result from the API's compact form. */
export function expandLayout(layout: DiagramLayout): LayoutResult {
  const boxes: LayoutResult['boxes'] = {};
  for (const [id, [x, y, width, height]] of Object.entries(layout.boxes)) boxes[id] = { x, y, width, height };
  const edges: LayoutResult['edges'] = {};
  for (const [key, route] of Object.entries(layout.edges)) {
    const points = [];
    for (let i = 0; i + 1 < route.points.length; i += 2) points.push({ x: route.points[i], y: route.points[i + 1] });
    edges[key] = { points, ...(route.label ? { label: { x: route.label[0], y: route.label[1] } } : {}) };
  }
  return { width: layout.width, height: layout.height, boxes, edges };
}

/**
 * The server's computation: the default view's layout input, laid out by `elk` exactly as the dashboard's
 * LayoutEngine does (layoutDiagram, one ELK run per group), in compact form.
 */
export async function layoutDefaultView(elk: ElkEngine, graph: OverlaidGraph, databases: ModelInput['databases']): Promise<DiagramLayout> {
  const input = defaultViewLayoutInput(graph, databases);
  const result = await layoutDiagram(elk, input, new LayoutCache());
  return compactLayout(result, layoutFingerprint(input));
}
