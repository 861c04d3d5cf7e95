import { HttpTestingController } from '@angular/common/http/testing';
import { ComponentFixture, TestBed } from '@angular/core/testing';
import { MAT_DIALOG_DATA, MatDialogRef } from '@angular/material/dialog';
import { query, settle, textOf, typeInto } from '../../../testing/dom';
import { provideTestApp } from '../../../testing/providers';
import { EmbedLinkDialogComponent, typedOrigins, type EmbedLinkDialogData } from './embed-link-dialog.component';

const DATA: EmbedLinkDialogData = { orgId: 'acme', service: 'payments', diagram: 'topology', revision: 3, kind: 'iframe', diagramPageUrl: 'http://sc.test/orgs/acme/services/payments/diagrams/topology' };
const URL = '/api/v1/orgs/acme/embed-links';

describe('EmbedLinkDialogComponent: the sites that may frame the link', () => {
  let fixture: ComponentFixture<EmbedLinkDialogComponent>;
  let http: HttpTestingController;

  beforeEach(() => {
    TestBed.configureTestingModule({ providers: [...provideTestApp(), { provide: MatDialogRef, useValue: { close: jest.fn() } }, { provide: MAT_DIALOG_DATA, useValue: DATA }] });
    http = TestBed.inject(HttpTestingController);
    fixture = TestBed.createComponent(EmbedLinkDialogComponent);
    fixture.detectChanges();
  });
  afterEach(() => http.verify());

  const choose = async (framing: 'any' | 'listed' | 'none') => {
    query<HTMLInputElement>(fixture, `[data-testid=embed-framing-${framing}] input`).click();
    await settle(fixture);
  };
  const create = async () => {
    query<HTMLButtonElement>(fixture, '[data-testid=embed-create]').click();
    await settle(fixture);
  };

  it('lets any site frame the link by default: no frameAncestors sent, and no origin field', async () => {
    expect(fixture.nativeElement.querySelector('[data-testid=embed-frame-ancestors]')).toBeNull();
    await create();
    expect(http.expectOne({ method: 'POST', url: URL }).request.body).toEqual({ service: 'payments', diagram: 'topology' });
  });

  it('sends the listed origins, one per line (blank lines and surrounding spaces dropped)', async () => {
    await choose('listed');
    typeInto(fixture, '[data-testid=embed-frame-ancestors]', ' https://wiki.example.com\n\nhttps://*.example.org , http://localhost:8080\n');
    await create();
    expect(http.expectOne({ method: 'POST', url: URL }).request.body).toEqual({
      service: 'payments',
      diagram: 'topology',
      frameAncestors: ['https://wiki.example.com', 'https://*.example.org', 'http://localhost:8080'],
    });
  });

  it('sends [] for no site', async () => {
    await choose('none');
    await create();
    expect(http.expectOne({ method: 'POST', url: URL }).request.body).toEqual({ service: 'payments', diagram: 'topology', frameAncestors: [] });
  });

  it('names every bad origin by its line, by the server’s rule, and creates nothing until they are fixed', async () => {
    await choose('listed');
    typeInto(fixture, '[data-testid=embed-frame-ancestors]', 'https://wiki.example.com\nwiki.example.com\nhttps://portal.example.com/path\nhttps://wiki.example.com');
    await create();
    http.expectNone(URL);
    const problems = Array.from(fixture.nativeElement.querySelectorAll('[data-testid=embed-frame-ancestors-errors] li')).map((item) => (item as HTMLElement).textContent?.trim());
    expect(problems).toEqual([
      expect.stringMatching(/^Line 2: “wiki\.example\.com” is not an origin: write a scheme and a host/),
      expect.stringMatching(/^Line 3: “https:\/\/portal\.example\.com\/path” is not an origin/),
      'Line 4: “https://wiki.example.com” is listed twice.',
    ]);
    // Fixed while typing: the list follows, and Create goes through.
    typeInto(fixture, '[data-testid=embed-frame-ancestors]', 'https://wiki.example.com');
    await settle(fixture);
    expect(fixture.nativeElement.querySelector('[data-testid=embed-frame-ancestors-errors]')).toBeNull();
    await create();
    expect(http.expectOne({ method: 'POST', url: URL }).request.body).toMatchObject({ frameAncestors: ['https://wiki.example.com'] });
  });

  it('asks for at least one site when "Only these sites" has none, and for at most ten', async () => {
    await choose('listed');
    await create();
    expect(textOf(fixture)).toContain('Name at least one site');
    typeInto(fixture, '[data-testid=embed-frame-ancestors]', Array.from({ length: 11 }, (_, i) => `https://site${i}.example.com`).join('\n'));
    await settle(fixture);
    expect(textOf(fixture)).toContain('At most 10 sites may frame a link; 11 are listed.');
    http.expectNone(URL);
  });

  it('reads origins separated by lines, commas or spaces', () => {
    expect(typedOrigins('a\n b, c  d\n\n')).toEqual(['a', 'b', 'c', 'd']);
  });
});
