import { embedSnippet } from './embed-snippets';

describe('embedSnippet', () => {
  const link = { url: 'https://sc.example/embed/sce_ab12cd34_x', svgUrl: 'https://sc.example/embed/sce_ab12cd34_x.svg' };
  const page = 'https://sc.example/orgs/acme/services/orders/diagrams/topology';

  it('copies the SVG link as the image link', () => {
    expect(embedSnippet('image', link, 'topology', page)).toBe(link.svgUrl);
  });

  it('writes Markdown showing the image and linking to the diagram page', () => {
    expect(embedSnippet('markdown', link, 'topology', page)).toBe(`[![topology](${link.svgUrl})](${page})`);
    expect(embedSnippet('markdown', link, 'a]b', page)).toContain('[![a\\]b]');
  });

  it('writes an iframe of the zoomable page with the diagram as its title, attributes escaped', () => {
    expect(embedSnippet('iframe', link, 'topology', page)).toBe(
      `<iframe src="${link.url}" title="topology" width="800" height="600" style="border:0" loading="lazy"></iframe>`,
    );
    expect(embedSnippet('iframe', link, 'x"y', page)).toContain('title="x&quot;y"');
  });
});
