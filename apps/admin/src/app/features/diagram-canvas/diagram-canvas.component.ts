import {
  ChangeDetectionStrategy,
  Component,
  ElementRef,
  ViewEncapsulation,
  computed,
  effect,
  inject,
  input,
  output,
  signal,
  untracked,
  viewChild,
  type WritableSignal,
} from '@angular/core';
import { MatButtonModule } from '@angular/material/button';
import { MatIconModule } from '@angular/material/icon';
import { MatTooltipModule } from '@angular/material/tooltip';
import type { DiagramView } from '@sc/diagram';
import { Vflow, VflowComponent, type Edge, type Node } from 'ngx-vflow';
import { buildModel, layoutInput, type CanvasEdge, type CanvasGroup, type CanvasModel, type CanvasNode, type Highlights, type ModelInput } from './canvas-model';
import { CanvasNodeComponent } from './canvas-node.component';
import { DetailsPanelComponent, type Selection } from './details-panel.component';
import { markerUrl, roundedPath, usedMarkers } from './edge-path';
import { EdgeMarkersComponent } from './edge-markers.component';
import { centre, type Box, type LayoutResult, type Point } from './layout';
import { LayoutEngine } from './layout-engine.service';
import { CanvasMinimapComponent } from './minimap.component';

interface EdgeData {
  edge: CanvasEdge;
  path: string;
  label?: Point;
}

interface GroupData {
  group: CanvasGroup;
}

/** Nodes above this count are drawn only where the viewport shows them (and as boxes when zoomed far out). */
const VIRTUALIZE_ABOVE = 250;

/**
 * The interactive diagram canvas (the host page provides the LayoutEngine, so it can start it early): the diagram's
 * visible graph laid out by ELK in a Web Worker and drawn with
 * ngx-vflow (zoom, pan, minimap), one component per node kind, groups as frames with a Hide details button,
 * edges with their labels, strokes and markers, a details panel, search, keyboard access and change highlights.
 */
@Component({
  selector: 'sc-diagram-canvas',
  changeDetection: ChangeDetectionStrategy.OnPush,
  encapsulation: ViewEncapsulation.None,
  imports: [Vflow, CanvasNodeComponent, CanvasMinimapComponent, DetailsPanelComponent, EdgeMarkersComponent, MatButtonModule, MatIconModule, MatTooltipModule],
  templateUrl: './diagram-canvas.component.html',
  styleUrl: './diagram-canvas.component.scss',
  host: { class: 'sc-diagram-canvas', '(document:keydown)': 'shortcut($event)' },
})
export class DiagramCanvasComponent {
  private readonly engine = inject(LayoutEngine);
  private readonly host = inject(ElementRef<HTMLElement>);

  readonly view = input.required<DiagramView>();
  readonly databases = input<ModelInput['databases']>(new Map());
  readonly highlights = input<Highlights | null>(null);
  /** `/orgs/:org/services/:service`, for links to database pages. */
  readonly serviceLink = input('');
  readonly revision = input<number>();
  readonly label = input('Diagram');
  /** A group's Hide details / Show details button was pressed. */
  readonly toggleGroup = output<string>();

  readonly flow = viewChild(VflowComponent);
  readonly model = computed(() => buildModel({ view: this.view(), databases: this.databases(), highlights: this.highlights() }));
  /** The last layout and the model it was made for: drawn together, so the drawing never mixes two states. */
  readonly laidOut = signal<{ model: CanvasModel; result: LayoutResult } | null>(null);
  readonly layoutError = signal<string | null>(null);
  readonly selection = signal<Selection | null>(null);
  readonly selectedId = computed(() => {
    const selected = this.selection();
    return selected?.kind === 'node' ? selected.node.id : null;
  });
  readonly large = computed(() => this.model().nodes.length > VIRTUALIZE_ABOVE);
  readonly optimization = computed(() => ({ detachedGroupsLayer: true, virtualization: this.large(), virtualizationZoomThreshold: 0.3 }));

  private layoutRun = 0;
  private fitted = false;
  private readonly vNodes = new Map<string, Node>();
  private readonly vEdges = new Map<string, Edge<EdgeData>>();

  /** ngx-vflow's nodes and edges for the last layout (set with it, outside any reactive context). */
  readonly nodes = signal<Node[]>([]);
  readonly edges = signal<Edge<EdgeData>[]>([]);

  /** Groups (outermost first) then nodes, positioned relative to their group; ngx-vflow's objects are reused by id. */
  private flowNodes(model: CanvasModel, result: LayoutResult): Node[] {
    const boxes = result.boxes;
    const relative = (box: Box, parent: string | undefined): Point => {
      const outer = parent !== undefined ? boxes[parent] : undefined;
      return outer ? { x: box.x - outer.x, y: box.y - outer.y } : { x: box.x, y: box.y };
    };
    const out: Node[] = [];
    const seen = new Set<string>();
    for (const group of [...model.groups].sort((a, b) => a.depth - b.depth)) {
      const box = boxes[group.id];
      if (!box) continue;
      seen.add(`g:${group.id}`);
      out.push(this.vNode(`g:${group.id}`, 'template-group', relative(box, group.parent), box, group.parent, { group } satisfies GroupData));
    }
    for (const node of model.nodes) {
      const box = boxes[node.id];
      if (!box) continue;
      seen.add(node.id);
      out.push(this.vNode(node.id, 'html-template', relative(box, node.parent), box, node.parent, node));
    }
    for (const id of [...this.vNodes.keys()]) if (!seen.has(id)) this.vNodes.delete(id);
    return out;
  }

  private flowEdges(model: CanvasModel, result: LayoutResult): Edge<EdgeData>[] {
    const ids = new Set([...model.nodes.map((n) => n.id)]);
    const vid = (id: string) => (ids.has(id) ? id : `g:${id}`);
    const out: Edge<EdgeData>[] = [];
    const seen = new Set<string>();
    for (const edge of model.edges) {
      const route = result.edges[edge.key];
      if (!route || edge.invisible) continue;
      seen.add(edge.key);
      const data: EdgeData = { edge, path: roundedPath(route.points), ...(route.label ? { label: route.label } : {}) };
      let existing = this.vEdges.get(edge.key);
      if (existing && (existing.source !== vid(edge.source) || existing.target !== vid(edge.target))) existing = undefined;
      if (existing) {
        existing.data?.set(data);
      } else {
        existing = { id: edge.key, source: vid(edge.source), target: vid(edge.target), type: 'template', data: signal(data) };
        this.vEdges.set(edge.key, existing);
      }
      out.push(existing);
    }
    for (const key of [...this.vEdges.keys()]) if (!seen.has(key)) this.vEdges.delete(key);
    return out;
  }

  /** Every marker the edges use, defined once. */
  readonly markers = computed(() => usedMarkers(this.model().edges));

  /** Nodes and groups, by id, for search and keyboard moves. */
  readonly searchable = computed(() => [
    ...this.model().nodes.filter((n) => n.kind !== 'start' && n.kind !== 'end').map((n) => ({ id: n.id, title: n.title, kind: n.kind as string })),
    ...this.model().groups.map((g) => ({ id: g.id, title: g.title, kind: 'group' })),
  ]);
  readonly query = signal('');
  readonly matches = computed(() => {
    const query = this.query().trim().toLowerCase();
    if (!query) return [];
    return this.searchable()
      .filter((item) => item.id.toLowerCase().includes(query) || item.title.toLowerCase().includes(query))
      .slice(0, 8);
  });

  constructor() {
    effect(() => {
      const model = this.model();
      untracked(() => void this.runLayout(model));
    });
    // A new selection keeps pointing at the same element after a redraw (collapse, highlights) when it still exists.
    effect(() => {
      const model = this.model();
      const selected = untracked(this.selection);
      if (selected?.kind === 'node') {
        const node = model.nodes.find((n) => n.id === selected.node.id);
        untracked(() => this.selection.set(node ? { kind: 'node', node } : null));
      }
    });
  }

  private vNode(id: string, type: 'html-template' | 'template-group', point: Point, box: Box, parent: string | undefined, data: unknown): Node {
    const parentId = parent !== undefined ? `g:${parent}` : null;
    type Sized = Node & { width: WritableSignal<number>; height: WritableSignal<number>; data: WritableSignal<unknown> };
    const existing = this.vNodes.get(id) as Sized | undefined;
    if (existing && existing.type === type && (existing.parentId?.() ?? null) === parentId) {
      existing.point.set(point);
      existing.width.set(box.width);
      existing.height.set(box.height);
      existing.data.set(data);
      return existing;
    }
    const look = type === 'html-template' ? (data as CanvasNode).look : undefined;
    const node = {
      id,
      type,
      point: signal(point),
      width: signal(box.width),
      height: signal(box.height),
      data: signal(data),
      parentId: signal(parentId),
      draggable: signal(false),
      preview: signal({
        style: type === 'template-group'
          ? { backgroundColor: 'rgba(31, 111, 235, 0.04)', borderColor: '#9aa8ba', borderWidth: '1', borderRadius: '10' }
          : { backgroundColor: look?.fill ?? '#ffffff', borderColor: look?.stroke ?? '#5f6b7a', borderWidth: '1', borderRadius: '6' },
      }),
    } as Node;
    this.vNodes.set(id, node);
    return node;
  }

  private async runLayout(model: CanvasModel): Promise<void> {
    const run = ++this.layoutRun;
    try {
      const result = await this.engine.layout(layoutInput(model));
      if (run !== this.layoutRun) return;
      this.layoutError.set(null);
      this.nodes.set(this.flowNodes(model, result));
      this.edges.set(this.flowEdges(model, result));
      this.laidOut.set({ model, result });
      this.viewSize.set(this.size());
      if (!this.fitted) {
        this.fitted = true;
        // After ngx-vflow has rendered the nodes and measured itself.
        requestAnimationFrame(() => requestAnimationFrame(() => this.fit(0)));
      }
    } catch (error: unknown) {
      if (run !== this.layoutRun) return;
      this.layoutError.set(error instanceof Error ? error.message : 'The diagram could not be laid out.');
    }
  }

  // Viewport -------------------------------------------------------------------------------------------------------

  fit(duration = 250): void {
    // A viewport without size (not laid out, hidden) has nothing to fit into.
    if (this.size().width === 0) return;
    this.flow()?.fitView({ padding: 0.04, duration });
  }

  zoomBy(factor: number): void {
    const flow = this.flow();
    if (!flow) return;
    const { x, y, zoom } = flow.viewport();
    const next = Math.min(3, Math.max(0.02, zoom * factor));
    const { width, height } = this.size();
    // Zoom around the centre of the view, as the buttons have no pointer position.
    const cx = (width / 2 - x) / zoom;
    const cy = (height / 2 - y) / zoom;
    flow.viewportTo({ x: width / 2 - cx * next, y: height / 2 - cy * next, zoom: next });
  }

  /** The size of the element showing the flow, kept for the minimap's frame. */
  readonly viewSize = signal({ width: 0, height: 0 });

  /** Centres the view on a point of the drawing, keeping the zoom (the minimap). */
  panTo(point: Point): void {
    const flow = this.flow();
    if (!flow) return;
    const { zoom } = flow.viewport();
    const { width, height } = this.size();
    flow.viewportTo({ x: width / 2 - point.x * zoom, y: height / 2 - point.y * zoom, zoom });
  }

  /** Centres the node or group; zooms in to a readable scale when the view is zoomed far out. */
  centreOn(id: string): void {
    const flow = this.flow();
    const box = this.laidOut()?.result.boxes[id];
    if (!flow || !box) return;
    const zoom = Math.max(flow.viewport().zoom, 0.9);
    const { width, height } = this.size();
    // The details panel (open, or opening for the node found) covers the right of the view: centre in the rest.
    const panelOpen = this.selection() !== null || this.model().nodes.some((n) => n.id === id);
    const visibleWidth = panelOpen ? Math.max(width - 360, width / 2) : width;
    const c = centre(box);
    flow.viewportTo({ x: visibleWidth / 2 - c.x * zoom, y: height / 2 - c.y * zoom, zoom });
  }

  private size(): { width: number; height: number } {
    const element = (this.host.nativeElement as HTMLElement).querySelector('.canvas-viewport');
    return { width: element?.clientWidth ?? 0, height: element?.clientHeight ?? 0 };
  }

  // Selection, search, keyboard ------------------------------------------------------------------------------------

  selectNode(id: string): void {
    const node = this.model().nodes.find((n) => n.id === id);
    if (node) this.selection.set({ kind: 'node', node });
  }

  selectEdge(edge: CanvasEdge, event: Event): void {
    event.stopPropagation();
    this.selection.set({ kind: 'edge', edge });
  }

  /** Finds a node or group by id or label, centres it and focuses it. */
  goTo(id: string): void {
    this.query.set('');
    this.centreOn(id);
    const node = this.model().nodes.find((n) => n.id === id);
    if (node) this.selection.set({ kind: 'node', node });
    // The node may be rendered only once the viewport shows it (virtualization): focus after the next frames.
    requestAnimationFrame(() => requestAnimationFrame(() => this.focusElement(id)));
  }

  private readonly searchBox = viewChild<ElementRef<HTMLInputElement>>('search');

  /** Ctrl+K (⌘K) anywhere on the page goes to the search box. */
  shortcut(event: KeyboardEvent): void {
    if ((event.ctrlKey || event.metaKey) && event.key.toLowerCase() === 'k') {
      event.preventDefault();
      this.searchBox()?.nativeElement.focus();
    }
  }

  searchKey(event: KeyboardEvent): void {
    if (event.key === 'Enter') {
      const first = this.matches()[0];
      if (first) this.goTo(first.id);
    } else if (event.key === 'Escape') {
      this.query.set('');
    }
  }

  private focusElement(id: string): void {
    const root = this.host.nativeElement as HTMLElement;
    const element = root.querySelector<HTMLElement>(`[data-node-id="${CSS.escape(id)}"], [data-group-id="${CSS.escape(id)}"] .group-toggle`);
    element?.focus({ preventScroll: true });
  }

  /** +/- zoom, 0 fits; arrows move the focus to the nearest node in that direction; Escape closes the details. */
  keydown(event: KeyboardEvent): void {
    const target = event.target as HTMLElement;
    if (target.closest('input, textarea, .details-panel')) return;
    if (event.key === '+' || event.key === '=') {
      this.zoomBy(1.25);
    } else if (event.key === '-' || event.key === '_') {
      this.zoomBy(0.8);
    } else if (event.key === '0') {
      this.fit();
    } else if (event.key === 'Escape') {
      this.selection.set(null);
    } else if (event.key.startsWith('Arrow')) {
      const from = target.closest<HTMLElement>('[data-node-id]')?.dataset['nodeId'];
      const next = this.neighbour(from, event.key);
      if (!next) return;
      this.centreIfHidden(next);
      requestAnimationFrame(() => this.focusElement(next));
    } else {
      return;
    }
    event.preventDefault();
  }

  /** The nearest node from `from` in the arrow's direction (the first node when nothing is focused). */
  private neighbour(from: string | undefined, key: string): string | undefined {
    const laidOut = this.laidOut();
    if (!laidOut) return undefined;
    const boxes = laidOut.result.boxes;
    const nodes = laidOut.model.nodes.filter((n) => boxes[n.id]);
    if (from === undefined || !boxes[from]) return nodes[0]?.id;
    const origin = centre(boxes[from]);
    const [dx, dy] = key === 'ArrowRight' ? [1, 0] : key === 'ArrowLeft' ? [-1, 0] : key === 'ArrowDown' ? [0, 1] : [0, -1];
    let best: { id: string; score: number } | undefined;
    for (const node of nodes) {
      if (node.id === from) continue;
      const c = centre(boxes[node.id]);
      const along = (c.x - origin.x) * dx + (c.y - origin.y) * dy;
      if (along <= 0) continue;
      const across = Math.abs((c.x - origin.x) * dy) + Math.abs((c.y - origin.y) * dx);
      const score = along + across * 2;
      if (!best || score < best.score) best = { id: node.id, score };
    }
    return best?.id;
  }

  private centreIfHidden(id: string): void {
    const flow = this.flow();
    const box = this.laidOut()?.result.boxes[id];
    if (!flow || !box) return;
    const { x, y, zoom } = flow.viewport();
    const { width, height } = this.size();
    const left = box.x * zoom + x;
    const top = box.y * zoom + y;
    if (zoom < 0.3 || left < 0 || top < 0 || left + box.width * zoom > width || top + box.height * zoom > height) this.centreOn(id);
  }

  /** Display names of nodes and groups, for edge ends in the details panel. */
  readonly labelOf = (id: string): string => this.searchable().find((item) => item.id === id)?.title ?? id;

  groupData(data: unknown): GroupData {
    return data as GroupData;
  }

  edgeData(data: unknown): EdgeData {
    return data as EdgeData;
  }

  nodeData(data: unknown): CanvasNode {
    return data as CanvasNode;
  }

  readonly markerUrl = markerUrl;

  /** The drawn SVG of the whole diagram in its current state, for export. */
  laidOutDiagram(): { model: CanvasModel; result: LayoutResult } | null {
    return this.laidOut();
  }
}
