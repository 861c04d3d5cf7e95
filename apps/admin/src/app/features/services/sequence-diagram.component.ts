import { ChangeDetectionStrategy, Component, computed, effect, inject, input, signal } from '@angular/core';
import { DomSanitizer, SafeHtml } from '@angular/platform-browser';
import { withParticipantNames, type OverlaidGraph } from '@sc/diagram';
import { MermaidRenderer } from '../../shared/mermaid-renderer.service';

/**
 * A sequence diagram drawn by Mermaid's own renderer from its stored source, so message order, notes,
 * alt/loop/par blocks and activations are exactly as written; the participants carry their context names
 * (`nodes.<id>.name`), applied to the source by withParticipantNames.
 */
@Component({
  selector: 'sc-sequence-diagram',
  changeDetection: ChangeDetectionStrategy.OnPush,
  template: `
    @if (error(); as message) {
      <div class="error-banner" role="alert">The sequence diagram could not be drawn: {{ message }}</div>
    }
    <div class="sequence" data-testid="sequence-diagram" role="img" [attr.aria-label]="label()" [innerHTML]="svg()"></div>
  `,
  styles: `
    .sequence {
      overflow: auto;
      max-height: 80vh;
      padding: 16px;
      background: #fff;
    }
  `,
})
export class SequenceDiagramComponent {
  private readonly renderer = inject(MermaidRenderer);
  private readonly sanitizer = inject(DomSanitizer);

  /** The Mermaid source as stored. */
  readonly source = input.required<string>();
  /** The synced graph with the context overlays; only the participants' names are taken from it. */
  readonly graph = input.required<Pick<OverlaidGraph, 'nodes'>>();
  /** What a screen reader announces for the drawing. */
  readonly label = input('Sequence diagram');

  /** The source Mermaid draws: the stored one with the participants' context names. */
  readonly drawnSource = computed(() => withParticipantNames(this.source(), this.graph()));
  readonly svg = signal<SafeHtml | null>(null);
  readonly error = signal<string | null>(null);

  constructor() {
    effect((onCleanup) => {
      const source = this.drawnSource();
      // Drawings finish in any order; only the one for the source still shown may land.
      let current = true;
      onCleanup(() => (current = false));
      this.renderer.render(source).then(
        (svg) => {
          if (!current) return;
          // Produced by Mermaid in strict mode and sanitized by DOMPurify (see MermaidRenderer).
          this.svg.set(this.sanitizer.bypassSecurityTrustHtml(svg));
          this.error.set(null);
        },
        (error: unknown) => {
          if (!current) return;
          this.svg.set(null);
          this.error.set(error instanceof Error ? error.message : 'unknown error');
        },
      );
    });
  }
}
