import { withField } from './element-checks';

describe('withField', () => {
  it('sets a field (placed last) or removes it for undefined, leaving the element as it was', () => {
    const edge = { source: 'a', target: 'b', label: 'x', stroke: 'thick' };
    expect(Object.entries(withField(edge, 'label', 'y'))).toEqual([
      ['source', 'a'],
      ['target', 'b'],
      ['stroke', 'thick'],
      ['label', 'y'],
    ]);
    expect(withField(edge, 'stroke', undefined)).toEqual({ source: 'a', target: 'b', label: 'x' });
    expect('stroke' in withField(edge, 'stroke', undefined)).toBe(false);
    expect(edge).toEqual({ source: 'a', target: 'b', label: 'x', stroke: 'thick' });
  });
});
