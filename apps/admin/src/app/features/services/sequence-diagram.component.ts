import {
  ChangeDetectionStrategy,
  Component,
  ElementRef,
  Injector,
  afterNextRender,
  computed,
  effect,
  inject,
  input,
  signal,
  viewChild,
  type OnDestroy,
} from '@angular/core';
import { MatButtonModule } from '@angular/material/button';
import { MatIconModule } from '@angular/material/icon';
import { MatTooltipModule } from '@angular/material/tooltip';
import { DomSanitizer, SafeHtml } from '@angular/platform-browser';
import { withParticipantNames, type OverlaidGraph } from '@sc/diagram';
import { select } from 'd3-selection';
import { zoom, zoomIdentity, type D3ZoomEvent, type ZoomBehavior, type ZoomTransform } from 'd3-zoom';
import { fitViewport } from '../diagram-canvas/fit';
import { MermaidRenderer } from '../../shared/mermaid-renderer.service';
import { plural } from '../../shared/plural';
import { sizedSvg, standaloneSvg, type SizedSvg } from './sequence-svg';

const MIN_ZOOM = 0.05;
const MAX_ZOOM = 4;
/** Fit never enlarges a small diagram past this: Mermaid's own size is already readable. */
const MAX_FIT_ZOOM = 1.25;
/** The share of the drawing's size kept free around it by Fit. */
const FIT_PADDING = 0.04;

/**
 * A sequence diagram drawn by Mermaid's own renderer from its stored source, so message order, notes,
 * alt/loop/par blocks and activations are exactly as written; the participants carry their context names
 * (`nodes.<id>.name`), applied to the source by withParticipantNames. Shown in a frame like the canvas's: zoom
 * (buttons, wheel, pinch, `+`/`-`), pan (drag), Fit (`0`, and on every new drawing), so no part of the drawing is
 * ever out of reach; `image()` gives it as a standalone SVG for the page's exports.
 */
@Component({
  selector: 'sc-sequence-diagram',
  changeDetection: ChangeDetectionStrategy.OnPush,
  imports: [MatButtonModule, MatIconModule, MatTooltipModule],
  template: `
    <div class="canvas-toolbar" role="toolbar" aria-label="Diagram view">
      <span class="muted small">{{ summary() }}</span>
      <span class="toolbar-spacer"></span>
      <button mat-icon-button type="button" (click)="zoomBy(0.8)" aria-label="Zoom out" matTooltip="Zoom out (−)" data-testid="zoom-out">
        <mat-icon svgIcon="zoom_out" />
      </button>
      <button mat-icon-button type="button" (click)="zoomBy(1.25)" aria-label="Zoom in" matTooltip="Zoom in (+)" data-testid="zoom-in">
        <mat-icon svgIcon="zoom_in" />
      </button>
      <button mat-icon-button type="button" (click)="fit()" aria-label="Fit to view" matTooltip="Fit to view (0)" data-testid="fit">
        <mat-icon svgIcon="fit_screen" />
      </button>
    </div>
    @if (error(); as message) {
      <div class="error-banner" role="alert">The sequence diagram could not be drawn: {{ message }}</div>
    }
    <div
      #viewport
      class="sequence-viewport"
      data-testid="sequence-diagram"
      role="group"
      tabindex="0"
      [attr.aria-label]="label() + '. Drag to move, + and − zoom, 0 fits.'"
      [attr.aria-busy]="drawing() === null && error() === null"
      [attr.data-drawn]="drawing() !== null ? 'true' : null"
      [attr.data-zoom]="zoomLevel()"
      (keydown)="keydown($event)"
    >
      <div class="sequence-drawing" [style.transform]="transformCss()" [innerHTML]="html()"></div>
    </div>
  `,
  styleUrl: './sequence-diagram.component.scss',
})
export class SequenceDiagramComponent implements OnDestroy {
  private readonly renderer = inject(MermaidRenderer);
  private readonly sanitizer = inject(DomSanitizer);
  private readonly injector = inject(Injector);

  /** The Mermaid source as stored. */
  readonly source = input.required<string>();
  /** The synced graph with the context overlays; only the participants' names are taken from it. */
  readonly graph = input.required<Pick<OverlaidGraph, 'nodes'>>();
  /** What a screen reader announces for the drawing. */
  readonly label = input('Sequence diagram');

  /** The source Mermaid draws: the stored one with the participants' context names. */
  readonly drawnSource = computed(() => withParticipantNames(this.source(), this.graph()));
  /** Mermaid's drawing at its natural size; null until drawn, or when it could not be. */
  readonly drawing = signal<SizedSvg | null>(null);
  readonly error = signal<string | null>(null);
  // Produced by Mermaid in strict mode and sanitized by DOMPurify (see MermaidRenderer).
  readonly html = computed<SafeHtml | null>(() => {
    const drawing = this.drawing();
    return drawing ? this.sanitizer.bypassSecurityTrustHtml(drawing.svg) : null;
  });
  readonly summary = computed(() => plural(this.graph().nodes.length, 'participant'));

  private readonly viewport = viewChild.required<ElementRef<HTMLElement>>('viewport');
  private readonly transform = signal<ZoomTransform>(zoomIdentity);
  readonly transformCss = computed(() => {
    const { x, y, k } = this.transform();
    return `translate(${x}px, ${y}px) scale(${k})`;
  });
  readonly zoomLevel = computed(() => Math.round(this.transform().k * 1000) / 1000);
  /** d3-zoom, as ngx-vflow uses it for the canvas: wheel and pinch zoom, drag pans, double-click zooms in. */
  private readonly behavior: ZoomBehavior<HTMLElement, unknown> = zoom<HTMLElement, unknown>()
    .scaleExtent([MIN_ZOOM, MAX_ZOOM])
    .on('zoom', (event: D3ZoomEvent<HTMLElement, unknown>) => this.transform.set(event.transform));

  constructor() {
    afterNextRender(() => select(this.viewport().nativeElement).call(this.behavior));
    effect((onCleanup) => {
      const source = this.drawnSource();
      // Drawings finish in any order; only the one for the source still shown may land.
      let current = true;
      onCleanup(() => (current = false));
      this.renderer.render(source).then(
        (svg) => {
          if (!current) return;
          this.drawing.set(sizedSvg(svg));
          this.error.set(null);
          // Each new drawing starts fitted to the frame, once it is in the DOM.
          afterNextRender(() => this.fit(), { injector: this.injector });
        },
        (error: unknown) => {
          if (!current) return;
          this.drawing.set(null);
          this.error.set(error instanceof Error ? error.message : 'unknown error');
        },
      );
    });
  }

  ngOnDestroy(): void {
    select(this.viewport().nativeElement).on('.zoom', null);
  }

  /** The whole drawing in the frame, centred, at most slightly enlarged. A frame without size has nothing to fit. */
  fit(): void {
    const drawing = this.drawing();
    const element = this.viewport().nativeElement;
    const view = { width: element.clientWidth, height: element.clientHeight };
    if (!drawing || view.width === 0 || view.height === 0) return;
    const { x, y, zoom: k } = fitViewport(drawing, view, { width: 0, height: 0 }, FIT_PADDING, { min: MIN_ZOOM, max: MAX_FIT_ZOOM });
    select(element).call(this.behavior.transform, zoomIdentity.translate(x, y).scale(k));
  }

  /** Zooms around the centre of the frame (the buttons have no pointer position). */
  zoomBy(factor: number): void {
    select(this.viewport().nativeElement).call(this.behavior.scaleBy, factor);
  }

  keydown(event: KeyboardEvent): void {
    if (event.key === '+' || event.key === '=') this.zoomBy(1.25);
    else if (event.key === '-' || event.key === '_') this.zoomBy(0.8);
    else if (event.key === '0') this.fit();
    else return;
    event.preventDefault();
  }

  /** The drawing as a standalone SVG file at its natural size (for the SVG and PNG exports); null until drawn. */
  image(): SizedSvg | null {
    const drawing = this.drawing();
    return drawing && drawing.width > 0 ? { ...drawing, svg: standaloneSvg(drawing) } : null;
  }
}
