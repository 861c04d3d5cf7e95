import type { TestRequest } from '@angular/common/http/testing';

/**
 * Delivers a slow server's answer after newer ones. A page may already have given the request up when its
 * params changed (the browser then aborts it and nothing can arrive); otherwise the answer arrives, and the page
 * must ignore it. Stale-answer specs use this so they hold whichever of the two ways a page guards itself.
 */
export function answerLate(request: TestRequest, body: object): void {
  if (!request.cancelled) request.flush(body);
}
