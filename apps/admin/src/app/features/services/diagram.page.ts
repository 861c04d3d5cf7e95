import { ChangeDetectionStrategy, Component, computed, effect, inject, input, signal } from '@angular/core';
import { MatButtonModule } from '@angular/material/button';
import { MatCardModule } from '@angular/material/card';
import { MatIconModule } from '@angular/material/icon';
import { MatProgressBarModule } from '@angular/material/progress-bar';
import { DomSanitizer, SafeHtml } from '@angular/platform-browser';
import { DiagramExportError, collapseGroup, createView, expandGroup, exportToMermaid, type DiagramView } from '@sc/diagram';
import { firstValueFrom } from 'rxjs';
import { ApiError, toApiError } from '../../core/api-error';
import { NotifyService } from '../../core/notify.service';
import { downloadText } from '../../shared/download';
import { ErrorBannerComponent } from '../../shared/error-banner.component';
import { reloadOn } from '../../shared/reload-on';
import { MermaidRenderer } from './mermaid-renderer.service';
import { hiddenGroupIds, renderableMermaid } from './render-graph';
import { ServiceBreadcrumbComponent } from './service-breadcrumb.component';
import { DiagramChanges, DiagramData, ServicesApi, parseRevision } from './services.api';

/** Which graph-bearing artifact the page shows; set by the route's data. */
export type GraphSource = 'diagram' | 'flow' | 'jobs';

/**
 * A graph-bearing artifact (architecture diagram, flow, job dependencies) drawn from its synced graph, with
 * group collapse/expand and export back to Mermaid.
 */
@Component({
  selector: 'sc-diagram-page',
  changeDetection: ChangeDetectionStrategy.OnPush,
  imports: [MatButtonModule, MatCardModule, MatIconModule, MatProgressBarModule, ErrorBannerComponent, ServiceBreadcrumbComponent],
  templateUrl: './diagram.page.html',
  styleUrls: ['./services.scss', './diagram.page.scss'],
})
export class DiagramPage {
  private readonly api = inject(ServicesApi);
  private readonly renderer = inject(MermaidRenderer);
  private readonly sanitizer = inject(DomSanitizer);
  private readonly notify = inject(NotifyService);

  /** Bound from the route by the router. */
  readonly orgId = input.required<string>();
  readonly service = input.required<string>();
  /** The artifact name; the job dependency graph has none (one per service). */
  readonly name = input('');
  readonly source = input<GraphSource>('diagram');
  /** `?revision=n` from the URL; absent means the current revision. */
  readonly revision = input<string | undefined>();

  readonly data = signal<DiagramData | null>(null);
  /** Markdown notes that travel with a flow or the jobs, shown as written. */
  readonly notes = signal<string | null>(null);
  /** True when the service synced no job dependency diagram. */
  readonly missing = signal(false);
  /** Architecture diagrams: what changed compared with the previous revision. */
  readonly changes = signal<DiagramChanges | null>(null);
  readonly view = signal<DiagramView | null>(null);
  readonly loading = signal(true);
  readonly error = signal<ApiError | null>(null);
  readonly renderError = signal<string | null>(null);
  readonly svg = signal<SafeHtml | null>(null);

  readonly groups = computed(() => {
    const view = this.view();
    if (view === null) return [];
    const hidden = hiddenGroupIds(view);
    return view.graph.groups.map((group) => ({
      id: group.id,
      label: group.label || group.id,
      collapsed: view.collapsed.includes(group.id),
      hidden: hidden.has(group.id),
      members: group.nodes.length,
    }));
  });
  readonly report = computed(() => this.data()?.report ?? null);
  readonly title = computed(() => {
    const data = this.data();
    if (data === null) return '';
    return this.source() === 'jobs' ? 'Job dependencies' : (data.graph.contextName ?? data.name);
  });
  readonly counts = computed(() => {
    const visible = this.view()?.visible;
    return visible ? `${visible.nodes.length} nodes, ${visible.edges.length} connections, ${visible.groups.length} groups shown` : '';
  });

  constructor() {
    reloadOn(() => `${this.orgId()}/${this.service()}/${this.source()}/${this.name()}/${this.revision() ?? ''}`, () => this.load());
    // Redraw whenever the view changes (load, collapse, expand).
    effect(() => {
      const view = this.view();
      if (view !== null) void this.draw(view);
    });
  }

  async load(): Promise<void> {
    this.loading.set(true);
    this.error.set(null);
    this.missing.set(false);
    try {
      const { data, notes } = await this.fetch();
      this.data.set(data);
      this.notes.set(notes);
      this.missing.set(data === null);
      this.view.set(data === null ? null : createView(data.graph));
      this.changes.set(null);
      if (data !== null && this.source() === 'diagram' && data.revision > 1) void this.loadChanges(data);
    } catch (error: unknown) {
      this.error.set(toApiError(error));
    } finally {
      this.loading.set(false);
    }
  }

  /** The changes card is extra information: when it cannot be loaded the diagram is still shown, without it. */
  private async loadChanges(data: DiagramData): Promise<void> {
    try {
      const changes = await firstValueFrom(this.api.diagramChanges(this.orgId(), this.service(), data.name, data.revision - 1, data.revision));
      if (this.data() === data) this.changes.set(changes);
    } catch {
      this.changes.set(null);
    }
  }

  /** Reads the artifact and brings flows and jobs into the diagram shape (they carry no context). */
  private async fetch(): Promise<{ data: DiagramData | null; notes: string | null }> {
    const [orgId, service, name, revision] = [this.orgId(), this.service(), this.name(), parseRevision(this.revision())];
    const plain = { contextPath: null, context: null, report: null };
    switch (this.source()) {
      case 'diagram':
        return { data: await firstValueFrom(this.api.diagram(orgId, service, name, revision)), notes: null };
      case 'flow': {
        const flow = await firstValueFrom(this.api.flow(orgId, service, name, revision));
        const { notes, notesPath: _notesPath, ...rest } = flow;
        return { data: { ...rest, ...plain }, notes };
      }
      case 'jobs': {
        const jobs = await firstValueFrom(this.api.jobs(orgId, service, revision));
        const deps = jobs.dependencies;
        const data = deps ? { name: 'job-dependencies', revision: jobs.revision, ...deps, ...plain } : null;
        return { data, notes: jobs.notes };
      }
    }
  }

  /** "Payments API, Worker": labels of changed elements for the changes card. */
  describeNodes(nodes: readonly { id: string; label: string }[]): string {
    return nodes.map((node) => node.label || node.id).join(', ');
  }

  describeEdges(edges: readonly { source: string; target: string }[]): string {
    // Name the ends by label where the shown graph still has them; a removed element keeps its id.
    const graph = this.data()?.graph;
    const labels = new Map<string, string>([...(graph?.groups ?? []), ...(graph?.nodes ?? [])].map((e) => [e.id, e.label || e.id]));
    const name = (id: string) => labels.get(id) ?? id;
    return edges.map((edge) => `${name(edge.source)} → ${name(edge.target)}`).join(', ');
  }

  toggle(groupId: string): void {
    const view = this.view();
    if (view === null) return;
    this.view.set(view.collapsed.includes(groupId) ? expandGroup(view, groupId) : collapseGroup(view, groupId));
  }

  collapseAll(): void {
    const view = this.view();
    if (view === null) return;
    this.view.set(view.graph.groups.reduce((current, group) => collapseGroup(current, group.id), view));
  }

  expandAll(): void {
    const view = this.view();
    if (view !== null) this.view.set(createView(view.graph));
  }

  /** Downloads the diagram as Mermaid plus its context file, written from the graph by the diagram library. */
  exportMermaid(): void {
    const data = this.data();
    if (data === null) return;
    try {
      const { mermaid, context } = exportToMermaid(data.graph);
      downloadText(`${data.name}.mmd`, mermaid, 'text/plain');
      downloadText(`${data.name}.context.json`, `${JSON.stringify(context, null, 2)}\n`, 'application/json');
      this.notify.success(`Exported ${data.name}.mmd and ${data.name}.context.json.`);
    } catch (error: unknown) {
      if (error instanceof DiagramExportError) {
        this.notify.error(new ApiError(0, 'export_failed', `The diagram cannot be exported: ${error.message}`));
      } else {
        throw error;
      }
    }
  }

  private async draw(view: DiagramView): Promise<void> {
    try {
      const svg = await this.renderer.render(renderableMermaid(view));
      if (this.view() !== view) return; // a newer view is being drawn
      // The SVG was produced by Mermaid in strict mode and sanitized by DOMPurify (see MermaidRenderer).
      this.svg.set(this.sanitizer.bypassSecurityTrustHtml(svg));
      this.renderError.set(null);
    } catch (error: unknown) {
      this.renderError.set(error instanceof Error ? error.message : 'The diagram could not be drawn.');
    }
  }
}
