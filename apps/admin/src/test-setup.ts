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

// jsdom has no 2D canvas: its getContext logs "Not implemented" with a stack trace, then returns null. The minimap,
// the layout preview and the image export already draw nothing when a browser gives no context, so answer null
// without the log (168 stack traces a run buried real warnings in the test output).
HTMLCanvasElement.prototype.getContext = (() => null) as HTMLCanvasElement['getContext'];
