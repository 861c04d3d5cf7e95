/**
 * Worker thread entry of DiagramLayoutService: lays out a diagram's default view with ELK off the server's event
 * loop (a 1,000-node diagram takes seconds of CPU), and renders a diagram's image (SVG, and PNG with resvg) the same
 * way. The service names this file; the server's build emits it next to the service as diagram-layout-worker.js.
 */
import ELK from 'elkjs/lib/elk.bundled.js';
import { Resvg } from '@resvg/resvg-js';
import type { ArrangementLists, DiagramLayout } from '@sc/contracts';
import {
  LayoutCache,
  arrangeWithElk,
  buildModel,
  collapseGroups,
  createView,
  diagramSvg,
  fitPngScale,
  sequenceSvg,
  layoutDefaultView,
  layoutDiagram,
  layoutFingerprint,
  layoutInput,
  replayLayout,
  withoutRemoteImages,
  type DiagramTheme,
  type ModelInput,
  type OverlaidGraph,
} from '@sc/diagram';
import { serveWorkerJobs } from '@sc/diagram/node';

/** Service → thread: the graph with its overlays and the schemas of the databases its data nodes name. */
export interface DiagramLayoutRequest {
  graph: OverlaidGraph;
  databases: [string, LayoutDatabase][];
  /** Present for an image: what to draw instead of the stored layout. */
  image?: DiagramImageJob;
}

/** An image of the diagram: the view with `collapsed` groups, as SVG or as PNG at `scale`. */
export interface DiagramImageJob {
  collapsed: string[];
  /** The stored default-view layout, replayed (no ELK run) when it fits the view drawn. */
  stored: DiagramLayout | null;
  /** The diagram's saved arrangement, applied over the automatic layout as the dashboard does; null: none. */
  arrangement: ArrangementLists | null;
  format: 'svg' | 'png';
  /** The PNG scale asked for; reduced to fit `maxPixels` (libs/diagram fitPngScale). */
  scale: number;
  theme: DiagramTheme;
  /** A PNG has at most this many pixels: rendered smaller, or not at all below the minimum scale (`tooLarge`). */
  maxPixels: number;
}

/**
 * Thread → service for an image: the bytes (a PNG with the scale it was rendered at), or the size the PNG would have
 * had at the minimum scale.
 */
export type DiagramImage = { svg: string; width: number; height: number; png?: Uint8Array; scale?: number } | { tooLarge: { width: number; height: number } };

export type LayoutDatabase = ModelInput['databases'] extends ReadonlyMap<string, infer Database> ? Database : never;

const elk = new ELK();

/**
 * The canvas's model of the view, its layout (the stored one replayed when it is the same input, else ELK here in
 * the thread, then the saved arrangement applied over it, what it does not place put by ELK here too) and the drawing (libs/diagram render-svg.ts). Pictures by URL are left out: the image references
 * nothing outside itself.
 */
async function canvasSvg(graph: OverlaidGraph, databases: ModelInput['databases'], job: DiagramImageJob): Promise<string> {
  const view = job.collapsed.length ? collapseGroups(createView(graph), job.collapsed) : createView(graph);
  const model = buildModel({ view, databases, highlights: null });
  const input = layoutInput(model);
  const automatic =
    job.stored && job.stored.fingerprint === layoutFingerprint(input) ? await replayLayout(job.stored, input, new LayoutCache()) : await layoutDiagram(elk, input, new LayoutCache());
  const { layout } = await arrangeWithElk(elk, input, automatic, job.arrangement);
  return withoutRemoteImages(diagramSvg(model, layout, job.theme));
}

/** The image: a sequence diagram drawn by sequence-svg.ts (no layout), any other as the canvas draws it; PNG by resvg. */
async function renderImage(graph: OverlaidGraph, databases: ModelInput['databases'], job: DiagramImageJob): Promise<DiagramImage> {
  const svg = graph.kind === 'sequence' ? sequenceSvg(graph, job.theme) : await canvasSvg(graph, databases, job);
  const size = /^<svg[^>]* width="(\d+)" height="(\d+)"/.exec(svg);
  const width = Number(size?.[1] ?? 0);
  const height = Number(size?.[2] ?? 0);
  if (job.format === 'svg') return { svg, width, height };
  const fit = fitPngScale(width, height, job.scale, job.maxPixels);
  if (!fit.ok) return { tooLarge: { width: fit.width, height: fit.height } };
  // System fonts only: nothing is fetched, and text falls back to the machine's sans-serif.
  const png = new Resvg(svg, { fitTo: { mode: 'zoom', value: fit.scale }, font: { loadSystemFonts: true }, logLevel: 'off' }).render().asPng();
  return { svg, width, height, png: new Uint8Array(png), scale: fit.scale };
}

serveWorkerJobs((request: DiagramLayoutRequest): Promise<DiagramLayout | DiagramImage> => {
  const databases = new Map(request.databases);
  return request.image ? renderImage(request.graph, databases, request.image) : layoutDefaultView(elk, request.graph, databases);
});
