import { ChangeDetectionStrategy, Component, OnInit, computed, inject, input, signal } from '@angular/core';
import { FormBuilder, Validators } from '@angular/forms';
import { MatButtonModule } from '@angular/material/button';
import { MatCardModule } from '@angular/material/card';
import { MatIconModule } from '@angular/material/icon';
import { Router } from '@angular/router';
import { FIELD_LIMITS, ORGANIZATION_ID_PATTERN, type SetupResponse } from '@sc/contracts';
import { firstValueFrom } from 'rxjs';
import { toApiError } from '../../core/api-error';
import { mutation } from '../../core/mutation';
import { SessionService } from '../../core/session.service';
import { PublicPageComponent } from '../../shared/public-page.component';
import { ErrorBannerComponent } from '../../shared/error-banner.component';
import { OneTimeSecretComponent } from '../../shared/one-time-secret.component';
import { ORGANIZATION_ID_ERRORS, suggestOrganizationId } from '../../shared/organization-id';
import { SetupApi } from './setup.api';
import { FORM_FIELDS } from '../../shared/form-fields';

type Step = 'checking' | 'form' | 'done' | 'already-set-up' | 'unavailable';

/** First run: creates the first organization and its owner, then shows the one-time admin API token. */
@Component({
  selector: 'sc-setup-page',
  changeDetection: ChangeDetectionStrategy.OnPush,
  imports: [
    FORM_FIELDS,
    MatButtonModule,
    MatCardModule,
    MatIconModule,
    PublicPageComponent,
    ErrorBannerComponent,
    OneTimeSecretComponent,
  ],
  templateUrl: './setup.page.html',
  styleUrl: './setup.page.scss',
})
export class SetupPage implements OnInit {
  protected readonly organizationIdErrors = ORGANIZATION_ID_ERRORS;
  private readonly api = inject(SetupApi);
  private readonly session = inject(SessionService);
  private readonly router = inject(Router);

  /** The one-time setup token from the URL the server printed (bound from ?token=). */
  readonly token = input<string | undefined>();

  readonly step = signal<Step>('checking');
  private readonly submission = mutation({ report: 'inline' });
  readonly submitting = this.submission.pending;
  /** Why the status could not be read or setup failed. */
  readonly error = this.submission.error;
  readonly result = signal<SetupResponse | null>(null);
  readonly adminToken = computed(() => this.result()?.apiToken.token ?? '');
  /** Once the person edits the id we stop overwriting it from the name. */
  private idEdited = false;

  readonly form = inject(FormBuilder).nonNullable.group({
    setupToken: ['', [Validators.required]],
    organizationName: ['', [Validators.required, Validators.maxLength(FIELD_LIMITS.organizationName)]],
    organizationId: ['', [Validators.required, Validators.pattern(ORGANIZATION_ID_PATTERN)]],
    ownerName: ['', [Validators.maxLength(FIELD_LIMITS.personName)]],
    ownerEmail: ['', [Validators.required, Validators.email, Validators.maxLength(FIELD_LIMITS.email)]],
  });

  async ngOnInit(): Promise<void> {
    const token = this.token();
    if (token) this.form.controls.setupToken.setValue(token);
    try {
      const status = await firstValueFrom(this.api.status());
      this.step.set(status.required ? 'form' : 'already-set-up');
    } catch (error: unknown) {
      this.error.set(toApiError(error));
      this.step.set('unavailable');
    }
  }

  /** Whether the token came with the URL; then the field is not shown. */
  tokenFromUrl(): boolean {
    return Boolean(this.token());
  }

  onNameInput(): void {
    if (this.idEdited) return;
    const suggestion = suggestOrganizationId(this.form.controls.organizationName.value);
    this.form.controls.organizationId.setValue(suggestion);
    if (suggestion) this.form.controls.organizationId.markAsTouched();
  }

  onIdInput(): void {
    this.idEdited = true;
  }

  async submit(): Promise<void> {
    if (this.form.invalid) {
      this.form.markAllAsTouched();
      return;
    }
    const value = this.form.getRawValue();
    await this.submission.run(
      true,
      () =>
        this.api.run({
          token: value.setupToken.trim(),
          organization: { id: value.organizationId.trim(), name: value.organizationName.trim() },
          owner: { email: value.ownerEmail.trim(), name: value.ownerName.trim() || undefined },
        }),
      {
        done: (result) => {
          this.result.set(result);
          this.step.set('done');
        },
        // 409: someone finished setup meanwhile; the form can no longer succeed.
        failed: (apiError) => {
          if (apiError.status === 409) this.step.set('already-set-up');
        },
      },
    );
  }

  async continueToOrganization(): Promise<void> {
    const result = this.result();
    if (result === null) return;
    await this.session.load();
    await this.router.navigate(['/orgs', result.organization.id]);
  }
}
