import { Injectable } from '@angular/core';
import DOMPurify from 'dompurify';

type MermaidApi = (typeof import('mermaid'))['default'];

/**
 * Draws Mermaid source as SVG in the browser. Mermaid is large, so it is loaded on first use only (the diagram
 * page's chunk). Diagrams come from repositories, i.e. from outside: Mermaid runs in strict security mode with
 * plain SVG labels, and the SVG is sanitized again before the page inserts it.
 */
@Injectable({ providedIn: 'root' })
export class MermaidRenderer {
  private mermaid?: Promise<MermaidApi>;
  private counter = 0;
  /** Mermaid keeps module-global state while rendering, so renders run one after another. */
  private queue: Promise<unknown> = Promise.resolve();

  render(source: string): Promise<string> {
    const run = this.queue.then(() => this.renderNow(source));
    this.queue = run.catch(() => undefined);
    return run;
  }

  private async renderNow(source: string): Promise<string> {
    const mermaid = await this.load();
    const { svg } = await mermaid.render(`sc-diagram-${this.counter++}`, source);
    return DOMPurify.sanitize(svg, { USE_PROFILES: { svg: true, svgFilters: true }, ADD_TAGS: ['style'] });
  }

  private load(): Promise<MermaidApi> {
    this.mermaid ??= import('mermaid').then(({ default: mermaid }) => {
      mermaid.initialize({
        startOnLoad: false,
        securityLevel: 'strict',
        theme: 'neutral',
        // Plain SVG text labels: no foreignObject HTML, which the sanitizer below would (rightly) remove.
        htmlLabels: false,
        // Fit the drawing to the page width; the canvas scrolls when a diagram is taller than the window.
        flowchart: { useMaxWidth: true },
        // Sequence diagrams keep their natural size (readable text) and scroll sideways when wide.
        sequence: { useMaxWidth: false },
        // Mermaid 12 lays flowcharts out with ELK by default, a 1.5 MB chunk (440 KB compressed); its classic dagre
        // layout draws the same diagrams from a small one, so pages that draw with Mermaid stay light.
        layout: 'dagre',
        maxEdges: 5000,
      });
      return mermaid;
    });
    return this.mermaid;
  }
}
