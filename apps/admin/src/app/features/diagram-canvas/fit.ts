export interface Size {
  width: number;
  height: number;
}

export interface Viewport {
  x: number;
  y: number;
  zoom: number;
}

/**
 * The viewport that shows the whole drawing as large as it fits in the view without going under the minimap, which
 * covers the view's bottom-right corner (`corner`: its size plus its margins). The drawing is centred either above
 * the minimap (the full width, the height left above it) or beside it (the full height, the width left of it),
 * whichever gives the larger zoom. `padding` is the share of the drawing's size kept free around it.
 */
export function fitViewport(drawing: Size, view: Size, corner: Size, padding: number, zoomLimits: { min: number; max: number }): Viewport {
  const areas = [
    { width: view.width, height: Math.max(view.height - corner.height, 1) },
    { width: Math.max(view.width - corner.width, 1), height: view.height },
  ];
  const zoomFor = (area: Size) => Math.min(area.width / (drawing.width * (1 + padding)), area.height / (drawing.height * (1 + padding)));
  const area = zoomFor(areas[0]) >= zoomFor(areas[1]) ? areas[0] : areas[1];
  const zoom = Math.min(zoomLimits.max, Math.max(zoomLimits.min, zoomFor(area)));
  return { x: area.width / 2 - (drawing.width / 2) * zoom, y: area.height / 2 - (drawing.height / 2) * zoom, zoom };
}
