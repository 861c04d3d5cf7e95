/**
 * Mermaid's sequence diagram SVG brought to its natural size: the frame zooms it with a transform and the exports
 * save it as a standalone file, so both need its width and height in pixels (Mermaid may write `width="100%"` and a
 * `max-width` style instead, which sizes the drawing by its container).
 */
export interface SizedSvg {
  svg: string;
  width: number;
  height: number;
}

const ROOT = /<svg\b[^>]*>/;

/**
 * The SVG with `width`/`height` set from its viewBox and no `max-width`. Without a viewBox its own numeric
 * `width`/`height` are kept, else its size is 0 (drawn as it comes, nothing to fit or export).
 */
export function sizedSvg(svg: string): SizedSvg {
  const root = ROOT.exec(svg)?.[0];
  if (!root) return { svg, width: 0, height: 0 };
  const box = /\bviewBox="([^"]*)"/.exec(root)?.[1].trim().split(/[\s,]+/).map(Number);
  const attribute = (name: string) => Number(new RegExp(`\\s${name}="([\\d.]+)(?:px)?"`).exec(root)?.[1] ?? 0);
  const valid = box !== undefined && box.length === 4 && box.every(Number.isFinite) && box[2] > 0 && box[3] > 0;
  const width = Math.ceil(valid ? box[2] : attribute('width'));
  const height = Math.ceil(valid ? box[3] : attribute('height'));
  if (width === 0 || height === 0) return { svg, width: 0, height: 0 };
  const tag = root
    .replace(/\s(?:width|height)="[^"]*"/g, '')
    .replace(/max-width:\s*[^;"]*;?/g, '')
    .replace(/^<svg\b/, `<svg width="${width}" height="${height}"`);
  return { svg: svg.replace(root, tag), width, height };
}

/**
 * The drawing as a file of its own: the namespace a standalone SVG needs (an inline one does without) and a white
 * background, which Mermaid leaves to the page (a PNG would be transparent, an SVG viewer's background shows).
 */
export function standaloneSvg(sized: SizedSvg): string {
  const root = ROOT.exec(sized.svg)?.[0] ?? '<svg>';
  const box = /\bviewBox="([^"]*)"/.exec(root)?.[1].trim().split(/[\s,]+/) ?? ['0', '0'];
  const withNamespace = /\sxmlns="/.test(root) ? root : root.replace(/^<svg\b/, '<svg xmlns="http://www.w3.org/2000/svg"');
  const background = `<rect x="${box[0]}" y="${box[1]}" width="${sized.width}" height="${sized.height}" fill="#ffffff"/>`;
  // The inline drawing is HTML-serialized (DOMPurify); a file is XML, which knows no `&nbsp;`.
  return `${sized.svg.replace(root, withNamespace + background).replace(/&nbsp;/g, '&#160;')}\n`;
}
