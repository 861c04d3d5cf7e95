import { PALETTE_MIME, acceptPaletteDrag, droppedPaletteItem, startPaletteDrag } from './palette-drop';

/** jsdom has no DataTransfer: a stand-in holding what a drag carries. */
function transfer(): DataTransfer {
  const data = new Map<string, string>();
  return {
    get types() {
      return [...data.keys()];
    },
    setData: (type: string, value: string) => void data.set(type, value),
    getData: (type: string) => data.get(type) ?? '',
    dropEffect: 'none',
    effectAllowed: 'all',
  } as unknown as DataTransfer;
}

const drag = (type: string, dataTransfer: DataTransfer) => Object.assign(new Event(type, { cancelable: true }), { dataTransfer }) as DragEvent;

describe('palette drag and drop', () => {
  it('carries a palette item from the palette to the canvas as a copy', () => {
    const carried = transfer();
    startPaletteDrag(drag('dragstart', carried), { type: 'shape', shape: 'hexagon' });
    expect([carried.getData('text/plain'), carried.effectAllowed]).toEqual(['hexagon', 'copy']);
    const over = drag('dragover', carried);
    acceptPaletteDrag(over);
    expect([over.defaultPrevented, carried.dropEffect]).toEqual([true, 'copy']);
    const drop = drag('drop', carried);
    expect(droppedPaletteItem(drop)).toEqual({ type: 'shape', shape: 'hexagon' });
    expect(drop.defaultPrevented).toBe(true);
  });

  it('leaves other drags alone (files, text from elsewhere)', () => {
    const other = transfer();
    other.setData('text/plain', 'hello');
    const over = drag('dragover', other);
    acceptPaletteDrag(over);
    expect(over.defaultPrevented).toBe(false);
    const drop = drag('drop', other);
    expect(droppedPaletteItem(drop)).toBeNull();
    expect(drop.defaultPrevented).toBe(false);
    expect(other.types).not.toContain(PALETTE_MIME);
  });
});
