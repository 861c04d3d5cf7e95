import { ChangeDetectionStrategy, Component, computed, effect, inject, input, linkedSignal, untracked } from '@angular/core';
import { MatButtonModule } from '@angular/material/button';
import { MatCardModule } from '@angular/material/card';
import { MatIconModule } from '@angular/material/icon';
import { MatProgressBarModule } from '@angular/material/progress-bar';
import { DomSanitizer, SafeHtml } from '@angular/platform-browser';
import type { SyncArtifactRef } from '@sc/contracts';
import { DiagramExportError, collapseGroup, createView, expandGroup, exportToMermaid, type DiagramView } from '@sc/diagram';
import { EMPTY, catchError, concat, firstValueFrom, map, of, switchMap, type Observable } from 'rxjs';
import { ApiError } from '../../core/api-error';
import { NotifyService } from '../../core/notify.service';
import { pageResource } from '../../core/page-resource';
import { downloadText } from '../../shared/download';
import { LoadErrorComponent } from '../../shared/load-error.component';
import { MarkdownComponent } from '../../shared/markdown.component';
import { MermaidRenderer } from '../../shared/mermaid-renderer.service';
import { plural } from '../../shared/plural';
import { ContextSummaryComponent } from './context-summary.component';
import { GroupListComponent } from './group-list.component';
import { hiddenGroupIds, renderableMermaid } from './render-graph';
import { RevisionBarComponent } from './revision-bar.component';
import { SequenceDiagramComponent } from './sequence-diagram.component';
import { ServiceBreadcrumbComponent } from './service-breadcrumb.component';
import { DiagramChanges, DiagramData, ServicesApi, parseRevision } from './services.api';

/** Which graph-bearing artifact the page shows; set by the route's data. */
export type GraphSource = 'diagram' | 'flow' | 'jobs';

interface DiagramParams {
  orgId: string;
  service: string;
  source: GraphSource;
  name: string;
  revision: number | undefined;
}

interface LoadedDiagram {
  /** Null when the service synced job notes but no job dependency diagram. */
  data: DiagramData | null;
  /** Markdown notes that travel with a flow or the jobs, shown as written. */
  notes: string | null;
  /** Architecture diagrams: what changed compared with the previous revision, once known. */
  changes: DiagramChanges | null;
}

/**
 * A graph-bearing artifact (architecture diagram, flow, job dependencies) drawn from its synced graph, with
 * group collapse/expand and export back to Mermaid.
 */
@Component({
  selector: 'sc-diagram-page',
  changeDetection: ChangeDetectionStrategy.OnPush,
  imports: [
    MatButtonModule,
    MatCardModule,
    MatIconModule,
    MatProgressBarModule,
    LoadErrorComponent,
    ServiceBreadcrumbComponent,
    // Revisions, sequence diagrams, groups tree, context card and notes (each its own component).
    ContextSummaryComponent,
    GroupListComponent,
    MarkdownComponent,
    RevisionBarComponent,
    SequenceDiagramComponent,
  ],
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

  readonly loaded = pageResource({
    params: (): DiagramParams => ({
      orgId: this.orgId(),
      service: this.service(),
      source: this.source(),
      name: this.name(),
      revision: parseRevision(this.revision()),
    }),
    load: (params) => this.fetch(params).pipe(switchMap((loaded) => this.withChanges(params, loaded))),
    initial: null as LoadedDiagram | null,
  });
  readonly data = computed(() => this.loaded.value()?.data ?? null);
  readonly notes = computed(() => this.loaded.value()?.notes ?? null);
  readonly changes = computed(() => this.loaded.value()?.changes ?? null);
  /** True when the service synced no job dependency diagram. */
  readonly missing = computed(() => this.loaded.value()?.data === null);
  /** What is drawn: the loaded graph, with the groups the user collapsed; starts over for each loaded graph. */
  readonly view = linkedSignal<DiagramView | null>(() => {
    const data = this.data();
    return data === null ? null : createView(data.graph);
  });
  /** The drawing and why drawing failed belong to one graph: other data starts without the previous ones. */
  readonly svg = linkedSignal<DiagramData | null, SafeHtml | null>({ source: this.data, computation: () => null });
  readonly renderError = linkedSignal<DiagramData | null, string | null>({ source: this.data, computation: () => null });

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
    return visible
      ? `${plural(visible.nodes.length, 'node')}, ${plural(visible.edges.length, 'connection')}, ${plural(visible.groups.length, 'group')} shown`
      : '';
  });
  readonly plural = plural;
  /** The artifact on this page, for the revision picker (the jobs page shows notes and/or dependencies: none). */
  readonly artifactRef = computed<SyncArtifactRef | null>(() => {
    switch (this.source()) {
      case 'diagram':
        return { kind: 'architecture-diagram', name: this.name() };
      case 'flow':
        return { kind: 'flow', name: this.name() };
      case 'jobs':
        return null;
    }
  });

  constructor() {
    // Redraw whenever the view changes (load, collapse, expand).
    effect(() => {
      const view = this.view();
      // Sequence diagrams are drawn from their source by SequenceDiagramComponent.
      if (view !== null && view.graph.kind !== 'sequence') untracked(() => void this.draw(view));
    });
  }

  /** Reads the artifact and brings flows and jobs into the diagram shape (they carry no context). */
  private fetch({ orgId, service, source, name, revision }: DiagramParams): Observable<LoadedDiagram> {
    const plain = { contextPath: null, context: null, report: null };
    switch (source) {
      case 'diagram':
        return this.api.diagram(orgId, service, name, revision).pipe(map((data) => ({ data, notes: null, changes: null })));
      case 'flow':
        return this.api.flow(orgId, service, name, revision).pipe(
          map(({ notes, notesPath: _notesPath, ...rest }) => ({ data: { ...rest, ...plain }, notes, changes: null })),
        );
      case 'jobs':
        return this.api.jobs(orgId, service, revision).pipe(
          map((jobs) => ({
            data: jobs.dependencies ? { name: 'job-dependencies', revision: jobs.revision, ...jobs.dependencies, ...plain } : null,
            notes: jobs.notes,
            changes: null,
          })),
        );
    }
  }

  /**
   * Shows the diagram at once and adds the changes since the previous revision when they arrive. The changes card
   * is extra information: when it cannot be loaded the diagram is still shown, without it.
   */
  private withChanges({ orgId, service, source }: DiagramParams, loaded: LoadedDiagram): Observable<LoadedDiagram> {
    const data = loaded.data;
    if (data === null || source !== 'diagram' || data.revision <= 1) return of(loaded);
    return concat(
      of(loaded),
      this.api.diagramChanges(orgId, service, data.name, data.revision - 1, data.revision).pipe(
        map((changes) => ({ ...loaded, changes })),
        catchError(() => EMPTY),
      ),
    );
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

  /**
   * What Export To Mermaid gives: the files exactly as synced while the page shows the synced graph (regenerating
   * loses what the graph does not carry: C4 shapes, sequence blocks and notes, comments, the author's formatting);
   * a graph drawn or edited here is written from the graph by the diagram library.
   */
  readonly exportsSyncedFiles = computed(() => {
    const data = this.data();
    return data !== null && this.view()?.graph === data.graph;
  });
  readonly exportDescription = computed(() => {
    const data = this.data();
    if (data === null) return '';
    return this.exportsSyncedFiles() ? `Exact files as synced in revision ${data.revision}` : 'Regenerated from the graph';
  });

  /** Downloads the diagram as Mermaid plus its context file (see exportsSyncedFiles for which ones). */
  async exportMermaid(): Promise<void> {
    const data = this.data();
    const view = this.view();
    if (data === null || view === null) return;
    if (this.exportsSyncedFiles()) {
      await this.exportSyncedFiles(data);
      return;
    }
    try {
      const { mermaid, context } = exportToMermaid(view.graph);
      downloadText(`${data.name}.mmd`, mermaid, 'text/plain');
      downloadText(`${data.name}.context.json`, `${JSON.stringify(context, null, 2)}\n`, 'application/json');
      this.notify.success(`Exported ${data.name}.mmd and ${data.name}.context.json, regenerated from the graph.`);
    } catch (error: unknown) {
      if (error instanceof DiagramExportError) {
        this.notify.error(new ApiError(0, 'export_failed', `The diagram cannot be exported: ${error.message}`));
      } else {
        throw error;
      }
    }
  }

  /** Flows and job dependencies have no context file and their loaded Mermaid is the stored file; diagrams ask for both files. */
  private async exportSyncedFiles(data: DiagramData): Promise<void> {
    let files: { fileName: string; content: string; type: string }[];
    if (this.source() === 'diagram') {
      try {
        const source = await firstValueFrom(this.api.diagramSource(this.orgId(), this.service(), data.name, data.revision));
        files = [{ ...source.mermaid, type: 'text/plain' }, ...(source.context ? [{ ...source.context, type: 'application/json' }] : [])];
      } catch (error: unknown) {
        this.notify.error(error);
        return;
      }
    } else {
      files = [{ fileName: data.path.slice(data.path.lastIndexOf('/') + 1), content: data.mermaid, type: 'text/plain' }];
    }
    for (const file of files) downloadText(file.fileName, file.content, file.type);
    this.notify.success(`Exported ${files.map((file) => file.fileName).join(' and ')} exactly as synced in revision ${data.revision}.`);
  }

  private async draw(view: DiagramView): Promise<void> {
    // Drawings finish in any order; only the one for the view still shown may land.
    try {
      const svg = await this.renderer.render(renderableMermaid(view));
      if (this.view() !== view) return;
      // The SVG was produced by Mermaid in strict mode and sanitized by DOMPurify (see MermaidRenderer).
      this.svg.set(this.sanitizer.bypassSecurityTrustHtml(svg));
      this.renderError.set(null);
    } catch (error: unknown) {
      if (this.view() !== view) return;
      this.renderError.set(error instanceof Error ? error.message : 'The diagram could not be drawn.');
    }
  }
}
