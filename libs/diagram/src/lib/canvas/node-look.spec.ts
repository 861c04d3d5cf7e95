import { safeImageSource } from './node-look';
import { wrapWords } from './text-size';

describe('node look', () => {
  it('loads images from https and data URLs only', () => {
    expect(safeImageSource('https://cdn.example/logo.png')).toBe('https://cdn.example/logo.png');
    expect(safeImageSource('data:image/png;base64,AAAA')).toBe('data:image/png;base64,AAAA');
    expect(safeImageSource('http://10.0.0.1/logo.png')).toBeNull();
    expect(safeImageSource('javascript:alert(1)')).toBeNull();
    expect(safeImageSource('data:text/html,<script>alert(1)</script>')).toBeNull();
  });

  it('wraps labels between words only', () => {
    const lines = wrapWords('Settlement worker with a verylongunbreakableidentifier inside', 80, { size: 14 });
    expect(lines.join(' ')).toBe('Settlement worker with a verylongunbreakableidentifier inside');
    expect(lines).toContain('verylongunbreakableidentifier');
  });
});
