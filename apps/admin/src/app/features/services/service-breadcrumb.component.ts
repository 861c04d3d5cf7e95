import { ChangeDetectionStrategy, Component, input } from '@angular/core';
import { RouterLink } from '@angular/router';

/** Services › service › artifact: the way back up from any page of the Services area. */
@Component({
  selector: 'sc-service-breadcrumb',
  changeDetection: ChangeDetectionStrategy.OnPush,
  imports: [RouterLink],
  template: `
    <nav class="breadcrumb" aria-label="Breadcrumb">
      <a [routerLink]="['/orgs', orgId(), 'services']">Services</a>
      <span aria-hidden="true">›</span>
      @if (current(); as current) {
        <a [routerLink]="['/orgs', orgId(), 'services', service()]">{{ service() }}</a>
        <span aria-hidden="true">›</span>
        <span aria-current="page">{{ current }}</span>
      } @else {
        <span aria-current="page">{{ service() }}</span>
      }
    </nav>
  `,
  styles: `
    .breadcrumb {
      display: flex;
      gap: 8px;
      align-items: center;
      margin-bottom: 12px;
      color: var(--mat-sys-on-surface-variant);
    }
    a {
      color: var(--mat-sys-primary);
    }
  `,
})
export class ServiceBreadcrumbComponent {
  readonly orgId = input.required<string>();
  readonly service = input.required<string>();
  /** The artifact page's title; empty on the service page itself. */
  readonly current = input('');
}
