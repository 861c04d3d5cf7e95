import { withoutRemoteImages } from '@sc/diagram';

// The SVG itself is drawn by libs/diagram (canvas/render-svg.ts): the server renders the same image.svg from it.
export { diagramSvg, withoutRemoteImages } from '@sc/diagram';

/**
 * Renders the SVG to a PNG blob at `scale` (capped so the canvas stays within browser limits). An SVG drawn as an
 * image loads nothing from the network, so pictures by https URL are left out (the placeholder under them shows);
 * inline data URLs are drawn.
 */
export async function svgToPng(svg: string, width: number, height: number, scale = 2): Promise<Blob> {
  const factor = Math.min(scale, 16000 / Math.max(width, height, 1));
  const image = new Image();
  image.src = `data:image/svg+xml;charset=utf-8,${encodeURIComponent(withoutRemoteImages(svg))}`;
  await image.decode();
  const canvas = document.createElement('canvas');
  canvas.width = Math.max(1, Math.round(width * factor));
  canvas.height = Math.max(1, Math.round(height * factor));
  const context = canvas.getContext('2d');
  if (!context) throw new Error('This browser cannot draw a PNG.');
  context.drawImage(image, 0, 0, canvas.width, canvas.height);
  return new Promise((resolve, reject) => canvas.toBlob((blob) => (blob ? resolve(blob) : reject(new Error('The PNG could not be made.'))), 'image/png'));
}
