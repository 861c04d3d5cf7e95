import { ChangeDetectionStrategy, Component, computed, inject, input } from '@angular/core';
import { FormControl, Validators } from '@angular/forms';
import { MatButtonModule } from '@angular/material/button';
import { MatIconModule } from '@angular/material/icon';
import { MatTooltipModule } from '@angular/material/tooltip';
import { DOMAIN_NAME_PATTERN, type DomainResponse, type DomainState } from '@sc/contracts';
import { mutation } from '../../core/mutation';
import { pageResource } from '../../core/page-resource';
import { SessionService } from '../../core/session.service';
import { confirmation } from '../../shared/confirm-dialog.component';
import { CopyFieldComponent } from '../../shared/copy-field.component';
import { FORM_FIELDS } from '../../shared/form-fields';
import { ListStateComponent } from '../../shared/list-state.component';
import { RelativeTimeComponent } from '../../shared/relative-time.component';
import { SectionCardComponent } from '../../shared/section-card.component';
import { ProvisioningApi } from './provisioning.api';

const STATE_LABELS: Record<DomainState, string> = { pending: 'Pending', verified: 'Verified', failed: 'Failed' };

/**
 * SSO settings → Email domains: an owner adds a domain, publishes its TXT record and verifies; the server re-checks
 * daily. Only verified domains send people from the /sign-in page to this organization.
 */
@Component({
  selector: 'sc-domains-card',
  changeDetection: ChangeDetectionStrategy.OnPush,
  imports: [FORM_FIELDS, MatButtonModule, MatIconModule, MatTooltipModule, CopyFieldComponent, ListStateComponent, RelativeTimeComponent, SectionCardComponent],
  template: `
    <sc-section-card heading="Email domains" data-testid="domains-card">
      <p class="muted">
        People who enter an address at one of these domains on the <a href="/sign-in">/sign-in</a> page are sent to this
        organization's sign-in. A domain counts once its DNS TXT record is verified; it is checked again every day.
      </p>
      @if (isOwner()) {
        <form class="add-row" (submit)="add($event)">
          <mat-form-field class="grow">
            <mat-label>Domain</mat-label>
            <input matInput [formControl]="domain" placeholder="example.com" autocomplete="off" data-testid="domain-input" />
            <sc-field-errors matError [control]="domain" [messages]="{ required: 'Enter a domain.', pattern: 'Enter a lowercase domain name such as example.com.' }" />
          </mat-form-field>
          <button mat-flat-button type="submit" [disabled]="adding.pending()" data-testid="domain-add">Add domain</button>
        </form>
      }
      <sc-list-state [loading]="domains.isLoading()" loadingLabel="Loading domains" [error]="domains.error()" (retry)="domains.reload()" [empty]="domains.value().length === 0"
        emptyIcon="link" emptyHeading="No domains yet" emptyTestId="domains-empty">Add the domain of your people's work email addresses.</sc-list-state>
      @for (item of domains.value(); track item.id) {
        <div class="domain" [attr.data-testid]="'domain-' + item.domain">
          <div class="domain-head">
            <strong class="mono">{{ item.domain }}</strong>
            <span class="status-chip" [class.ok]="item.state === 'verified'" [class.failed]="item.state === 'failed'" [attr.data-testid]="'domain-state-' + item.domain">{{ stateLabel(item) }}</span>
            <span class="muted small">
              @if (item.lastCheckedAt) { Last checked <sc-relative-time [time]="item.lastCheckedAt" /> } @else { Not checked yet }
            </span>
            <span class="grow"></span>
            @if (isOwner()) {
              <button mat-stroked-button type="button" (click)="verify(item)" [disabled]="busy() === item.id" [attr.data-testid]="'domain-verify-' + item.domain">Verify now</button>
              <button mat-icon-button type="button" (click)="remove(item)" [disabled]="busy() === item.id" [attr.aria-label]="'Remove ' + item.domain" matTooltip="Remove">
                <mat-icon svgIcon="delete" />
              </button>
            }
          </div>
          @if (item.lastError) {
            <div class="muted small" role="status">{{ item.lastError }}</div>
          }
          @if (item.state !== 'verified') {
            <div class="small">Publish this TXT record on <span class="mono">{{ item.domain }}</span>, then verify:</div>
            <sc-copy-field [value]="item.txtRecord" [label]="'TXT record of ' + item.domain" />
          }
        </div>
      }
    </sc-section-card>
  `,
  styleUrl: './provisioning-card.scss',
  styles: `
    .domain {
      display: flex;
      flex-direction: column;
      gap: 6px;
      padding: 12px 0;
      border-top: 1px solid var(--mat-sys-outline-variant);
    }
    .domain-head {
      display: flex;
      align-items: center;
      gap: 12px;
      flex-wrap: wrap;
    }
  `,
})
export class DomainsCardComponent {
  private readonly api = inject(ProvisioningApi);
  private readonly session = inject(SessionService);
  private readonly confirm = confirmation();

  readonly orgId = input.required<string>();
  readonly isOwner = computed(() => this.session.role() === 'owner');
  readonly domains = pageResource({ params: this.orgId, load: (orgId) => this.api.domains(orgId), initial: [] as DomainResponse[] });
  readonly domain = new FormControl('', { nonNullable: true, validators: [Validators.required, Validators.pattern(DOMAIN_NAME_PATTERN)] });
  readonly adding = mutation();
  private readonly rowAction = mutation<string>();
  readonly busy = this.rowAction.busy;

  stateLabel(domain: DomainResponse): string {
    return STATE_LABELS[domain.state];
  }

  async add(event: Event): Promise<void> {
    event.preventDefault();
    this.domain.setValue(this.domain.value.trim().toLowerCase());
    if (this.domain.invalid) {
      this.domain.markAsTouched();
      return;
    }
    await this.adding.run(true, () => this.api.addDomain(this.orgId(), this.domain.value), {
      success: (added) => `${added.domain} added. Publish its TXT record, then verify.`,
      done: (added) => {
        this.domains.update((list) => [...list, added].sort((a, b) => a.domain.localeCompare(b.domain)));
        this.domain.reset();
      },
    });
  }

  async verify(domain: DomainResponse): Promise<void> {
    await this.rowAction.run(domain.id, () => this.api.verifyDomain(this.orgId(), domain.id), {
      success: (checked) => (checked.state === 'verified' ? `${checked.domain} is verified.` : `${checked.domain} is not verified yet.`),
      done: (checked) => this.domains.update((list) => list.map((item) => (item.id === checked.id ? checked : item))),
    });
  }

  async remove(domain: DomainResponse): Promise<void> {
    const confirmed = await this.confirm({
      title: `Remove ${domain.domain}?`,
      message: 'People with addresses at this domain are no longer sent to this organization from the /sign-in page. Members keep their access.',
      confirmLabel: 'Remove domain',
      destructive: true,
    });
    if (!confirmed) return;
    await this.rowAction.run(domain.id, () => this.api.removeDomain(this.orgId(), domain.id), {
      success: `${domain.domain} removed.`,
      done: () => this.domains.update((list) => list.filter((item) => item.id !== domain.id)),
    });
  }
}
