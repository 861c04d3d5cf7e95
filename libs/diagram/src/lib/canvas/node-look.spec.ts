import { fixtureModelInput } from '../../testing/diagram-fixture';
import type { OverlaidNode } from '../overlay';
import { c4TypeLine, canvasNode, safeImageSource } from './node-look';
import { textWidth, wrapWords } from './text-size';

describe('node look', () => {
  it('loads images from https and data URLs only', () => {
    expect(safeImageSource('https://cdn.example/logo.png')).toBe('https://cdn.example/logo.png');
    expect(safeImageSource('data:image/png;base64,AAAA')).toBe('data:image/png;base64,AAAA');
    expect(safeImageSource('http://10.0.0.1/logo.png')).toBeNull();
    expect(safeImageSource('javascript:alert(1)')).toBeNull();
    expect(safeImageSource('data:text/html,<script>alert(1)</script>')).toBeNull();
  });

  it('makes a C4 element as wide as the type line it draws, "external " included', () => {
    const api = canvasNode({ id: 'api', label: 'API', shape: 'container_db_ext', technology: 'Java, Docker Container' } as OverlaidNode, 'c4', fixtureModelInput());
    expect(c4TypeLine(api.body.c4)).toBe('[external container db: Java, Docker Container]');
    // The canvas and images cut the line with an ellipsis where it is wider than the box less its 12 px margins.
    expect(api.width - 24).toBeGreaterThanOrEqual(textWidth(c4TypeLine(api.body.c4), { size: 12 }));
  });

  it('wraps labels between words only', () => {
    const lines = wrapWords('Settlement worker with a verylongunbreakableidentifier inside', 80, { size: 14 });
    expect(lines.join(' ')).toBe('Settlement worker with a verylongunbreakableidentifier inside');
    expect(lines).toContain('verylongunbreakableidentifier');
  });
});
