import { provideHttpClient, withInterceptors } from '@angular/common/http';
import { HttpTestingController, provideHttpClientTesting } from '@angular/common/http/testing';
import { EnvironmentProviders, Provider, Type } from '@angular/core';
import { ComponentFixture, TestBed } from '@angular/core/testing';
import { MATERIAL_ANIMATIONS } from '@angular/material/core';
import { Routes, provideRouter, type RouterFeatures } from '@angular/router';
import { apiErrorInterceptor } from '../app/core/api-error.interceptor';
import { provideAppIcons } from '../app/core/icons';

/** The app's real HTTP pipeline (error interceptor included) on Angular's testing backend, plus the icons. */
export function provideTestApp(routes: Routes = [], ...routerFeatures: RouterFeatures[]): (Provider | EnvironmentProviders)[] {
  return [
    provideRouter(routes, ...routerFeatures),
    provideHttpClient(withInterceptors([apiErrorInterceptor])),
    provideHttpClientTesting(),
    provideAppIcons(),
    // Dialogs then close synchronously instead of waiting for an animation jsdom never runs.
    { provide: MATERIAL_ANIMATIONS, useValue: { animationsDisabled: true } },
  ];
}

/** Configures TestBed with provideTestApp plus `extra`; answers the controller that specs flush requests with. */
export function setUpTestApp(extra: (Provider | EnvironmentProviders)[] = []): HttpTestingController {
  TestBed.configureTestingModule({ providers: [...provideTestApp(), ...extra] });
  return TestBed.inject(HttpTestingController);
}

/** After each spec: every request was answered, and no dialog or snack bar is left in the overlay for the next spec. */
export function verifyAndClearOverlays(http: HttpTestingController): void {
  http.verify();
  document.querySelectorAll('.cdk-overlay-container').forEach((element) => (element.innerHTML = ''));
}

/** Draws `component` with `inputs` on a fresh TestBed with provideTestApp, for specs that draw one per case. */
export function renderWithInputs(component: Type<unknown>, inputs: Record<string, unknown>): HTMLElement {
  TestBed.resetTestingModule();
  TestBed.configureTestingModule({ providers: provideTestApp() });
  const fixture = createWithInputs(component, inputs);
  fixture.detectChanges();
  return fixture.nativeElement as HTMLElement;
}

/** Creates `component` on the configured TestBed with `inputs` set; not drawn yet. */
export function createWithInputs<T>(component: Type<T>, inputs: Record<string, unknown>): ComponentFixture<T> {
  const fixture = TestBed.createComponent(component);
  for (const [name, value] of Object.entries(inputs)) fixture.componentRef.setInput(name, value);
  return fixture;
}
