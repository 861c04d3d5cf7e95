import { canvasEdge, strokeKey } from './edge-look';

describe('edge look', () => {
  it('turns Mermaid link types, C4 relationships and context edge overlays into strokes and markers', () => {
    const look = (type: string, stroke = 'normal') => {
      const edge = canvasEdge({ source: 'a', target: 'b', type, stroke }, 'k', 'flowchart');
      return [edge.markerStart?.type ?? '-', edge.markerEnd?.type ?? '-', edge.dash, edge.width, edge.invisible];
    };
    expect(look('arrow_point')).toEqual(['-', 'arrow', 'solid', 1.5, false]);
    expect(look('arrow_open')).toEqual(['-', '-', 'solid', 1.5, false]);
    expect(look('arrow_circle')).toEqual(['-', 'circle', 'solid', 1.5, false]);
    expect(look('arrow_cross')).toEqual(['-', 'cross', 'solid', 1.5, false]);
    expect(look('double_arrow_point')).toEqual(['arrow', 'arrow', 'solid', 1.5, false]);
    expect(look('arrow_point', 'thick')).toEqual(['-', 'arrow', 'solid', 3.5, false]);
    expect(look('arrow_point', 'dotted')).toEqual(['-', 'arrow', 'dotted', 1.5, false]);
    expect(look('arrow_open', 'invisible')[4]).toBe(true);

    const birel = canvasEdge({ source: 'a', target: 'b', type: 'birel', technology: 'HTTPS', label: 'Reconciles' }, 'k', 'c4');
    expect([birel.markerStart?.type, birel.markerEnd?.type, birel.label]).toEqual(['arrow', 'arrow', 'Reconciles\n[HTTPS]']);

    const overlaid = canvasEdge(
      {
        source: 'a',
        target: 'b',
        type: 'arrow_point',
        overlay: { label: 'gRPC', style: { stroke: '#1f6feb', strokeWidth: 3, strokeStyle: 'dashed', borderAnimationEnabled: true }, markerStart: { type: 'circle', color: 'red' }, markerEnd: { type: 'arrow' } },
      },
      'k',
      'flowchart',
    );
    expect(overlaid).toMatchObject({ label: 'gRPC', color: '#1f6feb', width: 3, dash: 'dashed', animated: true, markerStart: { type: 'circle', color: 'red' }, markerEnd: { type: 'arrow', color: '#1f6feb' } });
  });

  it('names the stroke of every line but the plain one, for the layout to keep lines drawn differently apart', () => {
    const stroke = (edge: Parameters<typeof canvasEdge>[0], status?: 'added' | 'removed') => strokeKey(canvasEdge(edge, 'k', 'flowchart', status));
    expect(stroke({ source: 'a', target: 'b', type: 'arrow_point' })).toBeUndefined();
    expect(stroke({ source: 'a', target: 'b', type: 'arrow_open' })).toBeUndefined();
    expect(stroke({ source: 'a', target: 'b', type: 'arrow_point', stroke: 'dotted' })).toBe('#5f6b7a 1.5 dotted');
    expect(stroke({ source: 'a', target: 'b', type: 'arrow_point', stroke: 'thick' })).toBe('#5f6b7a 3.5 solid');
    expect(stroke({ source: 'a', target: 'b', type: 'arrow_point' }, 'removed')).toBe('removed #5f6b7a 1.5 solid');
    expect(stroke({ source: 'a', target: 'b', overlay: { style: { stroke: '#1565c0', borderAnimationEnabled: true } } })).toBe('#1565c0 1.5 solid animated');
  });

  it('refuses colours that are not colours', () => {
    const edge = canvasEdge({ source: 'a', target: 'b', overlay: { style: { stroke: 'red;background:url(x)' } } }, 'k', 'flowchart');
    expect(edge.color).toBe('#5f6b7a');
  });
});
