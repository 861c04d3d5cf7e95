import { provideHttpClient, withInterceptors } from '@angular/common/http';
import { provideHttpClientTesting } from '@angular/common/http/testing';
import { EnvironmentProviders, Provider } from '@angular/core';
import { MATERIAL_ANIMATIONS } from '@angular/material/core';
import { Routes, provideRouter } from '@angular/router';
import { apiErrorInterceptor } from '../app/core/api-error.interceptor';
import { provideAppIcons } from '../app/core/icons';

/** The app's real HTTP pipeline (error interceptor included) on Angular's testing backend, plus the icons. */
export function provideTestApp(routes: Routes = []): (Provider | EnvironmentProviders)[] {
  return [
    provideRouter(routes),
    provideHttpClient(withInterceptors([apiErrorInterceptor])),
    provideHttpClientTesting(),
    provideAppIcons(),
    // Dialogs then close synchronously instead of waiting for an animation jsdom never runs.
    { provide: MATERIAL_ANIMATIONS, useValue: { animationsDisabled: true } },
  ];
}
