import { Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { DomainsService } from './domains.service';

/** How often the job looks for domains due a check; each domain is checked once per SERVICE_DOMAIN_RECHECK_AGE. */
const PASS_INTERVAL_MS = 60 * 60 * 1000;

/** The daily re-check of verified domains (DomainsService.recheckDue), as the retention job runs: a timer, unref'd. */
@Injectable()
export class DomainRecheckJob implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('DomainRecheck');
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<number> | undefined;

  constructor(private readonly domains: DomainsService) {}

  onApplicationBootstrap(): void {
    this.timer = setInterval(() => void this.runOnce().catch((error: unknown) => this.logger.warn(`Domain re-check failed: ${String(error)}`)), PASS_INTERVAL_MS);
    this.timer.unref();
  }

  async onApplicationShutdown(): Promise<void> {
    clearInterval(this.timer);
    await this.running?.catch(() => undefined);
  }

  /** One pass; concurrent calls share it. Returns how many domains this instance checked. */
  runOnce(): Promise<number> {
    this.running ??= this.domains.recheckDue().finally(() => {
      this.running = undefined;
    });
    return this.running;
  }
}
