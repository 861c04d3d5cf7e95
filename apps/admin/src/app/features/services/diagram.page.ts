import {
  ChangeDetectionStrategy,
  Component,
  DestroyRef,
  ElementRef,
  PendingTasks,
  afterNextRender,
  computed,
  effect,
  inject,
  input,
  linkedSignal,
  signal,
  untracked,
  viewChild,
  type WritableSignal,
} from '@angular/core';
import { Clipboard } from '@angular/cdk/clipboard';
import { MatButtonModule } from '@angular/material/button';
import { MatDialog } from '@angular/material/dialog';
import { MatCardModule } from '@angular/material/card';
import { MatIconModule } from '@angular/material/icon';
import { MatMenuModule } from '@angular/material/menu';
import { MatProgressBarModule } from '@angular/material/progress-bar';
import { MatSelectModule } from '@angular/material/select';
import { MatTooltipModule } from '@angular/material/tooltip';
import { ActivatedRoute, Router, RouterLink } from '@angular/router';
import { DRAFT_KIND, type ArrangementLists, type CreatedEmbedLinkResponse, type DatabaseView, type DiagramArrangement, type SyncArtifactRef } from '@sc/contracts';
import { catchError, firstValueFrom, forkJoin, from, map, of, switchMap, tap, type Observable } from 'rxjs';
import { DiagramExportError, collapseGroup, collapseGroups, expandGroup, exportToMermaid, withoutArranged, type DiagramView, type ModelInput } from '@sc/diagram';
import { ApiError, ClientErrorCode } from '../../core/api-error';
import { mutation } from '../../core/mutation';
import { NotifyService } from '../../core/notify.service';
import { SessionService } from '../../core/session.service';
import { pageResource } from '../../core/page-resource';
import { afterPaint } from '../../shared/after-paint';
import { downloadBlob, downloadText } from '../../shared/download';
import { LoadErrorComponent } from '../../shared/load-error.component';
import { MarkdownComponent } from '../../shared/markdown.component';
import { plural } from '../../shared/plural';
import { changeHighlights, describeChanges } from '../diagram-canvas/changes';
import { DiagramCanvasComponent } from '../diagram-canvas/diagram-canvas.component';
import { claimEarlyDiagram, diagramUrl, hasServerLayout } from '../diagram-canvas/early-diagram-layout';
import { LayoutEngine } from '../diagram-canvas/layout-engine.service';
import { diagramSvg, svgToPng } from '../diagram-canvas/export-image';
import { DraftsApi } from '../drafts/drafts.api';
import { EmbedLinkDialogComponent, type EmbedLinkDialogData } from '../embeds/embed-link-dialog.component';
import { EMBED_SNIPPET_LABELS, embedSnippet, type EmbedSnippetKind } from '../embeds/embed-snippets';
import { ContextSummaryComponent } from './context-summary.component';
import { GroupListComponent } from './group-list.component';
import { RevisionBarComponent } from './revision-bar.component';
import { SequenceDiagramComponent } from './sequence-diagram.component';
import { ServiceBreadcrumbComponent } from './service-breadcrumb.component';
import { paramList, urlParams, viewWithCollapsed, type DiagramUrlState } from './diagram-url-state';
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
  /** Schemas of the databases the context's data-source and db-table nodes name, from the same revision. */
  databases: ModelInput['databases'];
  /** An architecture diagram's arrangement, read with it so the first drawing has it; null for the others. */
  arrangement: DiagramArrangement | null;
}

const NO_DATABASES: ModelInput['databases'] = new Map();
/** Below this window width the side panel starts closed (it would leave the canvas too narrow). */
const SIDE_PANEL_MIN_WINDOW = 900;
/** The least height of the page when the window is very low: the document scrolls instead. */
const MIN_PAGE_HEIGHT = 420;

/** The comparison of the revision shown with an earlier one (`?compare=n`, else the previous revision). */
interface ComparedChanges {
  from: number;
  /** Null when the comparison could not be loaded. */
  changes: DiagramChanges | null;
}

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
    MatMenuModule,
    MatProgressBarModule,
    MatSelectModule,
    MatTooltipModule,
    RouterLink,
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
  host: { '(document:keydown.escape)': 'escape($event)', '(document:fullscreenchange)': 'fullscreenChanged()', '(window:resize)': 'measureTop()' },
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
  /** `?collapsed=id` (repeated) from the URL: the groups shown collapsed (see diagram-url-state.ts). */
  readonly collapsed = input<string | string[] | undefined>();
  /** `?node=id` from the URL: the node whose details are open. */
  readonly node = input<string | undefined>();
  /** `?compare=n` from the URL: the revision the changes are listed against (default: the previous one). */
  readonly compare = input<string | undefined>();

  private readonly router = inject(Router);
  private readonly route = inject(ActivatedRoute);
  private readonly host = inject(ElementRef<HTMLElement>);
  private readonly session = inject(SessionService);
  private readonly drafts = inject(DraftsApi);
  private readonly copying = mutation();
  readonly copyBusy = this.copying.pending;

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
    load: (params) => this.fetch(params).pipe(switchMap((loaded) => this.withDatabases(params, loaded))),
    initial: null as LoadedDiagram | null,
  });
  readonly data = computed(() => this.loaded.value()?.data ?? null);
  /** "Edit a copy": a synced flowchart becomes a draft (only flowcharts can be drafts), for whoever may edit drafts. */
  readonly canEditCopy = computed(() => this.source() === 'diagram' && this.data()?.kind === DRAFT_KIND && this.session.canEditDrafts());
  readonly notes = computed(() => this.loaded.value()?.notes ?? null);
  /** The export menu's embed items: admins, on a synced architecture diagram (the server draws every kind). */
  readonly canEmbed = computed(() => this.source() === 'diagram' && this.session.canManage() && this.data() !== null);
  private readonly dialog = inject(MatDialog);
  private readonly clipboard = inject(Clipboard);
  /** The embed link made on this page for this diagram (its token is shown only once), so further copies reuse it. */
  private readonly embedLink = signal<{ key: string; link: CreatedEmbedLinkResponse } | null>(null);

  /** Earlier revisions an architecture diagram's changes can be listed against, newest first. */
  readonly comparable = computed(() => {
    const data = this.data();
    if (data === null || this.source() !== 'diagram' || data.revision <= 1) return [];
    return Array.from({ length: data.revision - 1 }, (_, i) => data.revision - 1 - i);
  });
  /** The revision the changes are listed against: `?compare=n` when it is an earlier revision, else the previous one. */
  readonly comparedWith = computed(() => {
    const choices = this.comparable();
    const asked = parseRevision(this.compare());
    return asked !== undefined && choices.includes(asked) ? asked : (choices[0] ?? null);
  });
  /**
   * The changes, loaded after the diagram (the diagram is shown at once; the changes are extra information: when they
   * cannot be loaded the diagram is still shown, and the card only says so when the user picked the revision).
   */
  private readonly compareParams = computed(
    () => {
      const data = this.data();
      const from = this.comparedWith();
      return data === null || from === null ? null : { orgId: this.orgId(), service: this.service(), name: data.name, from, to: data.revision };
    },
    { equal: (a, b) => a === b || (a !== null && b !== null && a.orgId === b.orgId && a.service === b.service && a.name === b.name && a.from === b.from && a.to === b.to) },
  );
  /**
   * The comparison, requested when the shown revision or the compared one changes (an answer for an earlier pair is
   * dropped). Not a resource: the page is stable (whenStable) while it loads, as the diagram is already shown.
   */
  private readonly compared = signal<ComparedChanges | null>(null);
  private readonly loadChanges = effect((onCleanup) => {
    const params = this.compareParams();
    this.compared.set(null);
    if (params === null) return;
    const subscription = this.api
      .diagramChanges(params.orgId, params.service, params.name, params.from, params.to)
      .pipe(
        map((changes): ComparedChanges => ({ from: params.from, changes })),
        catchError(() => of<ComparedChanges>({ from: params.from, changes: null })),
      )
      .subscribe((result) => this.compared.set(result));
    onCleanup(() => subscription.unsubscribe());
  });
  readonly changes = computed(() => this.compared()?.changes ?? null);
  readonly compareFailed = computed(() => {
    const result = this.compared();
    return result !== null && result.changes === null && this.compare() !== undefined ? result.from : null;
  });
  readonly databases = computed(() => this.loaded.value()?.databases ?? NO_DATABASES);
  /** True when the service synced no job dependency diagram. */
  readonly missing = computed(() => this.loaded.value()?.data === null);
  /** Sequence diagrams keep Mermaid's drawing (message order, blocks, notes); the others are on the canvas. */
  readonly onCanvas = computed(() => this.data()?.kind !== 'sequence');
  /**
   * What is drawn: the loaded graph with the groups the URL collapses (`?collapsed=`). A click collapses at once and
   * then writes the URL; the URL catching up keeps that view (viewWithCollapsed), Back/Forward and links make theirs.
   */
  private readonly collapsedIds = computed(() => paramList(this.collapsed()), { equal: (a, b) => a.length === b.length && a.every((id, i) => id === b[i]) });
  readonly view = linkedSignal<{ graph: DiagramData['graph'] | null; collapsed: string[] }, DiagramView | null>({
    source: () => ({ graph: this.data()?.graph ?? null, collapsed: this.collapsedIds() }),
    computation: ({ graph, collapsed }, previous) => (graph === null ? null : viewWithCollapsed(graph, collapsed, previous?.value)),
  });
  /** The side panel has something to show: groups (on the canvas), changes, or the context report. */
  readonly hasSidePanel = computed(() => this.onCanvas() || this.comparedWith() !== null || this.report() !== null);
  /** The selected node of the URL, for the canvas. */
  readonly selectedNode = computed(() => this.node() || null);

  /** The description, file paths and revision: in a panel under the header, closed unless opened. */
  readonly infoOpen = signal(false);
  /** The side panel (groups, changes, context): open unless the window is narrow. */
  readonly sideOpen = signal(typeof window === 'undefined' || window.innerWidth >= SIDE_PANEL_MIN_WINDOW);
  /** The page fills the window (the browser's full screen when it allows it), over the app's header. */
  readonly fullscreen = signal(false);
  /** Where the page starts in the document (below the app's header): the canvas fills the window from there. */
  private readonly top = signal(0);
  /** The page (header, info panel, canvas and side panel) ends at the window's bottom, once there is a diagram. */
  readonly pageHeight = computed(() => (this.fullscreen() || this.data() === null ? null : `max(${MIN_PAGE_HEIGHT}px, calc(100dvh - ${this.top()}px))`));
  readonly kindLabel = computed(() => {
    const data = this.data();
    if (data === null) return '';
    if (this.source() === 'flow') return 'Flow';
    if (this.source() === 'jobs') return 'Jobs';
    return { flowchart: 'Flowchart', state: 'State diagram', sequence: 'Sequence diagram', c4: 'C4 diagram' }[data.kind] ?? data.kind;
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
  /** The collapse state the side list shows: the canvas's, after the canvas has painted a click's change (see show). */
  readonly listedView = signal<DiagramView | null>(null);
  private readonly followView = effect((onCleanup) => {
    const view = this.view();
    if (view === null || untracked(this.listedView) === null) this.listedView.set(view);
    else onCleanup(afterPaint(this.pendingTasks, () => this.listedView.set(view)));
  });
  private readonly showPanels = effect((onCleanup) => {
    if (this.loaded.value() === null || this.panelsShown()) return;
    const data = this.data();
    onCleanup(afterPaint(this.pendingTasks, () => this.panelsFor.set(data)));
  });
  private readonly layoutEngine = inject(LayoutEngine);

  // Arrangement --------------------------------------------------------------------------------------------------

  /**
   * The diagram's saved arrangement (per diagram, not per revision: an earlier revision is drawn with it too), loaded
   * after the diagram; null while loading, for flows, jobs and sequence diagrams.
   */
  readonly savedArrangement = linkedSignal(() => this.loaded.value()?.arrangement ?? null);
  /** Arrange mode's unsaved arrangement (null: none), with its undo and redo steps; dropped with the diagram. */
  readonly workingArrangement = linkedSignal<DiagramData | null, ArrangementLists | null>({ source: () => this.data(), computation: () => null });
  private readonly undoSteps = linkedSignal<DiagramData | null, (ArrangementLists | null)[]>({ source: () => this.data(), computation: () => [] });
  private readonly redoSteps = linkedSignal<DiagramData | null, (ArrangementLists | null)[]>({ source: () => this.data(), computation: () => [] });
  readonly canUndo = computed(() => this.undoSteps().length > 0);
  readonly canRedo = computed(() => this.redoSteps().length > 0);
  /** What the canvas draws with. */
  readonly arrangement = computed(() => this.workingArrangement() ?? this.savedArrangement());
  readonly arranging = signal(false);
  readonly arrangementBusy = signal(false);
  /** Editors and above arrange the current revision of an architecture diagram drawn on the canvas. */
  readonly mayArrange = computed(() => this.session.canEditDrafts() && this.source() === 'diagram' && this.onCanvas() && parseRevision(this.revision()) === undefined && this.savedArrangement() !== null);
  /** "3 nodes placed automatically since the arrangement was saved" (nothing without a saved arrangement). */
  readonly placedSentence = computed(() => {
    const saved = this.savedArrangement();
    const graph = this.data()?.graph;
    // Of the revision's own elements: the ghosts of removed ones (change highlights) are not counted.
    const nodes = new Set(graph?.nodes.map((node) => node.id));
    const groups = new Set(graph?.groups.map((group) => group.id));
    const placed = [...(this.canvas()?.placed() ?? [])];
    const nodeCount = placed.filter((id) => nodes.has(id)).length;
    const groupCount = placed.filter((id) => groups.has(id)).length;
    if (!saved || saved.version === 0 || nodeCount + groupCount === 0 || this.workingArrangement() !== null) return '';
    const parts = [...(nodeCount ? [plural(nodeCount, 'node')] : []), ...(groupCount ? [plural(groupCount, 'group')] : [])];
    return `${parts.join(' and ')} placed automatically since the arrangement was saved`;
  });
  toggleArranging(): void {
    this.arranging.set(!this.arranging());
  }

  /** A drag on the canvas made a new arrangement: kept (with an undo step) until Save. */
  arranged(lists: ArrangementLists): void {
    this.undoSteps.set([...this.undoSteps(), this.workingArrangement()]);
    this.redoSteps.set([]);
    this.workingArrangement.set(lists);
  }

  arrangeRefused(): void {
    this.notify.error(new ApiError(0, ClientErrorCode.ClientError, 'An element cannot be put inside a group it is not a member of: the drag was undone.'));
  }

  /** What "Auto-arrange selection" places: arrange mode's selection (shift-click, shift-drag) and the selected node. */
  readonly arrangeTargets = computed(() => {
    const ids = new Set(this.canvas()?.arrangeSelection() ?? []);
    const selected = this.selectedNode();
    if (selected) ids.add(selected);
    return ids;
  });

  /**
   * "Auto-arrange selection": the selected nodes and groups (a group with everything inside it) leave the
   * arrangement, so they are placed like new ones — near their neighbours, around what stays arranged
   * (applyArrangement) — and fixed there by the next Save.
   */
  autoArrangeSelection(): void {
    const ids = this.arrangeTargets();
    const lists = this.workingArrangement() ?? this.currentArrangement();
    const graph = this.data()?.graph;
    if (ids.size === 0 || !lists || !graph) return;
    const parentOf = new Map<string, string | undefined>([...graph.groups.map((g) => [g.id, g.parent] as const), ...graph.nodes.map((n) => [n.id, n.parent] as const)]);
    this.arranged(withoutArranged(lists, ids, parentOf));
  }

  undoArrangement(): void {
    this.stepArrangement(this.undoSteps, this.redoSteps);
  }

  redoArrangement(): void {
    this.stepArrangement(this.redoSteps, this.undoSteps);
  }

  /** Undo or Redo: the last step of `from` becomes the working arrangement, and the one it replaces goes onto `to`. */
  private stepArrangement(from: WritableSignal<(ArrangementLists | null)[]>, to: WritableSignal<(ArrangementLists | null)[]>): void {
    const steps = from();
    if (steps.length === 0) return;
    to.set([...to(), this.workingArrangement()]);
    from.set(steps.slice(0, -1));
    this.workingArrangement.set(steps[steps.length - 1]);
  }

  /** Saves the working arrangement over the version it was made from (409: someone saved since; reload to see theirs). */
  async saveArrangement(): Promise<void> {
    const saved = this.savedArrangement();
    const data = this.data();
    const lists = this.workingArrangement() ?? this.currentArrangement();
    if (!saved || !data || !lists) return;
    await this.replaceArrangement('Arrangement saved.', () =>
      firstValueFrom(this.api.saveArrangement(this.orgId(), this.service(), data.name, saved.version, lists)),
    );
  }

  /** Everything as drawn now, for a Save without a drag (it fixes the places of the nodes placed automatically). */
  private currentArrangement(): ArrangementLists | null {
    return this.canvas()?.currentArrangement() ?? null;
  }

  /** Back to the automatic layout (DELETE), then the arrangement read again. */
  async resetArrangement(): Promise<void> {
    const saved = this.savedArrangement();
    const data = this.data();
    if (!saved || !data) return;
    await this.replaceArrangement('The diagram is laid out automatically again.', async () => {
      await firstValueFrom(this.api.resetArrangement(this.orgId(), this.service(), data.name, saved.version));
      return firstValueFrom(this.api.arrangement(this.orgId(), this.service(), data.name));
    });
  }

  /**
   * Runs a request that answers the new saved arrangement (Save, Reset) with the arrangement buttons busy; on
   * success the working copy and its undo history are dropped, as they were made against the old version.
   */
  private async replaceArrangement(done: string, request: () => Promise<DiagramArrangement>): Promise<void> {
    this.arrangementBusy.set(true);
    try {
      this.savedArrangement.set(await request());
      this.workingArrangement.set(null);
      this.undoSteps.set([]);
      this.redoSteps.set([]);
      this.notify.success(done);
    } catch (error: unknown) {
      this.notify.error(error);
    } finally {
      this.arrangementBusy.set(false);
    }
  }

  constructor() {
    this.layoutEngine.warmUp();
    afterNextRender(() => this.measureTop());
    inject(DestroyRef).onDestroy(() => {
      if (typeof document !== 'undefined' && document.fullscreenElement === this.host.nativeElement) void document.exitFullscreen?.();
    });
  }

  /** The page's top in the document, for the canvas to end at the window's bottom. */
  measureTop(): void {
    const element = this.host.nativeElement as HTMLElement;
    this.top.set(Math.max(0, Math.round(element.getBoundingClientRect().top + window.scrollY)));
  }

  toggleFullscreen(): void {
    const element = this.host.nativeElement as HTMLElement;
    if (this.fullscreen()) {
      this.fullscreen.set(false);
      if (document.fullscreenElement === element) void document.exitFullscreen?.();
      return;
    }
    this.fullscreen.set(true);
    // The browser's full screen when it allows it; the page fills the window in any case.
    element.requestFullscreen?.().catch(() => undefined);
  }

  /** The browser left full screen (its Escape, F11): the page leaves it too. */
  fullscreenChanged(): void {
    if (document.fullscreenElement !== this.host.nativeElement && this.fullscreen()) this.fullscreen.set(false);
  }

  /** Escape leaves the page's full screen, unless something on the page (the details panel, search) used it. */
  escape(event: Event): void {
    if (!event.defaultPrevented && this.fullscreen() && !this.selectedNode()) this.fullscreen.set(false);
  }

  /** Writes a state change to the URL as a new history entry, so Back returns to the state before it. */
  private writeUrl(state: DiagramUrlState): void {
    void this.router.navigate([], { relativeTo: this.route, queryParams: urlParams(state), queryParamsHandling: 'merge' });
  }

  /** The canvas's selection changed (a click, search, Escape): `?node=`. */
  nodeSelected(id: string | null): void {
    if (id !== this.selectedNode()) this.writeUrl({ node: id });
  }

  compareWith(revision: number): void {
    const data = this.data();
    this.writeUrl({ compare: data !== null && revision === data.revision - 1 ? null : revision });
  }

  /** Reads the artifact and brings flows and jobs into the diagram shape (they carry no context). */
  private fetch({ orgId, service, source, name, revision }: DiagramParams): Observable<LoadedDiagram> {
    const plain = { contextPath: null, context: null, report: null };
    const rest = { databases: NO_DATABASES, arrangement: null };
    switch (source) {
      case 'diagram':
        // The arrangement is per diagram, not per revision: an earlier revision is drawn with it too. Without one
        // (a sequence diagram, an error) the diagram is laid out automatically.
        return forkJoin([this.diagramWithLayout(orgId, service, name, revision), this.api.arrangement(orgId, service, name).pipe(catchError(() => of(null)))]).pipe(
          map(([data, arrangement]) => ({ data, notes: null, ...rest, arrangement: data.kind === 'sequence' ? null : arrangement })),
        );
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

  toggle(groupId: string): void {
    const view = this.view();
    if (view === null) return;
    this.show(view.collapsed.includes(groupId) ? expandGroup(view, groupId) : collapseGroup(view, groupId));
  }

  collapseAll(): void {
    const view = this.view();
    if (view === null) return;
    this.show(collapseGroups(view, view.graph.groups.map((group) => group.id)));
  }

  expandAll(): void {
    const view = this.view();
    if (view !== null) this.show(viewWithCollapsed(view.graph, []));
  }

  /**
   * Draws a collapse state at once; the side list and the URL (`?collapsed=`) follow after the canvas has painted it
   * (a router navigation and the list's update were a third of a collapse's main-thread time on 1,000 nodes).
   */
  private show(view: DiagramView): void {
    this.view.set(view);
    this.cancelUrlWrite();
    this.cancelUrlWrite = afterPaint(this.pendingTasks, () => this.writeUrl({ collapsed: view.collapsed }));
  }
  private cancelUrlWrite: () => void = () => undefined;

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
  /**
   * Copies the diagram of the revision shown into a new draft named after it (so its export has the synced files'
   * names) and opens the editor, with the drafts API's "copy of a synced diagram".
   */
  async editCopy(): Promise<void> {
    const data = this.data();
    if (!data) return;
    await this.copying.run(true, () => this.drafts.create(this.orgId(), { name: data.name, from: { service: this.service(), diagram: data.name, revision: data.revision } }), {
      done: async (draft) => {
        await this.router.navigate(['/orgs', this.orgId(), 'drafts', draft.id]);
      },
    });
  }

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
  /**
   * "Copy image link", "Copy Markdown", "Copy HTML iframe": with the link this page made for the diagram, copies at
   * once; otherwise the dialog creates one (latest or pinned, expiry) and shows the snippets to copy.
   */
  async copyEmbed(kind: EmbedSnippetKind): Promise<void> {
    const data = this.data();
    if (!data) return;
    const key = `${this.orgId()}/${this.service()}/${data.name}`;
    const pageUrl = new URL(this.router.serializeUrl(this.router.createUrlTree(['/orgs', this.orgId(), 'services', this.service(), 'diagrams', data.name])), location.origin).toString();
    const known = this.embedLink();
    if (known?.key === key) {
      if (this.clipboard.copy(embedSnippet(kind, known.link, data.name, pageUrl))) this.notify.success(`${EMBED_SNIPPET_LABELS[kind]} copied to the clipboard.`);
      return;
    }
    const ref = this.dialog.open<EmbedLinkDialogComponent, EmbedLinkDialogData, CreatedEmbedLinkResponse>(EmbedLinkDialogComponent, {
      data: { orgId: this.orgId(), service: this.service(), diagram: data.name, revision: data.revision, kind, diagramPageUrl: pageUrl },
      autoFocus: 'dialog',
    });
    const created = await firstValueFrom(ref.afterClosed());
    if (created) this.embedLink.set({ key, link: created });
  }

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
