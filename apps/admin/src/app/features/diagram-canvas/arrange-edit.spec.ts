import { ARRANGEMENT_MAX_POINTS } from '@sc/contracts';
import { ARRANGE_KEY_STEP, bendsOf, boxAt, boxesWithin, keyboardMove, nearestSegment, spanned, toggled, withBendAdded, withBendMoved, withBendRemoved } from './arrange-edit';

describe('arrange mode edits', () => {
  // From a border at (0, 0) through two bends to a border at (200, 100).
  const route = { points: [{ x: 0, y: 0 }, { x: 100, y: 0 }, { x: 100, y: 100 }, { x: 200, y: 100 }] };

  it('takes the points between the ends as the bends, and adds one on the segment nearest a double click', () => {
    expect(bendsOf(route)).toEqual([{ x: 100, y: 0 }, { x: 100, y: 100 }]);
    expect(nearestSegment(route.points, { x: 50, y: 4 })).toBe(0);
    expect(nearestSegment(route.points, { x: 96, y: 60 })).toBe(1);
    expect(nearestSegment(route.points, { x: 190, y: 90 })).toBe(2);
    expect(withBendAdded(route, { x: 50, y: 4 })).toEqual([{ x: 50, y: 4 }, { x: 100, y: 0 }, { x: 100, y: 100 }]);
    expect(withBendAdded(route, { x: 96, y: 60 })).toEqual([{ x: 100, y: 0 }, { x: 96, y: 60 }, { x: 100, y: 100 }]);
    expect(withBendAdded(route, { x: 190, y: 90 })).toEqual([{ x: 100, y: 0 }, { x: 100, y: 100 }, { x: 190, y: 90 }]);
    // A straight edge: its one segment.
    expect(withBendAdded({ points: [{ x: 0, y: 0 }, { x: 10, y: 0 }] }, { x: 5, y: -40 })).toEqual([{ x: 5, y: -40 }]);
    // The route is not changed: the drawing on screen stays what it was until the new arrangement is drawn.
    expect(route.points).toHaveLength(4);
  });

  it('moves and removes one bend, leaving the others', () => {
    expect(withBendMoved(route, 1, { x: 140, y: 130 })).toEqual([{ x: 100, y: 0 }, { x: 140, y: 130 }]);
    expect(withBendRemoved(route, 0)).toEqual([{ x: 100, y: 100 }]);
    expect(withBendRemoved(route, 5)).toEqual(bendsOf(route));
  });

  it('adds no bend beyond the number the server keeps', () => {
    const full = { points: Array.from({ length: ARRANGEMENT_MAX_POINTS + 2 }, (_, i) => ({ x: i, y: 0 })) };
    expect(withBendAdded(full, { x: 3, y: 1 })).toBeNull();
  });

  it('selects what a rectangle encloses, and the innermost box under a click; a second click takes it out', () => {
    const boxes = { g: { x: 0, y: 0, width: 300, height: 200 }, a: { x: 20, y: 50, width: 100, height: 40 }, b: { x: 400, y: 50, width: 100, height: 40 } };
    const ids = ['g', 'a', 'b'];
    expect(boxesWithin(boxes, ids, spanned({ x: 130, y: 100 }, { x: 10, y: 40 }))).toEqual(['a']);
    expect(boxesWithin(boxes, ids, spanned({ x: -5, y: -5 }, { x: 600, y: 300 }))).toEqual(['g', 'a', 'b']);
    expect(boxAt(boxes, ids, { x: 30, y: 60 })).toBe('a');
    expect(boxAt(boxes, ids, { x: 200, y: 150 })).toBe('g');
    expect(boxAt(boxes, ids, { x: 350, y: 10 })).toBeNull();
    const once = toggled(new Set(), 'a');
    expect([...once]).toEqual(['a']);
    expect([...toggled(once, 'a')]).toEqual([]);
  });

  it('moves a box by one grid step per arrow key, ten with Shift, and ignores other keys and Ctrl, Alt or Meta', () => {
    const key = (name: string, held: Partial<Pick<KeyboardEvent, 'shiftKey' | 'ctrlKey' | 'altKey' | 'metaKey'>> = {}) => ({ key: name, shiftKey: false, ctrlKey: false, altKey: false, metaKey: false, ...held });
    const box = { x: 100, y: 40, width: 120, height: 48 };
    expect(ARRANGE_KEY_STEP).toBe(8);
    expect(keyboardMove(box, key('ArrowRight'))).toEqual({ x: 108, y: 40 });
    expect(keyboardMove(box, key('ArrowLeft'))).toEqual({ x: 92, y: 40 });
    expect(keyboardMove(box, key('ArrowUp'))).toEqual({ x: 100, y: 32 });
    expect(keyboardMove(box, key('ArrowDown'))).toEqual({ x: 100, y: 48 });
    expect(keyboardMove(box, key('ArrowDown', { shiftKey: true }))).toEqual({ x: 100, y: 120 });
    expect(keyboardMove(box, key('ArrowLeft', { shiftKey: true }))).toEqual({ x: 20, y: 40 });
    expect(keyboardMove(box, key('Enter'))).toBeNull();
    expect(keyboardMove(box, key('ArrowRight', { ctrlKey: true }))).toBeNull();
    expect(keyboardMove(box, key('ArrowRight', { altKey: true }))).toBeNull();
    expect(keyboardMove(box, key('ArrowRight', { metaKey: true }))).toBeNull();
  });
});
