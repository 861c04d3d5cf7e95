import DOMPurify from 'dompurify';
import { Marked } from 'marked';

/**
 * Markdown from a repository (flow notes, job notes, the service summary, docs) as safe HTML: parsed by marked
 * (GitHub-flavoured: tables, task lists, strikethrough) and then sanitized by DOMPurify, because markdown may
 * hold raw HTML and the text comes from outside this service.
 *
 * What survives: text formatting, lists, tables, code blocks (`<pre><code class="language-…">`, highlighted and
 * Mermaid blocks drawn afterwards by MarkdownComponent), links to http(s) and mailto, images
 * from https and inline raster data URLs. What never does: script, style, event handlers, forms, frames,
 * `javascript:`/`data:` links, inline styles.
 */
const parser = new Marked({ gfm: true, async: false });

/** A DOMPurify instance of its own: its hooks must not reach Mermaid, which sanitizes with the shared instance. */
let purifier: ReturnType<typeof DOMPurify> | undefined;

const LINK_PROTOCOL = /^(https?:|mailto:)/i;
const IMAGE_SOURCE = /^(https:|data:image\/(png|jpe?g|gif|webp|avif);base64,)/i;

export function renderMarkdown(markdown: string): string {
  const html = parser.parse(markdown) as string;
  return purify().sanitize(html, {
    USE_PROFILES: { html: true },
    FORBID_TAGS: ['style', 'form', 'input', 'button', 'textarea', 'select', 'option', 'iframe', 'frame', 'object', 'embed', 'video', 'audio', 'source', 'track'],
    FORBID_ATTR: ['style', 'srcset', 'action', 'formaction', 'target'],
    // Ids from the document are prefixed, so they cannot shadow the page's own globals (DOM clobbering).
    SANITIZE_NAMED_PROPS: true,
  });
}

function purify(): ReturnType<typeof DOMPurify> {
  if (purifier) return purifier;
  purifier = DOMPurify(window);
  purifier.addHook('afterSanitizeAttributes', (node) => {
    if (node.tagName === 'A') secureLink(node);
    if (node.tagName === 'IMG') secureImage(node);
  });
  return purifier;
}

/** Links go to the web only, in a new tab that gets no handle on this one. */
function secureLink(link: Element): void {
  const href = (link.getAttribute('href') ?? '').trim();
  if (!LINK_PROTOCOL.test(href)) {
    // Relative links point into the repository, which this page cannot show; `#anchors` resolve against the
    // app's <base href> and would leave the page (and ids are prefixed anyway); anything else is unsafe.
    link.removeAttribute('href');
    return;
  }
  link.setAttribute('target', '_blank');
  link.setAttribute('rel', 'noopener noreferrer');
}

/** No request to this service or plain http from a document; a relative image path has nothing to load here. */
function secureImage(image: Element): void {
  const src = (image.getAttribute('src') ?? '').trim();
  if (!IMAGE_SOURCE.test(src)) image.removeAttribute('src');
  image.setAttribute('loading', 'lazy');
  image.setAttribute('referrerpolicy', 'no-referrer');
}
