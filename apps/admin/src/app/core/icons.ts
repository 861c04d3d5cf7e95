import { inject, provideAppInitializer } from '@angular/core';
import { MatIconRegistry } from '@angular/material/icon';
import { DomSanitizer } from '@angular/platform-browser';
import { ICON_PATHS } from '@sc/diagram';

// Material Design icon paths (Apache-2.0): libs/diagram (canvas/icons.ts), shared with the server's image rendering.

function svg(path: string): string {
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24" fill="currentColor"><path d="${path}"/></svg>`;
}

export const ICON_NAMES = Object.keys(ICON_PATHS);

/** Registers the app's icons once at startup so templates can write `<mat-icon svgIcon="add">`. */
export function provideAppIcons() {
  return provideAppInitializer(() => {
    const registry = inject(MatIconRegistry);
    const sanitizer = inject(DomSanitizer);
    for (const [name, path] of Object.entries(ICON_PATHS)) {
      // The literals are constants of libs/diagram (canvas/icons.ts), never user input, so trusting them is safe.
      registry.addSvgIconLiteral(name, sanitizer.bypassSecurityTrustHtml(svg(path)));
    }
  });
}
