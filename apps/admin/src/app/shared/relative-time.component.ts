import { ChangeDetectionStrategy, Component, computed, input } from '@angular/core';
import { exactTime, relativeTime } from './time';

/** "3 minutes ago", with the exact time on hover (`title`) and in `datetime` for machines. */
@Component({
  selector: 'sc-relative-time',
  changeDetection: ChangeDetectionStrategy.OnPush,
  template: `<time [attr.datetime]="time()" [title]="exact()">{{ relative() }}</time>`,
})
export class RelativeTimeComponent {
  readonly time = input.required<string>();
  /** The reference "now" (tests pin it). */
  readonly now = input<Date | undefined>(undefined);
  readonly relative = computed(() => relativeTime(this.time(), this.now() ?? new Date()));
  readonly exact = computed(() => exactTime(this.time()));
}
