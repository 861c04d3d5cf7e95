import ELK from 'elkjs/lib/elk.bundled.js';
import type { APIRequestContext, Page } from 'playwright-core';
import type { DatabaseView } from '@sc/contracts';
import { LayoutCache, defaultViewLayoutInput, drawingOf, layoutDiagram, routeCrossings, type Crossing, type Drawing, type OverlaidGraph } from '@sc/diagram';

/**
 * What a person reads from a drawn diagram, checked on its geometry: no edge through a box it does not connect, no
 * frame it neither enters nor leaves, no label on a box (libs/diagram's routeCrossings).
 */

/**
 * The drawing on the page's canvas in screen pixels: node and collapsed-group boxes, expanded groups' frames, every
 * edge path sampled along its length (so curves and rounded corners count), and edge labels. A group is the parent
 * of the smallest other frame holding its box, as a correct drawing nests them.
 */
export async function drawnGeometry(page: Page): Promise<Drawing> {
  const raw = await page.getByTestId('diagram-canvas').evaluate((canvas) => {
    const rect = (element: Element) => {
      const r = element.getBoundingClientRect();
      return { x: r.x, y: r.y, width: r.width, height: r.height };
    };
    const nodes: Record<string, { x: number; y: number; width: number; height: number }> = {};
    const frames: Record<string, { x: number; y: number; width: number; height: number }> = {};
    for (const element of Array.from(canvas.querySelectorAll('vflow [data-node-id]'))) nodes[element.getAttribute('data-node-id') ?? ''] = rect(element);
    for (const group of Array.from(canvas.querySelectorAll('vflow [data-group-id]'))) {
      const frame = group.querySelector('rect.frame');
      if (frame) (group.classList.contains('collapsed') ? nodes : frames)[group.getAttribute('data-group-id') ?? ''] = rect(frame);
    }
    const edges = Array.from(canvas.querySelectorAll('vflow [data-edge-key]')).map((edge) => {
      const path = edge.querySelector('path.edge-line') as SVGPathElement | null;
      const points: { x: number; y: number }[] = [];
      const matrix = path?.getScreenCTM();
      if (path && matrix) {
        const length = path.getTotalLength();
        const step = Math.max(2, length / 400);
        for (let at = 0; at < length + step; at += step) {
          const point = path.getPointAtLength(Math.min(at, length)).matrixTransform(matrix);
          points.push({ x: point.x, y: point.y });
        }
      }
      const label = edge.querySelector('.edge-label rect');
      return {
        key: edge.getAttribute('data-edge-key') ?? '',
        source: edge.getAttribute('data-edge-source') ?? '',
        target: edge.getAttribute('data-edge-target') ?? '',
        points,
        ...(label ? { label: rect(label) } : {}),
      };
    });
    return { nodes, frames, edges };
  });
  const parentOf: Record<string, string | undefined> = {};
  const area = (box: { width: number; height: number }) => box.width * box.height;
  for (const [id, box] of [...Object.entries(raw.nodes), ...Object.entries(raw.frames)]) {
    let parent: string | undefined;
    for (const [frameId, frame] of Object.entries(raw.frames)) {
      if (frameId === id || area(frame) <= area(box)) continue;
      const holds = frame.x <= box.x + 0.5 && frame.y <= box.y + 0.5 && frame.x + frame.width >= box.x + box.width - 0.5 && frame.y + frame.height >= box.y + box.height - 0.5;
      if (holds && (parent === undefined || area(frame) < area(raw.frames[parent]))) parent = frameId;
    }
    parentOf[id] = parent;
  }
  return { ...raw, parentOf };
}

/** Crossings on the canvas as drawn now, described one per line for a readable failure. */
export async function drawnCrossings(page: Page): Promise<string[]> {
  return routeCrossings(await drawnGeometry(page)).map(describeCrossing);
}

/**
 * Crossings of a synced diagram's default view laid out by the code the canvas and the server run (libs/diagram's
 * model and layout with ELK), from the graph and schemas the server answers: for diagrams too large for the canvas to
 * draw every node at once.
 */
export async function layoutCrossings(request: APIRequestContext, diagramUrl: string): Promise<{ edges: number; crossings: string[] }> {
  const diagram = await getJson<{ graph: OverlaidGraph }>(request, diagramUrl);
  const databases = new Map<string, { tables: DatabaseView['tables']; collections: string[] }>();
  const named = new Set(diagram.graph.nodes.map((node) => node.overlay?.dbConfig?.databaseName).filter((name): name is string => Boolean(name)));
  const base = diagramUrl.replace(/\/diagrams\/.*$/, '');
  for (const name of named) {
    const view = await getJson<DatabaseView>(request, `${base}/databases/${encodeURIComponent(name)}`);
    databases.set(name, { tables: view.tables, collections: view.collections });
  }
  const input = defaultViewLayoutInput(diagram.graph, databases);
  const result = await layoutDiagram(new ELK(), input, new LayoutCache());
  return { edges: input.edges.length, crossings: routeCrossings(drawingOf(input, result)).map(describeCrossing) };
}

async function getJson<T>(request: APIRequestContext, url: string): Promise<T> {
  const response = await request.get(url);
  if (!response.ok()) throw new Error(`GET ${url} answered ${response.status()}: ${await response.text()}`);
  return (await response.json()) as T;
}

export function describeCrossing(crossing: Crossing): string {
  return `${crossing.edge} crosses ${crossing.through.kind} ${crossing.through.id}`;
}
