import { HttpTestingController } from '@angular/common/http/testing';
import { ComponentFixture, TestBed } from '@angular/core/testing';
import { query, settle, textOf } from '../../../testing/dom';
import { errorBody, gatewayInfo } from '../../../testing/fixtures';
import { setUpTestApp } from '../../../testing/providers';
import { CliInstallComponent } from './cli-install.component';

describe('CliInstallComponent', () => {
  let fixture: ComponentFixture<CliInstallComponent>;
  let http: HttpTestingController;

  async function open(answer: (request: ReturnType<HttpTestingController['expectOne']>) => void): Promise<void> {
    fixture = TestBed.createComponent(CliInstallComponent);
    fixture.detectChanges();
    answer(http.expectOne('/api/v1/gateway/info'));
    await settle(fixture);
  }

  beforeEach(() => (http = setUpTestApp()));
  afterEach(() => http.verify());

  it('shows the install line with the server’s public URL and the package’s SHA-256', async () => {
    await open((request) => request.flush(gatewayInfo()));
    expect(query<HTMLInputElement>(fixture, '[data-testid=cli-install-command]').value).toBe('npm install -g https://context.example.com/downloads/service-cli.tgz');
    expect(query(fixture, '[data-testid=cli-sha256]').textContent?.trim()).toBe(`sha256: ${'a'.repeat(64)}`);
    expect(textOf(fixture)).toContain('service-cli 0.1.0');
  });

  it('says how to build the package when the server has none', async () => {
    await open((request) => request.flush(gatewayInfo({ cliPackage: null })));
    expect(query(fixture, '[data-testid=cli-not-built]').textContent).toContain('npm run pack:cli');
    expect(fixture.nativeElement.querySelector('[data-testid=cli-install-command]')).toBeNull();
  });

  it('offers a retry when the info cannot be loaded', async () => {
    await open((request) => request.flush(errorBody('internal_error', 'Boom.'), { status: 500, statusText: 'Server Error' }));
    expect(textOf(fixture)).toContain('Boom.');
    expect(fixture.nativeElement.querySelector('[data-testid=cli-install-command]')).toBeNull();
  });
});
