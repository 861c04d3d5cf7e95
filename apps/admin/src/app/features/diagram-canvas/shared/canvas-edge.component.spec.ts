import { ChangeDetectionStrategy, Component, signal } from '@angular/core';
import { TestBed } from '@angular/core/testing';
import { canvasEdge } from '@sc/diagram';
import { CanvasEdgeComponent } from './canvas-edge.component';

@Component({
  changeDetection: ChangeDetectionStrategy.OnPush,
  imports: [CanvasEdgeComponent],
  template: `
    <svg>
      <svg:g scCanvasEdge [edge]="edge" path="M0,0L100,0" (hit)="hits.set(hits() + 1)">
        <svg:text class="projected">label</svg:text>
      </svg:g>
    </svg>
  `,
})
class HostComponent {
  readonly edge = canvasEdge({ source: 'api', target: 'db', type: 'double_arrow_point', stroke: 'dotted' }, 'api->db#0', 'flowchart', 'added');
  readonly hits = signal(0);
}

describe('CanvasEdgeComponent', () => {
  it('draws the hit line and the stroked line with its markers, hooks and projected content, and reports clicks on the hit line', async () => {
    const fixture = TestBed.createComponent(HostComponent);
    await fixture.whenStable();
    const g = (fixture.nativeElement as HTMLElement).querySelector('g.canvas-edge') as SVGGElement;
    expect([g.getAttribute('data-edge-source'), g.getAttribute('data-edge-target'), g.getAttribute('data-status')]).toEqual(['api', 'db', 'added']);
    const line = g.querySelector('.edge-line') as SVGPathElement;
    expect(line.namespaceURI).toBe('http://www.w3.org/2000/svg');
    expect([line.getAttribute('d'), line.getAttribute('stroke'), line.classList.contains('dotted')]).toEqual(['M0,0L100,0', '#5f6b7a', true]);
    expect(line.getAttribute('marker-start')).toContain('arrow');
    expect(line.getAttribute('marker-end')).toContain('arrow');
    expect(g.querySelector('.projected')?.textContent).toBe('label');
    (g.querySelector('.edge-hit') as SVGPathElement).dispatchEvent(new MouseEvent('click', { bubbles: true }));
    expect(fixture.componentInstance.hits()).toBe(1);
  });
});
