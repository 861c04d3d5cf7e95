import { ChangeDetectionStrategy, Component } from '@angular/core';

/** Product mark for the pages shown outside the organization shell (setup, signed out). */
@Component({
  selector: 'sc-brand',
  changeDetection: ChangeDetectionStrategy.OnPush,
  template: `
    <div class="brand">
      <img src="favicon.svg" alt="" width="32" height="32" />
      <span>System Context</span>
    </div>
  `,
  styles: `
    .brand {
      display: flex;
      align-items: center;
      justify-content: center;
      gap: 10px;
      font: var(--mat-sys-title-large);
      color: var(--mat-sys-primary);
      margin-bottom: 24px;
    }
    img {
      border-radius: 7px;
    }
  `,
})
export class BrandComponent {}
