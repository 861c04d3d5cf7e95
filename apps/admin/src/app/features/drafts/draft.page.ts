import { DatePipe } from '@angular/common';
import { ChangeDetectionStrategy, Component, DestroyRef, ElementRef, Injector, afterNextRender, computed, effect, inject, input, signal, untracked, viewChild } from '@angular/core';
import { MatButtonModule } from '@angular/material/button';
import { MatButtonToggleModule } from '@angular/material/button-toggle';
import { MatIconModule } from '@angular/material/icon';
import { MatProgressBarModule } from '@angular/material/progress-bar';
import { MatSlideToggleModule } from '@angular/material/slide-toggle';
import { MatTooltipModule } from '@angular/material/tooltip';
import { Router, RouterLink } from '@angular/router';
import { firstValueFrom } from 'rxjs';
import type { ModelInput, OverlaidEdge, OverlaidGroup, OverlaidNode } from '@sc/diagram';
import { NotifyService } from '../../core/notify.service';
import { pageResource } from '../../core/page-resource';
import { SessionService } from '../../core/session.service';
import { ErrorBannerComponent } from '../../shared/error-banner.component';
import { LoadErrorComponent } from '../../shared/load-error.component';
import { relativeTime } from '../../shared/time';
import { LayoutEngine } from '../diagram-canvas/layout-engine.service';
import { ServicesApi } from '../services/services.api';
import { actorName } from './draft-labels';
import { DraftsApi, type DraftData } from './drafts.api';
import { Autosave } from './editor/autosave';
import { EditorCanvasComponent } from './editor/editor-canvas.component';
import type { PaletteDrop } from './editor/palette-drop';
import {
  EMPTY_SELECTION,
  addNode,
  applyLayout,
  copy,
  edgeIndex,
  group,
  needsLayout,
  paste,
  remove,
  replaceEdge,
  replaceGroup,
  replaceNode,
  snap,
  ungroup,
  GRID,
  type Clip,
  type EditorDoc,
  type Point,
} from './editor/editor-doc';
import { layoutDraft } from './editor/editor-layout';
import { editorLayoutInput, editorModel, laidOutRoutes, type LaidOutRoutes } from './editor/editor-model';
import { EditorStore } from './editor/editor-store';
import { ExportPanelComponent } from './editor/export-panel.component';
import { PaletteComponent } from './editor/palette.component';
import { freeSpot } from './editor/placement';
import { EdgePropertiesComponent } from './editor/properties/edge-properties.component';
import { GroupPropertiesComponent } from './editor/properties/group-properties.component';
import { NodePropertiesComponent } from './editor/properties/node-properties.component';

const SAVE_STATE_TEXT = { saved: 'All changes saved', pending: 'Unsaved changes', saving: 'Saving…', conflict: 'Not saved: someone else saved', error: 'Not saved' } as const;
const PASTE_OFFSET = 32;
/** The properties panel's width (editor.page.scss), kept free for a node added while the panel is still closed. */
const PANEL_WIDTH = 340;
/** Room kept free around a node added from the palette. */
const PLACEMENT_GAP = 24;
/** The editor body never gets shorter than this, however little of the window is left below the header. */
const MIN_BODY_HEIGHT = 360;
/** Room left under the editor body, so its border shows above the window's edge. */
const BODY_BOTTOM_ROOM = 12;

/**
 * The diagram editor of one draft: palette, canvas, the selection's properties, undo/redo, auto-layout, autosave
 * (about a second after a change, over the version it edits) and Export To Mermaid. Viewers see the drawing and the
 * export without the editing tools.
 */
@Component({
  selector: 'sc-draft-page',
  changeDetection: ChangeDetectionStrategy.OnPush,
  imports: [
    DatePipe,
    RouterLink,
    MatButtonModule,
    MatButtonToggleModule,
    MatIconModule,
    MatProgressBarModule,
    MatSlideToggleModule,
    MatTooltipModule,
    LoadErrorComponent,
    ErrorBannerComponent,
    EditorCanvasComponent,
    PaletteComponent,
    NodePropertiesComponent,
    EdgePropertiesComponent,
    GroupPropertiesComponent,
    ExportPanelComponent,
  ],
  providers: [LayoutEngine],
  templateUrl: './draft.page.html',
  styleUrls: ['./drafts.scss', './editor/editor.page.scss'],
  host: { '(document:keydown)': 'shortcut($event)', '(window:beforeunload)': 'beforeUnload($event)', '(window:resize)': 'fillWindow()' },
})
export class DraftPage {
  private readonly api = inject(DraftsApi);
  private readonly notify = inject(NotifyService);
  private readonly router = inject(Router);
  private readonly engine = inject(LayoutEngine);
  private readonly services = inject(ServicesApi);
  private readonly injector = inject(Injector);
  private readonly host = inject(ElementRef<HTMLElement>);

  /** Bound from the route by the router. */
  readonly orgId = input.required<string>();
  readonly draftId = input.required<string>();

  private readonly params = computed(() => ({ orgId: this.orgId(), draftId: this.draftId() }));
  readonly draft = pageResource({ params: this.params, load: ({ orgId, draftId }) => this.api.get(orgId, draftId), initial: null as DraftData | null });
  readonly canEdit = inject(SessionService).canEditDrafts;

  readonly store = new EditorStore();
  readonly autosave = new Autosave<EditorDoc>(async (doc, version) => {
    const saved = await firstValueFrom(this.api.save(this.orgId(), this.draftId(), version, { name: doc.name, graph: doc.graph, layout: doc.layout }));
    this.lastSaved.set(saved);
    return saved;
  });
  readonly lastSaved = signal<DraftData | null>(null);
  readonly saveStateText = computed(() => SAVE_STATE_TEXT[this.autosave.state()]);

  readonly canvas = viewChild(EditorCanvasComponent);
  /** The synced databases that nodes are bound to (dbConfig), loaded once each, by database name. */
  readonly databases = signal<ModelInput['databases']>(new Map());
  private readonly requestedDatabases = new Set<string>();
  readonly snapToGrid = signal(true);
  readonly direction = signal<'LR' | 'TB'>('LR');
  readonly laying = signal(false);
  /** The routes of the last automatic layout, drawn while the nodes stay where it put them. */
  readonly routes = signal<LaidOutRoutes | null>(null);
  /** The editor body's height: the rest of the window below the header and toolbar (fillWindow). */
  readonly bodyHeight = signal<number | null>(null);
  /** A fit asked for (a draft loaded, a layout applied), made once the canvas has rendered. */
  private readonly fitWanted = signal(false);
  private clip: Clip | null = null;
  private pastes = 0;
  /** The draft id and version the editor holds, so a reload of the same version does not reset the history. */
  private loaded: { id: string; version: number } | null = null;
  private seenRevision = 0;

  readonly savedBy = computed(() => {
    const draft = this.lastSaved() ?? this.draft.value();
    return draft ? `${relativeTime(draft.updatedAt)} by ${actorName(draft.updatedBy)}` : '';
  });
  readonly selection = this.store.selection;
  readonly selectedNode = computed(() => {
    const { nodes, groups, edges } = this.selection();
    return nodes.length === 1 && groups.length === 0 && edges.length === 0 ? (this.store.doc().graph.nodes.find((n) => n.id === nodes[0]) ?? null) : null;
  });
  readonly selectedGroup = computed(() => {
    const { nodes, groups, edges } = this.selection();
    return groups.length === 1 && nodes.length === 0 && edges.length === 0 ? (this.store.doc().graph.groups.find((g) => g.id === groups[0]) ?? null) : null;
  });
  readonly selectedEdge = computed(() => {
    const { nodes, groups, edges } = this.selection();
    return edges.length === 1 && nodes.length === 0 && groups.length === 0 ? (this.store.doc().graph.edges[edges[0]] ?? null) : null;
  });
  readonly selectionSize = computed(() => {
    const { nodes, groups, edges } = this.selection();
    return nodes.length + groups.length + edges.length;
  });

  constructor() {
    // A loaded (or reloaded) draft replaces what the editor holds.
    effect(() => {
      const draft = this.draft.value();
      if (!draft) return;
      untracked(() => this.load(draft));
    });
    // Every change of the document is saved about a second later.
    effect(() => {
      const revision = this.store.revision();
      if (revision === this.seenRevision) return;
      this.seenRevision = revision;
      untracked(() => this.autosave.changed(this.store.doc()));
    });
    // Bound databases are loaded as nodes get bound, so db-table nodes show their columns.
    effect(() => {
      const bindings = this.store.doc().graph.nodes.flatMap((n) => (n.overlay?.dbConfig ? [n.overlay.dbConfig] : []));
      untracked(() => bindings.forEach((config) => this.loadDatabase(config.serviceName, config.databaseName)));
    });
    // The properties panel opens beside the canvas for a selected node or group: the canvas pans so that it stays in
    // view, not behind the panel (and a node just added is shown where it was put).
    effect(() => {
      const { nodes, groups, edges } = this.selection();
      const id = nodes.length + groups.length === 1 && edges.length === 0 ? (nodes[0] ?? groups[0]) : null;
      if (id !== null) afterNextRender(() => this.canvas()?.reveal(id), { injector: this.injector });
    });
    // A fit waits for ngx-vflow's first render (its view measured), then for the render that draws the new positions.
    effect(() => {
      const canvas = this.canvas();
      if (!this.fitWanted() || !canvas?.rendered()) return;
      this.fitWanted.set(false);
      afterNextRender(() => canvas.fit(), { injector: this.injector });
    });
    // The body's top moves when the header above it changes (a banner, the toolbar once the draft is there).
    effect(() => {
      this.draft.value();
      this.autosave.state();
      afterNextRender(() => this.fillWindow(), { injector: this.injector });
    });
    inject(DestroyRef).onDestroy(() => this.autosave.dispose());
  }

  /** Sizes the editor body to the rest of the window below it, so the canvas fills the screen. */
  fillWindow(): void {
    const body = (this.host.nativeElement as HTMLElement).querySelector('.editor-body');
    if (!body) return;
    const top = body.getBoundingClientRect().top + window.scrollY;
    this.bodyHeight.set(Math.max(MIN_BODY_HEIGHT, Math.floor(window.innerHeight - top - BODY_BOTTOM_ROOM)));
  }

  private loadDatabase(service: string, database: string): void {
    const key = `${service}\u0000${database}`;
    if (!service || !database || this.requestedDatabases.has(key)) return;
    this.requestedDatabases.add(key);
    this.services.database(this.orgId(), service, database).subscribe({
      next: (view) => this.databases.update((known) => (known.has(view.name) ? known : new Map([...known, [view.name, { tables: view.tables, collections: view.collections }]]))),
      // A binding to a database that is not synced (any more) is drawn without columns, as the viewer does.
      error: () => undefined,
    });
  }

  private load(draft: DraftData): void {
    if (this.loaded?.id === draft.id && this.loaded.version === draft.version) return;
    this.loaded = { id: draft.id, version: draft.version };
    this.lastSaved.set(null);
    this.store.reset({ name: draft.name, graph: draft.graph, layout: draft.layout });
    this.autosave.reset(draft.version);
    if (needsLayout(this.store.doc())) void this.autoLayout(draft.graph.direction === 'TB' || draft.graph.direction === 'TD' ? 'TB' : 'LR', { initial: true });
    else if (draft.graph.nodes.length > 0) this.fitWanted.set(true);
  }

  // Editing commands ----------------------------------------------------------------------------------------------

  /**
   * Adds a palette item where it was dropped, or (pressed) in free space near the middle of the view, and selects it
   * (the selection effect then keeps it in view beside the properties panel).
   */
  add(item: PaletteDrop, at?: Point): void {
    if (!this.canEdit()) return;
    let point = at ?? this.freePlace(item);
    // Dropped on a group frame: the node goes into that group, placed relative to it.
    const frame = at ? this.canvas()?.frameAt(at) : null;
    if (frame) point = { x: point.x - frame.origin.x, y: point.y - frame.origin.y };
    if (this.snapToGrid()) point = { x: snap(point.x), y: snap(point.y) };
    let id = '';
    this.store.apply((doc) => {
      const added = addNode(doc, item.type, point, { ...(item.shape ? { shape: item.shape } : {}), ...(frame ? { parent: frame.id } : {}) });
      id = added.id;
      return added.doc;
    });
    this.store.selection.set({ ...EMPTY_SELECTION, nodes: [id] });
  }

  /**
   * Where a pressed palette item goes: the free spot nearest the middle of what the canvas shows (less the properties
   * panel's width when the panel is still to open), overlapping no node or group frame; outside the view when it is
   * full.
   */
  private freePlace(item: PaletteDrop): Point {
    const canvas = this.canvas();
    const view = canvas?.visibleArea(this.selectionSize() > 0 ? 0 : PANEL_WIDTH);
    if (!canvas || !view) return { x: 0, y: 0 };
    const sample = addNode(this.store.doc(), item.type, { x: 0, y: 0 }, item.shape ? { shape: item.shape } : {});
    const size = editorModel(sample.doc, this.databases()).nodes.find((n) => n.node.id === sample.id)?.node ?? { width: 160, height: 60 };
    return freeSpot(size, view, canvas.boxes(), { gap: PLACEMENT_GAP, step: this.snapToGrid() ? GRID : 1 });
  }

  undo(): void {
    this.store.undo();
  }

  redo(): void {
    this.store.redo();
  }

  deleteSelection(): void {
    const selection = this.selection();
    this.store.apply((doc) => remove(doc, selection));
    this.store.selection.set(EMPTY_SELECTION);
  }

  copySelection(): void {
    this.clip = copy(this.store.doc(), this.selection());
    this.pastes = 0;
  }

  pasteClip(): void {
    const clip = this.clip;
    if (!clip || !this.canEdit()) return;
    this.pastes++;
    let selected = EMPTY_SELECTION;
    this.store.apply((doc) => {
      const pasted = paste(doc, clip, { x: PASTE_OFFSET * this.pastes, y: PASTE_OFFSET * this.pastes });
      selected = pasted.selection;
      return pasted.doc;
    });
    this.store.selection.set(selected);
  }

  duplicate(): void {
    this.copySelection();
    this.pasteClip();
  }

  groupSelection(): void {
    const { nodes, groups } = this.selection();
    const result = group(this.store.doc(), [...groups, ...nodes]);
    if (!result) {
      this.notify.error(new Error('Select nodes or groups that are in the same group (or all at the top level) to group them.'));
      return;
    }
    this.store.apply(() => result.doc);
    this.store.selection.set({ ...EMPTY_SELECTION, groups: [result.id] });
  }

  ungroupSelection(): void {
    const groups = this.selection().groups;
    this.store.apply((doc) => groups.reduce((next, id) => ungroup(next, id), doc));
  }

  rename(name: string): void {
    const trimmed = name.trim();
    if (!trimmed) return;
    this.store.apply((doc) => (doc.name === trimmed ? doc : { ...doc, name: trimmed }), 'name');
  }

  /**
   * Lays the drawing out with ELK (left to right or top to bottom, group frames kept around their members). The
   * `initial` layout of a draft without one (a fresh copy of a synced diagram) is not a change of the person's: nothing
   * to undo or save, and the copy stays the synced diagram (its export the synced files) until they change something.
   */
  async autoLayout(direction: 'LR' | 'TB' = this.direction(), options: { initial?: boolean } = {}): Promise<void> {
    const canvas = this.canvas();
    this.direction.set(direction);
    this.laying.set(true);
    try {
      const doc = this.store.doc();
      const model = canvas?.model() ?? editorModel(doc);
      const result = await layoutDraft(this.engine.engine, editorLayoutInput(model, direction));
      // ELK's positions, to the pixel and not snapped to the grid: its edge routes run between exactly these boxes.
      const boxes = Object.fromEntries(Object.entries(result.boxes).map(([id, box]) => [id, { x: Math.round(box.x), y: Math.round(box.y) }]));
      // Viewers see the layout too, but it is not a change of theirs to save.
      if (!this.canEdit() || (options.initial && this.store.doc() === doc)) this.store.reset(applyLayout(doc, boxes, direction));
      else this.store.apply((current) => (current === doc ? applyLayout(current, boxes, direction) : current));
      this.routes.set(laidOutRoutes(editorModel(this.store.doc(), this.databases()), result.edges));
      this.fitWanted.set(true);
    } catch (error: unknown) {
      this.notify.error(error);
    } finally {
      this.laying.set(false);
    }
  }

  // Properties panel ------------------------------------------------------------------------------------------------

  nodeChanged(change: { previousId: string; node: OverlaidNode }): void {
    this.store.apply((doc) => replaceNode(doc, change.previousId, change.node));
    if (change.previousId !== change.node.id) this.store.selection.set({ ...EMPTY_SELECTION, nodes: [change.node.id] });
  }

  groupChanged(change: { previousId: string; group: OverlaidGroup }): void {
    this.store.apply((doc) => replaceGroup(doc, change.previousId, change.group));
    if (change.previousId !== change.group.id) this.store.selection.set({ ...EMPTY_SELECTION, groups: [change.group.id] });
  }

  edgeChanged(change: { previous: OverlaidEdge; edge: OverlaidEdge }): void {
    const index = edgeIndex(this.store.doc().graph, change.previous);
    if (index < 0) return;
    this.store.apply((doc) => replaceEdge(doc, index, change.edge));
  }

  readonly actorLabel = actorName;

  // Conflicts and leaving -----------------------------------------------------------------------------------------

  reload(): void {
    this.loaded = null;
    this.draft.reload();
  }

  async saveAsCopy(): Promise<void> {
    const doc = this.store.doc();
    try {
      const created = await firstValueFrom(this.api.create(this.orgId(), { name: `${doc.name} (copy)`, graph: doc.graph, layout: doc.layout }));
      this.autosave.reset(this.autosave.version());
      this.notify.success(`Saved your version as “${created.name}”.`);
      await this.router.navigate(['/orgs', this.orgId(), 'drafts', created.id]);
    } catch (error: unknown) {
      this.notify.error(error);
    }
  }

  /** For the CanDeactivate guard: saves what is pending, then asks when something is still unsaved. */
  async canLeave(): Promise<boolean> {
    if (this.autosave.state() === 'pending' || this.autosave.state() === 'saving') await this.autosave.saveNow();
    if (!this.autosave.dirty()) return true;
    return window.confirm('Your latest changes to this draft are not saved. Leave anyway?');
  }

  beforeUnload(event: BeforeUnloadEvent): void {
    if (!this.autosave.dirty()) return;
    void this.autosave.saveNow();
    event.preventDefault();
    // Older browsers show the prompt only when returnValue is set.
    event.returnValue = '';
  }

  // Keyboard --------------------------------------------------------------------------------------------------------

  shortcut(event: KeyboardEvent): void {
    const target = event.target as HTMLElement | null;
    if (target?.closest('input, textarea, select, [contenteditable=true], .properties-panel, sc-export-panel')) return;
    // Text selected on the page (the export's files): Ctrl+C copies that text, as the browser would.
    if ((window.getSelection()?.toString() ?? '') !== '' && (event.ctrlKey || event.metaKey) && event.key.toLowerCase() === 'c') return;
    if (!this.canEdit()) return;
    const mod = event.ctrlKey || event.metaKey;
    const key = event.key.toLowerCase();
    if (mod && key === 'z' && !event.shiftKey) this.undo();
    else if (mod && ((key === 'z' && event.shiftKey) || key === 'y')) this.redo();
    else if (mod && key === 'c') this.copySelection();
    else if (mod && key === 'v') this.pasteClip();
    else if (mod && key === 'd') this.duplicate();
    else if (mod && key === 'g' && !event.shiftKey) this.groupSelection();
    else if (mod && key === 'g' && event.shiftKey) this.ungroupSelection();
    else if (mod && key === 's') void this.autosave.saveNow();
    else if (!mod && (event.key === 'Delete' || event.key === 'Backspace') && this.selectionSize() > 0) this.deleteSelection();
    else if (event.key === 'Escape') this.store.selection.set(EMPTY_SELECTION);
    else return;
    event.preventDefault();
  }
}
