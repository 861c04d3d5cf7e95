import { ChangeDetectionStrategy, Component, ElementRef, ViewEncapsulation, afterRenderEffect, computed, inject, input } from '@angular/core';
import { DomSanitizer, SafeHtml } from '@angular/platform-browser';
import { highlightCode } from './highlight';
import { renderMarkdown } from './markdown';
import { MermaidRenderer } from './mermaid-renderer.service';

/**
 * Markdown from a repository, rendered and sanitized (see renderMarkdown). After the text is on the page, code
 * blocks are highlighted and ```mermaid blocks drawn, both loaded lazily; until then (or when a language is
 * unknown or a drawing fails) the block stays as plain code.
 */
@Component({
  selector: 'sc-markdown',
  changeDetection: ChangeDetectionStrategy.OnPush,
  // The HTML comes from innerHTML, so it carries no component attributes for scoped styles to match.
  encapsulation: ViewEncapsulation.None,
  template: `<div class="sc-markdown" data-testid="markdown" [innerHTML]="html()"></div>`,
  styleUrl: './markdown.component.scss',
})
export class MarkdownComponent {
  private readonly sanitizer = inject(DomSanitizer);
  private readonly mermaid = inject(MermaidRenderer);
  private readonly host: ElementRef<HTMLElement> = inject(ElementRef);

  readonly markdown = input.required<string>();

  // renderMarkdown sanitized it with DOMPurify; Angular's own sanitizer would also drop the link targets it set.
  readonly html = computed<SafeHtml>(() => this.sanitizer.bypassSecurityTrustHtml(renderMarkdown(this.markdown())));

  constructor() {
    afterRenderEffect(() => {
      this.html();
      const root = this.host.nativeElement.querySelector<HTMLElement>('.sc-markdown');
      if (root) this.enhance(root);
    });
  }

  /** Starts highlighting and drawing; each block is replaced only while it is still on the page. */
  private enhance(root: HTMLElement): void {
    for (const code of Array.from(root.querySelectorAll<HTMLElement>('pre > code[class*="language-"]'))) {
      const language = /(?:^|\s)language-(\S+)/.exec(code.className)?.[1] ?? '';
      if (language.toLowerCase() === 'mermaid') void this.draw(code);
      else void this.highlight(code, language);
    }
  }

  private async highlight(code: HTMLElement, language: string): Promise<void> {
    const source = code.textContent ?? '';
    try {
      const html = await highlightCode(source, language);
      if (html === null || !code.isConnected) return;
      // highlight.js escapes the code and only adds <span class="hljs-…">.
      code.innerHTML = html;
      code.classList.add('hljs');
    } catch {
      // The language chunk could not load (offline, new deployment): the block stays plain text.
    }
  }

  private async draw(code: HTMLElement): Promise<void> {
    const block = code.parentElement;
    if (block === null) return;
    const figure = document.createElement('div');
    figure.className = 'markdown-mermaid';
    try {
      // Mermaid in strict mode; the SVG is sanitized by MermaidRenderer.
      figure.innerHTML = await this.mermaid.render(code.textContent ?? '');
    } catch (error: unknown) {
      if (!block.isConnected) return;
      const note = document.createElement('p');
      note.className = 'markdown-mermaid-error';
      note.setAttribute('role', 'note');
      note.textContent = `This Mermaid diagram could not be drawn: ${error instanceof Error ? error.message : 'unknown error'}`;
      block.after(note);
      return;
    }
    if (block.isConnected) block.replaceWith(figure);
  }
}
