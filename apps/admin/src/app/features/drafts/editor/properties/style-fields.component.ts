import { ChangeDetectionStrategy, Component, input, output } from '@angular/core';
import { MatFormFieldModule } from '@angular/material/form-field';
import { MatInputModule } from '@angular/material/input';
import { MatSlideToggleModule } from '@angular/material/slide-toggle';
import { STROKE_STYLES, type NodeStyle, type StrokeStyle } from '@sc/diagram';
import { ColorFieldComponent } from './color-field.component';
import { ChoiceFieldComponent } from './panel-parts.component';

/**
 * The style of a node or an edge (the spec's `style` objects): stroke colour, width, solid/dashed/dotted and
 * animation, plus fill and border radius for nodes. Emits a patch; undefined unsets a property. Numbers are not
 * checked here: the panel refuses what the context rules refuse (a negative width) and says why.
 * Test hooks, with p = prefix: `p-fill`, `p-stroke` (colour text; `-picker` for the colour input),
 * `p-stroke-width`, `p-border-radius`, `p-stroke-style` (mat-select), `p-border-animation` (toggle).
 */
@Component({
  selector: 'sc-style-fields',
  changeDetection: ChangeDetectionStrategy.OnPush,
  styleUrl: './fields.scss',
  imports: [MatFormFieldModule, MatInputModule, MatSlideToggleModule, ChoiceFieldComponent, ColorFieldComponent],
  template: `
    <div class="row">
      @if (forNode()) {
        <sc-color-field label="Fill" [testId]="prefix() + '-fill'" [value]="value().fill ?? ''" (valueChange)="styleChange.emit({ fill: $event || undefined })" />
      }
      <sc-color-field [label]="forNode() ? 'Stroke' : 'Stroke colour'" [testId]="prefix() + '-stroke'" [value]="value().stroke ?? ''" (valueChange)="styleChange.emit({ stroke: $event || undefined })" />
    </div>
    <div class="row">
      <mat-form-field>
        <mat-label>Stroke width</mat-label>
        <input matInput type="number" min="0" step="0.5" [value]="value().strokeWidth ?? ''" (change)="styleChange.emit({ strokeWidth: number($any($event.target).value) })" [attr.data-testid]="prefix() + '-stroke-width'" />
      </mat-form-field>
      @if (forNode()) {
        <mat-form-field>
          <mat-label>Border radius</mat-label>
          <input matInput type="number" min="0" step="1" [value]="value().borderRadius ?? ''" (change)="styleChange.emit({ borderRadius: number($any($event.target).value) })" [attr.data-testid]="prefix() + '-border-radius'" />
        </mat-form-field>
      }
    </div>
    <sc-choice-field label="Line" [testId]="prefix() + '-stroke-style'" [options]="strokeStyles" [value]="value().strokeStyle ?? ''" none="(default)" (picked)="strokeStyle($any($event))" />
    <mat-slide-toggle [checked]="value().borderAnimationEnabled ?? false" (change)="styleChange.emit({ borderAnimationEnabled: $event.checked || undefined })" [attr.data-testid]="prefix() + '-border-animation'">
      {{ forNode() ? 'Animated border' : 'Animated' }}
    </mat-slide-toggle>
  `,
  styles: `
    :host {
      display: flex;
      flex-direction: column;
      gap: 12px;
    }
  `,
})
export class StyleFieldsComponent {
  /** A node style; an edge style is the same without fill and borderRadius. */
  readonly value = input.required<NodeStyle>();
  readonly forNode = input.required<boolean>();
  readonly prefix = input.required<string>();
  readonly styleChange = output<Partial<NodeStyle>>();
  readonly strokeStyles = STROKE_STYLES;

  number(text: string): number | undefined {
    return text.trim() === '' ? undefined : Number(text);
  }

  strokeStyle(value: StrokeStyle | ''): void {
    this.styleChange.emit({ strokeStyle: value === '' ? undefined : value });
  }
}
