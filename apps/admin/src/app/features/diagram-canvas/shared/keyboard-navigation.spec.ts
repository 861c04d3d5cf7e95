import { canvasKeyAction, neighbour } from './keyboard-navigation';

const box = (x: number, y: number) => ({ x, y, width: 100, height: 40 });

describe('canvas keyboard navigation', () => {
  const boxes = { a: box(0, 0), right: box(300, 0), farRight: box(600, 0), below: box(0, 200), diagonal: box(200, 150) };
  const ids = ['a', 'right', 'farRight', 'below', 'diagonal', 'hidden'];

  it('starts at the first drawn node when nothing (or something not drawn) is focused', () => {
    expect(neighbour(boxes, ['hidden', ...ids], undefined, 'ArrowRight')).toBe('a');
    expect(neighbour(boxes, ids, 'hidden', 'ArrowDown')).toBe('a');
  });

  it('moves to the nearest node in the arrow’s direction, straight ahead before off to the side', () => {
    expect(neighbour(boxes, ids, 'a', 'ArrowRight')).toBe('right');
    expect(neighbour(boxes, ids, 'right', 'ArrowRight')).toBe('farRight');
    expect(neighbour(boxes, ids, 'a', 'ArrowDown')).toBe('below');
    expect(neighbour(boxes, ids, 'right', 'ArrowLeft')).toBe('a');
    expect(neighbour(boxes, ids, 'below', 'ArrowUp')).toBe('a');
  });

  it('stays put where nothing lies in that direction', () => {
    expect(neighbour(boxes, ids, 'a', 'ArrowLeft')).toBeUndefined();
    expect(neighbour(boxes, ids, 'a', 'ArrowUp')).toBeUndefined();
  });

  it('reads zoom, fit, close and move keys, and leaves the others alone', () => {
    expect(['+', '=', '-', '_', '0', 'Escape', 'ArrowUp', 'a', 'Enter'].map(canvasKeyAction)).toEqual(['zoom-in', 'zoom-in', 'zoom-out', 'zoom-out', 'fit', 'close', 'move', null, null]);
  });
});
