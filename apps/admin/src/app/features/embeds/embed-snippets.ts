import type { CreatedEmbedLinkResponse } from '@sc/contracts';

/** What the export menu copies: the image's URL, Markdown for a README, or an iframe of the zoomable page. */
export type EmbedSnippetKind = 'image' | 'markdown' | 'iframe';

export const EMBED_SNIPPET_LABELS: Record<EmbedSnippetKind, string> = {
  image: 'Image link',
  markdown: 'Markdown',
  iframe: 'HTML iframe',
};

/** The text one snippet copies. `diagramPageUrl`: the dashboard's page of the diagram, which the Markdown image links to. */
export function embedSnippet(kind: EmbedSnippetKind, link: Pick<CreatedEmbedLinkResponse, 'url' | 'svgUrl'>, diagram: string, diagramPageUrl: string): string {
  const image = link.svgUrl ?? link.url;
  switch (kind) {
    case 'image':
      return image;
    case 'markdown':
      // Brackets in a name would end the alt text early; names are artifact names, but the escape costs nothing.
      return `[![${diagram.replace(/[[\]\\]/g, '\\$&')}](${image})](${diagramPageUrl})`;
    case 'iframe':
      return `<iframe src="${escapeAttribute(link.url)}" title="${escapeAttribute(diagram)}" width="800" height="600" style="border:0" loading="lazy"></iframe>`;
  }
}

function escapeAttribute(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
}
