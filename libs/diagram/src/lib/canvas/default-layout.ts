import type { DiagramLayout, DiagramLayoutContainer } from '@sc/contracts';
import type { ElkNode } from 'elkjs/lib/elk-api';
import { createView } from '../collapse';
import type { OverlaidGraph } from '../overlay';
import { buildModel, layoutInput } from './canvas-model';
import type { ModelInput } from './canvas-types';
import { LayoutCache, containerGraph, layoutDiagram, type ElkEngine, type LayoutInput, type LayoutResult } from './layout';

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
export const LAYOUT_ENGINE_VERSION = 'layered-13+sizes-3+elkjs-0.12.1';

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

const round = (value: number) => Math.round(value * 100) / 100;
/** The top level's id starts with NUL, which PostgreSQL's jsonb cannot hold: it is stored under ''. */
const containerKey = (id: string) => (id.startsWith('\u0000') ? '' : id);

type Sizes = Map<string, { width?: number; height?: number }>;

/** ELK's result for one container, compact (see DiagramLayoutContainer); `given`: its members' sizes as handed to ELK. */
function compactContainer(result: ElkNode, given: Sizes): DiagramLayoutContainer {
  const children: DiagramLayoutContainer['children'] = {};
  for (const child of result.children ?? []) {
    const at: [number, number] = [round(child.x ?? 0), round(child.y ?? 0)];
    const before = given.get(child.id);
    const grown = before && (round(child.width ?? 0) !== round(before.width ?? 0) || round(child.height ?? 0) !== round(before.height ?? 0));
    children[child.id] = grown ? [...at, round(child.width ?? 0), round(child.height ?? 0)] : at;
  }
  const edges: DiagramLayoutContainer['edges'] = {};
  for (const edge of result.edges ?? []) {
    const section = edge.sections?.[0];
    const label = edge.labels?.[0];
    edges[edge.id] = {
      points: section ? [section.startPoint, ...(section.bendPoints ?? []), section.endPoint].flatMap((point) => [round(point.x), round(point.y)]) : [],
      ...(label ? { label: [round(label.x ?? 0), round(label.y ?? 0)] } : {}),
    };
  }
  const ports: NonNullable<DiagramLayoutContainer['ports']> = {};
  for (const port of result.ports ?? []) ports[port.id] = [round(port.x ?? 0), round(port.y ?? 0)];
  return { width: round(result.width ?? 0), height: round(result.height ?? 0), children, edges, ...(result.ports?.length ? { ports } : {}) };
}

/** The ELK result a container's graph had, rebuilt from its compact form (sizes from the graph itself, unless stored). */
function replayContainer(graph: ElkNode, stored: DiagramLayoutContainer): ElkNode {
  return {
    id: graph.id,
    width: stored.width,
    height: stored.height,
    ...(graph.ports
      ? {
          ports: graph.ports.map((port) => {
            const position = stored.ports?.[port.id];
            if (!position) throw new Error(`The stored layout has no position for port ${port.id}.`);
            return { ...port, x: position[0], y: position[1] };
          }),
        }
      : {}),
    children: (graph.children ?? []).map((child) => {
      const position = stored.children[child.id];
      if (!position) throw new Error(`The stored layout has no position for ${child.id}.`);
      const [x, y, width, height] = position;
      return { ...child, x, y, ...(width !== undefined && height !== undefined ? { width, height } : {}) };
    }),
    edges: (graph.edges ?? []).map((edge) => {
      const route = stored.edges[edge.id];
      if (!route) throw new Error(`The stored layout has no route for ${edge.id}.`);
      const points: { x: number; y: number }[] = [];
      for (let i = 0; i + 1 < route.points.length; i += 2) points.push({ x: route.points[i], y: route.points[i + 1] });
      const [startPoint, ...rest] = points;
      const endPoint = rest.pop();
      return {
        ...edge,
        ...(startPoint && endPoint ? { sections: [{ id: `${edge.id}\u0000s`, startPoint, endPoint, bendPoints: rest }] } : {}),
        ...(edge.labels && route.label ? { labels: edge.labels.map((label) => ({ ...label, x: route.label?.[0], y: route.label?.[1] })) } : {}),
      };
    }),
  };
}

/**
 * The layout a stored DiagramLayout stands for, for `input` (whose fingerprint it carries): layoutDiagram run with
 * the stored ELK results in place of ELK, so the drawing is computed by the same code as after an ELK run, and
 * `cache` keeps every container's result for later collapses.
 */
export function replayLayout(layout: DiagramLayout, input: LayoutInput, cache: LayoutCache): Promise<LayoutResult> {
  const stored: ElkEngine = {
    layout: async (frame) => {
      const graph = containerGraph(frame);
      const container = graph && layout.containers[containerKey(graph.id)];
      if (!graph || !container) throw new Error(`The stored layout has no container ${graph?.id ?? frame.id}.`);
      return { ...frame, children: [replayContainer(graph, container)] };
    },
  };
  return layoutDiagram(stored, input, cache);
}

/** `input` laid out by `elk` with layoutDiagram, each container's ELK result kept in compact form. */
export async function recordLayout(elk: ElkEngine, input: LayoutInput): Promise<DiagramLayout> {
  const containers: DiagramLayout['containers'] = {};
  const recording: ElkEngine = {
    layout: async (frame) => {
      // ELK writes its result into the graph it is given: the sizes as given are read before.
      const given: Sizes = new Map((containerGraph(frame)?.children ?? []).map(({ id, width, height }) => [id, { width, height }]));
      const result = await elk.layout(frame);
      const graph = containerGraph(result);
      if (graph) containers[containerKey(graph.id)] = compactContainer(graph, given);
      return result;
    },
  };
  await layoutDiagram(recording, input, new LayoutCache());
  return { engine: LAYOUT_ENGINE_VERSION, fingerprint: layoutFingerprint(input), containers };
}

/**
 * The server's computation: the default view's layout input, laid out by `elk` exactly as the dashboard's
 * LayoutEngine does (layoutDiagram, one ELK run per container).
 */
export function layoutDefaultView(elk: ElkEngine, graph: OverlaidGraph, databases: ModelInput['databases']): Promise<DiagramLayout> {
  return recordLayout(elk, defaultViewLayoutInput(graph, databases));
}
