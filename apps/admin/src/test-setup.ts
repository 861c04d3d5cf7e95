// @sc/contracts carries class-validator/class-transformer decorators that need the Reflect metadata API at load time.
import 'reflect-metadata';
import { setupZonelessTestEnv } from 'jest-preset-angular/setup-env/zoneless';

setupZonelessTestEnv();

// jsdom has no ResizeObserver (ngx-vflow, the diagram canvas, observes its size); jsdom lays nothing out, so an
// observer that never reports is what a real one would do here.
class SilentResizeObserver {
  observe(): void {
    // Nothing is ever resized in jsdom.
  }
  unobserve(): void {
    // Nothing observed.
  }
  disconnect(): void {
    // Nothing observed.
  }
}
globalThis.ResizeObserver ??= SilentResizeObserver;
