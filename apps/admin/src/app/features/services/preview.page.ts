import { DatePipe, DOCUMENT } from '@angular/common';
import { afterRenderEffect, ChangeDetectionStrategy, Component, computed, inject, input } from '@angular/core';
import { toSignal } from '@angular/core/rxjs-interop';
import { MatCardModule } from '@angular/material/card';
import { MatIconModule } from '@angular/material/icon';
import { MatProgressBarModule } from '@angular/material/progress-bar';
import { ActivatedRoute, RouterLink } from '@angular/router';
import { previewDiagramFragment } from '@sc/contracts/core';
import type { DiagramView, Highlights } from '@sc/diagram';
import { changeHighlights, describeChanges, type ChangeEntry } from '../diagram-canvas/changes';
import { DiagramCanvasComponent } from '../diagram-canvas/diagram-canvas.component';
import { LayoutEngine } from '../diagram-canvas/layout-engine.service';
import { pageResource } from '../../core/page-resource';
import { LoadErrorComponent } from '../../shared/load-error.component';
import { plural } from '../../shared/plural';
import { ServiceBreadcrumbComponent } from './service-breadcrumb.component';
import { viewWithCollapsed } from './diagram-url-state';
import { ServicesApi, type PreviewData } from './services.api';

type PreviewDiagram = PreviewData['diagrams'][number];

/** A diagram of the preview drawn on the canvas with its changes against the current revision highlighted. */
interface DrawnDiagram {
  name: string;
  status: PreviewDiagram['status'];
  summary: string;
  /** Null for a sequence diagram (not drawn on the canvas: its changes are listed). */
  view: DiagramView | null;
  highlights: Highlights | null;
  changes: ChangeEntry[];
}

/**
 * A preview (`service-cli sync --preview`): what the service's diagrams would become, not synced. Each added or
 * changed diagram is drawn on the diagram canvas with the compare highlights of the diagram page (added green,
 * changed amber, removed ghosted red, changes.ts) against the service's current revision; removed and unchanged
 * diagrams are listed. A URL ending in `#diagram-<name>` (previewDiagramFragment; the links of `service-cli diff
 * --format markdown`) scrolls to that diagram once the preview has loaded.
 */
@Component({
  selector: 'sc-preview-page',
  changeDetection: ChangeDetectionStrategy.OnPush,
  imports: [DatePipe, RouterLink, MatCardModule, MatIconModule, MatProgressBarModule, LoadErrorComponent, ServiceBreadcrumbComponent, DiagramCanvasComponent],
  templateUrl: './preview.page.html',
  styleUrls: ['./services.scss', './diagram.page.scss', './preview.page.scss'],
  // One layout engine (its workers) for the page's drawings.
  providers: [LayoutEngine],
})
export class PreviewPage {
  private readonly api = inject(ServicesApi);
  private readonly route = inject(ActivatedRoute);
  private readonly document = inject(DOCUMENT);
  protected readonly fragment = toSignal(this.route.fragment, { initialValue: this.route.snapshot.fragment });

  /** Bound from the route by the router. */
  readonly orgId = input.required<string>();
  readonly service = input.required<string>();
  readonly id = input.required<string>();

  readonly loaded = pageResource({
    params: () => ({ orgId: this.orgId(), service: this.service(), id: this.id() }),
    load: ({ orgId, service, id }) => this.api.preview(orgId, service, id),
    initial: null as PreviewData | null,
  });
  readonly preview = this.loaded.value;
  readonly serviceLink = computed(() => `/orgs/${encodeURIComponent(this.orgId())}/services/${encodeURIComponent(this.service())}`);

  /** Added and changed diagrams, drawn. */
  readonly drawn = computed<DrawnDiagram[]>(() =>
    (this.preview()?.diagrams ?? [])
      .filter((diagram) => diagram.diagram !== null && diagram.changes !== null)
      .map((diagram) => {
        const data = diagram.diagram;
        const changes = diagram.changes;
        if (data === null || changes === null) throw new Error('filtered above');
        const onCanvas = data.kind !== 'sequence';
        return {
          name: diagram.name,
          status: diagram.status,
          summary: countsSummary(diagram.counts),
          view: onCanvas ? viewWithCollapsed(data.graph, []) : null,
          highlights: onCanvas ? changeHighlights(changes, data.graph) : null,
          changes: describeChanges(changes),
        };
      }),
  );
  readonly removed = computed(() => (this.preview()?.diagrams ?? []).filter((diagram) => diagram.status === 'removed'));
  readonly unchanged = computed(() => (this.preview()?.diagrams ?? []).filter((diagram) => diagram.status === 'unchanged'));
  readonly countsSummary = countsSummary;
  readonly fragmentOf = previewDiagramFragment;

  constructor() {
    // The router's anchor scrolling runs at navigation end, before the preview has loaded and its sections exist.
    afterRenderEffect(() => {
      const fragment = this.fragment();
      if (fragment && this.drawn().length > 0) this.document.getElementById(fragment)?.scrollIntoView({ block: 'start' });
    });
  }
}

function countsSummary(counts: PreviewDiagram['counts']): string {
  const parts = [counts.added ? `${counts.added} added` : '', counts.changed ? `${counts.changed} changed` : '', counts.removed ? `${counts.removed} removed` : ''].filter(Boolean);
  return parts.length ? `${parts.join(', ')} (${plural(counts.added + counts.changed + counts.removed, 'element')})` : 'no element changed';
}
