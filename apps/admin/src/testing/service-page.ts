import type { HttpTestingController } from '@angular/common/http/testing';
import type { ComponentFixture } from '@angular/core/testing';
import type { PreviewListItem, ServiceDetail, ServiceRevisionItem } from '@sc/contracts';
import { settle } from './dom';

/**
 * Answers what the service page loads: the service (`url`, which may ask for a `?revision=`), its open previews, then
 * the service's revision list, which the page and (once shown) its revision bar both read.
 */
export async function answerServicePage(
  fixture: ComponentFixture<unknown>,
  http: HttpTestingController,
  url: string,
  detail: ServiceDetail,
  revisions: ServiceRevisionItem[],
  previews: PreviewListItem[] = [],
): Promise<void> {
  const revisionsUrl = `${url.split('?')[0]}/revisions`;
  http.expectOne(url).flush(detail);
  http.expectOne(`${url.split('?')[0]}/previews`).flush(previews);
  http.expectOne(revisionsUrl).flush(revisions);
  await new Promise((resolve) => setTimeout(resolve, 0));
  fixture.detectChanges();
  http.expectOne(revisionsUrl).flush(revisions);
  // Admins and owners also see the service's embed links (none here); the page is stable only once they arrived.
  for (const request of http.match((candidate) => candidate.url.endsWith('/embed-links') && candidate.params.has('service'))) request.flush([]);
  await settle(fixture);
}
