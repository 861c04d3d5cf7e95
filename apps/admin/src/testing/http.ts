import { HttpTestingController, type TestRequest } from '@angular/common/http/testing';
import { TestBed } from '@angular/core/testing';
import { provideTestApp } from './providers';

/**
 * Delivers a slow server's answer after newer ones. A page may already have given the request up when its
 * params changed (the browser then aborts it and nothing can arrive); otherwise the answer arrives, and the page
 * must ignore it. Stale-answer specs use this so they hold whichever of the two ways a page guards itself.
 */
export function answerLate(request: TestRequest, body: object, options: { headers?: Record<string, string> } = {}): void {
  if (!request.cancelled) request.flush(body, options);
}

/** The response options of a page of a paged list: a `Link: <…>; rel="next"` header with `cursor` (none when null). */
export function nextPage(url: string, cursor: string | null): { headers?: Record<string, string> } {
  return cursor === null ? {} : { headers: { Link: `<${url}?cursor=${cursor}>; rel="next"` } };
}

/** The request for the first page of the paged list at `url`: it asks for `limit` entries and carries no cursor. */
export function expectFirstPage(http: HttpTestingController, url: string, limit: number): TestRequest {
  const first = http.expectOne((request) => request.method === 'GET' && request.url === url);
  expect([first.request.params.get('limit'), first.request.params.has('cursor')]).toEqual([String(limit), false]);
  return first;
}

/**
 * The usual frame of a page spec: before each test the test app (provideTestApp) is configured; after it no
 * request may be left unanswered and the overlays (dialogs, menus) are emptied. Returns the current test's
 * HttpTestingController.
 */
export function useTestHttp(): () => HttpTestingController {
  let http: HttpTestingController | undefined;
  beforeEach(() => {
    TestBed.configureTestingModule({ providers: provideTestApp() });
    http = TestBed.inject(HttpTestingController);
  });
  afterEach(() => {
    http?.verify();
    document.querySelectorAll('.cdk-overlay-container').forEach((element) => (element.innerHTML = ''));
  });
  return () => {
    if (!http) throw new Error('useTestHttp: the controller exists only inside a test.');
    return http;
  };
}
