import { ChangeDetectionStrategy, Component, computed, inject } from '@angular/core';
import { MatCardModule } from '@angular/material/card';
import { MatProgressBarModule } from '@angular/material/progress-bar';
import type { GatewayInfo } from '@sc/contracts';
import { pageResource } from '../../core/page-resource';
import { CopyFieldComponent } from '../../shared/copy-field.component';
import { LoadErrorComponent } from '../../shared/load-error.component';
import { TokensApi } from './tokens.api';

/**
 * How a CI pipeline gets service-cli: the one install line with this server's public URL (from
 * GET /api/v1/gateway/info) and the package's SHA-256, or how to build the package when the server has none.
 */
@Component({
  selector: 'sc-cli-install',
  changeDetection: ChangeDetectionStrategy.OnPush,
  imports: [CopyFieldComponent, MatCardModule, MatProgressBarModule, LoadErrorComponent],
  template: `
    <mat-card appearance="outlined" class="section" data-testid="cli-install">
      <mat-card-header>
        <mat-card-title><h2>Install service-cli in CI</h2></mat-card-title>
      </mat-card-header>
      <mat-card-content>
        @if (info.isLoading()) {
          <mat-progress-bar mode="indeterminate" aria-label="Loading the service-cli package" />
        }
        @if (info.error(); as error) {
          <sc-load-error [error]="error" (retry)="info.reload()" />
        } @else if (cliPackage(); as cliPackage) {
          <p>
            This server serves service-cli {{ cliPackage.version }}, its own release. Install it in a pipeline with one line,
            then run <code>service-cli sync</code> with a <code>sync</code> token as <code>SERVICE_TOKEN</code>:
          </p>
          <sc-copy-field [value]="installCommand()" label="install command" testId="cli-install-command" />
          <p class="muted small" data-testid="cli-sha256">sha256: <code class="mono">{{ cliPackage.sha256 }}</code></p>
        } @else if (info.value()) {
          <p data-testid="cli-not-built">
            This server has no service-cli package yet. Whoever runs it builds one with <code>npm run pack:cli</code>
            (the Docker image has it); the install command then appears here.
          </p>
        }
      </mat-card-content>
    </mat-card>
  `,
  styles: `
    .small {
      font-size: 12px;
      overflow-wrap: anywhere;
    }
  `,
})
export class CliInstallComponent {
  private readonly api = inject(TokensApi);

  readonly info = pageResource({ params: () => true, load: () => this.api.gatewayInfo(), initial: null as GatewayInfo | null });
  readonly cliPackage = computed(() => this.info.value()?.cliPackage ?? null);
  readonly installCommand = computed(() => `npm install -g ${this.cliPackage()?.url ?? ''}`);
}
