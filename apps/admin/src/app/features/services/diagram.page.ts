import { ChangeDetectionStrategy, Component, PendingTasks, computed, effect, inject, input, linkedSignal, signal, viewChild } from '@angular/core';
import { MatButtonModule } from '@angular/material/button';
import { MatCardModule } from '@angular/material/card';
import { MatIconModule } from '@angular/material/icon';
import { MatProgressBarModule } from '@angular/material/progress-bar';
import type { DatabaseView, SyncArtifactRef } from '@sc/contracts';
import { DiagramExportError, collapseGroup, collapseGroups, createView, expandGroup, exportToMermaid, type DiagramView } from '@sc/diagram';
import { EMPTY, catchError, concat, firstValueFrom, forkJoin, from, map, of, switchMap, tap, type Observable } from 'rxjs';
import { ApiError, ClientErrorCode } from '../../core/api-error';
import { NotifyService } from '../../core/notify.service';
import { pageResource } from '../../core/page-resource';
import { downloadBlob, downloadText } from '../../shared/download';
import { LoadErrorComponent } from '../../shared/load-error.component';
import { MarkdownComponent } from '../../shared/markdown.component';
import { plural } from '../../shared/plural';
import type { ModelInput } from '../diagram-canvas/canvas-model';
import { changeHighlights, describeChanges } from '../diagram-canvas/changes';
import { DiagramCanvasComponent } from '../diagram-canvas/diagram-canvas.component';
import { claimEarlyDiagram, diagramUrl, hasServerLayout } from '../diagram-canvas/early-diagram-layout';
import { LayoutEngine } from '../diagram-canvas/layout-engine.service';
import { diagramSvg, svgToPng } from '../diagram-canvas/export-image';
import { ContextSummaryComponent } from './context-summary.component';
import { GroupListComponent } from './group-list.component';
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
  /** Schemas of the databases the context's data-source and db-table nodes name, from the same revision. */
  databases: ModelInput['databases'];
}

const NO_DATABASES: ModelInput['databases'] = new Map();

/**
 * A graph-bearing artifact (architecture diagram, flow, job dependencies) drawn on the interactive canvas from its
 * synced graph, with group collapse/expand, change highlights, and export to Mermaid, SVG and PNG. Sequence
 * diagrams are drawn by Mermaid's own renderer from their source (SequenceDiagramComponent).
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
    DiagramCanvasComponent,
    // Revisions, sequence diagrams, groups tree, context card and notes (each its own component).
    ContextSummaryComponent,
    GroupListComponent,
    MarkdownComponent,
    RevisionBarComponent,
    SequenceDiagramComponent,
  ],
  templateUrl: './diagram.page.html',
  styleUrls: ['./services.scss', './diagram.page.scss'],
  // One layout engine (its workers) per page visit, started while the diagram loads.
  providers: [LayoutEngine],
})
export class DiagramPage {
  private readonly api = inject(ServicesApi);
  private readonly notify = inject(NotifyService);

  /** Bound from the route by the router. */
  readonly orgId = input.required<string>();
  readonly service = input.required<string>();
  /** The artifact name; the job dependency graph has none (one per service). */
  readonly name = input('');
  readonly source = input<GraphSource>('diagram');
  /** `?revision=n` from the URL; absent means the current revision. */
  readonly revision = input<string | undefined>();

  readonly canvas = viewChild(DiagramCanvasComponent);
  readonly sequence = viewChild(SequenceDiagramComponent);

  readonly loaded = pageResource({
    params: (): DiagramParams => ({
      orgId: this.orgId(),
      service: this.service(),
      source: this.source(),
      name: this.name(),
      revision: parseRevision(this.revision()),
    }),
    load: (params) =>
      this.fetch(params).pipe(
        switchMap((loaded) => this.withDatabases(params, loaded)),
        switchMap((loaded) => this.withChanges(params, loaded)),
      ),
    initial: null as LoadedDiagram | null,
  });
  readonly data = computed(() => this.loaded.value()?.data ?? null);
  readonly notes = computed(() => this.loaded.value()?.notes ?? null);
  readonly changes = computed(() => this.loaded.value()?.changes ?? null);
  readonly databases = computed(() => this.loaded.value()?.databases ?? NO_DATABASES);
  /** True when the service synced no job dependency diagram. */
  readonly missing = computed(() => this.loaded.value()?.data === null);
  /** Sequence diagrams keep Mermaid's drawing (message order, blocks, notes); the others are on the canvas. */
  readonly onCanvas = computed(() => this.data()?.kind !== 'sequence');
  /** What is drawn: the loaded graph, with the groups the user collapsed; starts over for each loaded graph. */
  readonly view = linkedSignal<DiagramView | null>(() => {
    const data = this.data();
    return data === null ? null : createView(data.graph);
  });

  /** Changes since the previous revision are highlighted on the drawing unless the user turns them off. */
  readonly showChanges = signal(true);
  readonly highlights = computed(() => {
    const changes = this.changes();
    const data = this.data();
    return changes && data && changes.changed && this.showChanges() ? changeHighlights(changes, data.graph) : null;
  });
  readonly changeList = computed(() => {
    const changes = this.changes();
    return changes ? describeChanges(changes) : [];
  });

  readonly groupCount = computed(() => this.view()?.graph.groups.length ?? 0);
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
  readonly serviceLink = computed(() => `/orgs/${encodeURIComponent(this.orgId())}/services/${encodeURIComponent(this.service())}`);

  /**
   * The side panels (groups, changes, context), the revision picker and the notes of the loaded data are rendered in
   * a task of their own, after the frame that shows the page and its canvas: rendered with them, they were a third of
   * the task that builds the canvas on a large diagram, the longest of the load.
   */
  private readonly panelsFor = signal<DiagramData | null | undefined>(undefined);
  readonly panelsShown = computed(() => this.loaded.value() !== null && this.panelsFor() === this.data());
  private readonly pendingTasks = inject(PendingTasks);
  private readonly showPanels = effect((onCleanup) => {
    if (this.loaded.value() === null || this.panelsShown()) return;
    const data = this.data();
    // The app is not stable (whenStable) while loaded data waits for its panels.
    const settled = this.pendingTasks.add();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const frame = requestAnimationFrame(() => (timer = setTimeout(() => this.panelsFor.set(data))));
    onCleanup(() => {
      cancelAnimationFrame(frame);
      clearTimeout(timer);
      settled();
    });
  });
  private readonly layoutEngine = inject(LayoutEngine);

  constructor() {
    this.layoutEngine.warmUp();
  }

  /** Reads the artifact and brings flows and jobs into the diagram shape (they carry no context). */
  private fetch({ orgId, service, source, name, revision }: DiagramParams): Observable<LoadedDiagram> {
    const plain = { contextPath: null, context: null, report: null };
    const rest = { changes: null, databases: NO_DATABASES };
    switch (source) {
      case 'diagram':
        return this.diagramWithLayout(orgId, service, name, revision).pipe(map((data) => ({ data, notes: null, ...rest })));
      case 'flow':
        return this.api.flow(orgId, service, name, revision).pipe(
          map(({ notes, notesPath: _notesPath, ...flow }) => ({ data: { ...flow, ...plain }, notes, ...rest })),
        );
      case 'jobs':
        return this.api.jobs(orgId, service, revision).pipe(
          map((jobs) => ({
            data: jobs.dependencies ? { name: 'job-dependencies', revision: jobs.revision, ...jobs.dependencies, ...plain } : null,
            notes: jobs.notes,
            ...rest,
          })),
        );
    }
  }

  /**
   * The diagram, and the server's layout of its default view offered to the layout engine once the diagram says its
   * kind has one (never asked for a sequence diagram). main.ts may have asked for both already (early-diagram-layout.ts);
   * when its diagram request got no answer, the page asks again, so errors are shown as the page's own.
   */
  private diagramWithLayout(orgId: string, service: string, name: string, revision: number | undefined): Observable<DiagramData> {
    const early = claimEarlyDiagram<DiagramData>(diagramUrl(orgId, service, name, revision));
    const asked = () =>
      this.api.diagram(orgId, service, name, revision).pipe(
        tap((data) => {
          if (hasServerLayout(data.kind)) this.layoutEngine.offerServerLayout(firstValueFrom(this.api.diagramLayout(orgId, service, name, revision)));
        }),
      );
    if (!early) return asked();
    return from(early.diagram).pipe(
      switchMap((data) => {
        if (!data) return asked();
        this.layoutEngine.offerServerLayout(early.layout);
        return of(data);
      }),
    );
  }

  /**
   * Loads the schemas that data-source and db-table nodes name, from the diagram's revision, before the first
   * drawing (their columns size the nodes). A schema that cannot be read leaves its nodes without columns.
   */
  private withDatabases({ orgId, service }: DiagramParams, loaded: LoadedDiagram): Observable<LoadedDiagram> {
    const data = loaded.data;
    const names = [...new Set((data?.graph.nodes ?? []).flatMap((node) => (node.overlay?.dbConfig?.databaseName ? [node.overlay.dbConfig.databaseName] : [])))];
    if (data === null || names.length === 0) return of(loaded);
    const reads = names.map((name) =>
      this.api.database(orgId, service, name, data.revision).pipe(catchError(() => of(null as DatabaseView | null))),
    );
    return forkJoin(reads).pipe(
      map((views) => {
        const databases = new Map<string, { tables: DatabaseView['tables']; collections: string[] }>();
        views.forEach((view, index) => {
          if (view) databases.set(names[index], { tables: view.tables, collections: view.collections });
        });
        return { ...loaded, databases };
      }),
    );
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

  toggle(groupId: string): void {
    const view = this.view();
    if (view === null) return;
    this.view.set(view.collapsed.includes(groupId) ? expandGroup(view, groupId) : collapseGroup(view, groupId));
  }

  collapseAll(): void {
    const view = this.view();
    if (view === null) return;
    this.view.set(collapseGroups(view, view.graph.groups.map((group) => group.id)));
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
        this.notify.error(new ApiError(0, ClientErrorCode.ExportFailed, `The diagram cannot be exported: ${error.message}`));
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


  /** The drawing as shown (collapsed groups, highlights), as an SVG file. */
  exportSvg(): void {
    const drawing = this.drawingSvg();
    if (drawing) downloadText(`${drawing.name}.svg`, drawing.svg, 'image/svg+xml');
  }

  async exportPng(): Promise<void> {
    const drawing = this.drawingSvg();
    if (!drawing) return;
    try {
      downloadBlob(`${drawing.name}.png`, await svgToPng(drawing.svg, drawing.width, drawing.height));
    } catch (error: unknown) {
      this.notify.error(new ApiError(0, ClientErrorCode.ExportFailed, error instanceof Error ? error.message : 'The PNG could not be made.'));
    }
  }

  private drawingSvg(): { name: string; svg: string; width: number; height: number } | null {
    const data = this.data();
    if (!data) return null;
    // A sequence diagram is Mermaid's drawing (SequenceDiagramComponent); the others are the canvas's model and layout.
    const sequence = this.sequence()?.image();
    if (sequence) return { name: data.name, ...sequence };
    const drawing = this.canvas()?.laidOutDiagram();
    if (!drawing) return null;
    return { name: data.name, svg: diagramSvg(drawing.model, drawing.result), width: drawing.result.width + 32, height: drawing.result.height + 32 };
  }
}
