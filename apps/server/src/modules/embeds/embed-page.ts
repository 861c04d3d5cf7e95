import { createHash } from 'node:crypto';
import { escapeHtml } from '../../common/http/html';

/**
 * The embed page (`/embed/<token>`): the image on a blank page with zoom and pan, for an iframe. No framework and no
 * file of its own: one style element and one script, both fixed text allowed by their SHA-256 in the page's CSP (no
 * 'unsafe-inline'); the diagram's names appear only as escaped text and attributes, never inside the script.
 */
const STYLE = `html,body{margin:0;height:100%;background:#fff;color:#1f2328;font:14px system-ui,-apple-system,Segoe UI,Roboto,sans-serif}
#view{position:fixed;inset:0;overflow:hidden;cursor:grab;touch-action:none}#view.dragging{cursor:grabbing}
#image{position:absolute;left:0;top:0;transform-origin:0 0;max-width:none;user-select:none;-webkit-user-drag:none}
nav{position:fixed;right:8px;bottom:8px;display:flex;gap:4px}
button{font:inherit;min-width:32px;height:32px;border:1px solid #c4c8ce;background:#fff;border-radius:4px;cursor:pointer}
button:focus-visible{outline:2px solid #0b57d0;outline-offset:1px}
main{max-width:720px;margin:24px auto;padding:0 16px}li{margin:6px 0}`;

/** Fit on load; the wheel zooms around the pointer; a drag pans; +, − and Fit buttons (and the keys +, -, 0). */
const SCRIPT = `(() => {
  const view = document.getElementById('view');
  const image = document.getElementById('image');
  let scale = 1, x = 0, y = 0, drag = null;
  const apply = () => { image.style.transform = 'translate(' + x + 'px,' + y + 'px) scale(' + scale + ')'; };
  const fit = () => {
    const w = image.naturalWidth || 1, h = image.naturalHeight || 1;
    scale = Math.min(view.clientWidth / w, view.clientHeight / h, 1);
    x = (view.clientWidth - w * scale) / 2; y = (view.clientHeight - h * scale) / 2; apply();
  };
  const zoom = (factor, cx, cy) => {
    const next = Math.min(8, Math.max(0.05, scale * factor));
    x = cx - (cx - x) * (next / scale); y = cy - (cy - y) * (next / scale); scale = next; apply();
  };
  const centre = () => [view.clientWidth / 2, view.clientHeight / 2];
  if (image.complete) fit(); else image.addEventListener('load', fit);
  window.addEventListener('resize', fit);
  view.addEventListener('wheel', (event) => { event.preventDefault(); zoom(Math.exp(-event.deltaY / 300), event.clientX, event.clientY); }, { passive: false });
  view.addEventListener('pointerdown', (event) => { drag = { px: event.clientX - x, py: event.clientY - y }; view.setPointerCapture(event.pointerId); view.classList.add('dragging'); });
  view.addEventListener('pointermove', (event) => { if (drag) { x = event.clientX - drag.px; y = event.clientY - drag.py; apply(); } });
  const stop = () => { drag = null; view.classList.remove('dragging'); };
  view.addEventListener('pointerup', stop); view.addEventListener('pointercancel', stop);
  document.getElementById('zoom-in').addEventListener('click', () => zoom(1.25, ...centre()));
  document.getElementById('zoom-out').addEventListener('click', () => zoom(0.8, ...centre()));
  document.getElementById('fit').addEventListener('click', fit);
  document.addEventListener('keydown', (event) => {
    if (event.key === '+' || event.key === '=') zoom(1.25, ...centre());
    else if (event.key === '-') zoom(0.8, ...centre());
    else if (event.key === '0') fit();
  });
})();`;

const hashOf = (text: string) => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;
const STYLE_HASH = hashOf(STYLE);
const SCRIPT_HASH = hashOf(SCRIPT);

/**
 * The page's Content-Security-Policy: nothing but its own style, its own script and images of this origin;
 * `frame-ancestors` from the link (null: any site, since the page carries no action to trick a click into; [] none).
 */
export function embedPageCsp(frameAncestors: readonly string[] | null, withScript: boolean): string {
  const ancestors = frameAncestors === null ? '*' : frameAncestors.length === 0 ? "'none'" : frameAncestors.join(' ');
  return [
    "default-src 'none'",
    "img-src 'self'",
    `style-src ${STYLE_HASH}`,
    withScript ? `script-src ${SCRIPT_HASH}` : null,
    "base-uri 'none'",
    "form-action 'none'",
    `frame-ancestors ${ancestors}`,
  ]
    .filter((directive): directive is string => directive !== null)
    .join('; ');
}

function document(title: string, body: string, script: boolean): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex"><title>${escapeHtml(title)}</title><style>${STYLE}</style></head>
<body>${body}${script ? `<script>${SCRIPT}</script>` : ''}</body></html>`;
}

/** One diagram, zoomable: `imagePath` is the link's SVG (same origin). */
export function diagramPage(service: string, diagram: string, imagePath: string): string {
  return document(
    `${diagram} · ${service}`,
    `<div id="view"><img id="image" src="${escapeHtml(imagePath)}" alt="${escapeHtml(`Architecture diagram ${diagram} of ${service}`)}" draggable="false"></div>
<nav aria-label="Zoom"><button type="button" id="zoom-out" aria-label="Zoom out">−</button><button type="button" id="fit" aria-label="Fit to the frame">Fit</button><button type="button" id="zoom-in" aria-label="Zoom in">+</button></nav>`,
    true,
  );
}

/** A link to every diagram of a service: the list of its diagrams, each opening its own page. */
export function servicePage(service: string, diagrams: { name: string; path: string }[]): string {
  const items = diagrams.map((diagram) => `<li><a href="${escapeHtml(diagram.path)}">${escapeHtml(diagram.name)}</a></li>`).join('');
  return document(
    service,
    `<main><h1>${escapeHtml(service)}</h1>${diagrams.length ? `<ul>${items}</ul>` : '<p>This service has no architecture diagrams.</p>'}</main>`,
    false,
  );
}

/** What a page route answers for an unknown, revoked or expired link (404). */
export function notFoundPage(): string {
  return document('Embed link not available', '<main><h1>This embed link is not available</h1><p>It was revoked or has expired, or it never existed. Ask the people who shared it for a new one.</p></main>', false);
}
