import { ChangeDetectionStrategy, Component, ElementRef, input, linkedSignal, output, signal, viewChild } from '@angular/core';
import { MatButtonModule } from '@angular/material/button';
import { MarkdownComponent } from '../../../../shared/markdown.component';

/** Markdown around the selection (or a placeholder) for each toolbar button. */
const FORMATS = {
  bold: { before: '**', after: '**', empty: 'bold' },
  italic: { before: '_', after: '_', empty: 'italic' },
  code: { before: '`', after: '`', empty: 'code' },
  link: { before: '[', after: '](https://)', empty: 'link text' },
  list: { before: '- ', after: '', empty: 'item' },
  heading: { before: '### ', after: '', empty: 'Heading' },
} as const;
export type RichTextFormat = keyof typeof FORMATS;

/**
 * A Rich Text Editor field: Markdown (the dashboard renders Markdown everywhere, sanitized), with a toolbar for
 * the common marks and a preview. Stored as the Markdown string. Test hooks: `<testId>` (the textarea),
 * `<testId>-<format>` (toolbar buttons: bold, italic, code, link, list, heading), `<testId>-preview`.
 */
@Component({
  selector: 'sc-rich-text-editor',
  changeDetection: ChangeDetectionStrategy.OnPush,
  imports: [MatButtonModule, MarkdownComponent],
  template: `
    <div class="toolbar" role="toolbar" aria-label="Formatting">
      @for (format of formats; track format) {
        <button mat-button type="button" (click)="apply(format)" [attr.aria-label]="format" [attr.data-testid]="testId() + '-' + format">{{ format }}</button>
      }
      <button mat-stroked-button type="button" class="mode" (click)="mode.set(mode() === 'edit' ? 'preview' : 'edit')" [attr.aria-pressed]="mode() === 'preview'" [attr.data-testid]="testId() + '-preview-toggle'">
        Preview
      </button>
    </div>
    @if (mode() === 'edit') {
      <textarea #area rows="6" [value]="text()" (input)="text.set($any($event.target).value)" (change)="valueChange.emit(text())" [attr.aria-label]="label()" [attr.data-testid]="testId()"></textarea>
    } @else {
      <div class="preview" [attr.data-testid]="testId() + '-preview'"><sc-markdown [markdown]="text()" /></div>
    }
  `,
  styles: `
    :host {
      display: flex;
      flex-direction: column;
      gap: 6px;
    }
    .toolbar {
      display: flex;
      flex-wrap: wrap;
      gap: 2px;
      align-items: center;
    }
    .mode {
      margin-left: auto;
    }
    .toolbar button {
      min-width: 0;
      padding: 0 8px;
    }
    textarea,
    .preview {
      box-sizing: border-box;
      width: 100%;
      padding: 8px;
      border: 1px solid var(--mat-sys-outline-variant);
      border-radius: 4px;
      background: var(--mat-sys-surface);
      color: var(--mat-sys-on-surface);
      font: inherit;
    }
    .preview {
      min-height: 80px;
    }
  `,
})
export class RichTextEditorComponent {
  readonly value = input.required<string>();
  readonly label = input.required<string>();
  readonly testId = input.required<string>();
  readonly valueChange = output<string>();

  readonly formats = Object.keys(FORMATS) as RichTextFormat[];
  readonly text = linkedSignal(() => this.value());
  readonly mode = signal<'edit' | 'preview'>('edit');
  private readonly area = viewChild<ElementRef<HTMLTextAreaElement>>('area');

  /** Wraps the selection in the format's Markdown (a placeholder when nothing is selected), then saves. */
  apply(format: RichTextFormat): void {
    const { before, after, empty } = FORMATS[format];
    const area = this.area()?.nativeElement;
    const text = this.text();
    const start = area?.selectionStart ?? text.length;
    const end = area?.selectionEnd ?? text.length;
    const selected = text.slice(start, end) || empty;
    this.text.set(`${text.slice(0, start)}${before}${selected}${after}${text.slice(end)}`);
    this.valueChange.emit(this.text());
  }
}
