import { ApplicationRef } from '@angular/core';
import { ComponentFixture, TestBed } from '@angular/core/testing';

/** Types into a form control the way a browser does, so reactive forms and (input) handlers see it. */
export function typeInto(fixture: ComponentFixture<unknown>, selector: string, value: string): void {
  const input = query<HTMLInputElement>(fixture, selector);
  input.value = value;
  input.dispatchEvent(new Event('input'));
  input.dispatchEvent(new Event('blur'));
}

export function query<T extends Element = HTMLElement>(fixture: ComponentFixture<unknown>, selector: string): T {
  const element = (fixture.nativeElement as HTMLElement).querySelector<T>(selector);
  if (element === null) throw new Error(`No element matches ${selector}`);
  return element;
}

/** Submits the form `selector` as its submit button would, then renders what the submit changed. */
export function submitForm(fixture: ComponentFixture<unknown>, selector = 'form'): void {
  query<HTMLFormElement>(fixture, selector).dispatchEvent(new Event('submit'));
  fixture.detectChanges();
}

export function textOf(fixture: ComponentFixture<unknown>): string {
  return ((fixture.nativeElement as HTMLElement).textContent ?? '').replace(/\s+/g, ' ');
}

/** Lets pending promises and HTTP callbacks run, then renders the fixture and the overlays (dialogs, menus). */
export async function settle(fixture: ComponentFixture<unknown>): Promise<void> {
  await new Promise((resolve) => setTimeout(resolve, 0));
  await fixture.whenStable();
  fixture.detectChanges();
  TestBed.inject(ApplicationRef).tick();
}

/** Clicks the button with this label inside the open dialog (dialogs render in the overlay, outside the fixture). */
export function clickDialogButton(label: string): void {
  const buttons = Array.from(document.querySelectorAll<HTMLButtonElement>('mat-dialog-container button'));
  const button = buttons.find((candidate) => candidate.textContent?.trim() === label);
  if (button === undefined) {
    throw new Error(`No dialog button "${label}"; found: ${buttons.map((b) => b.textContent?.trim()).join(', ')}`);
  }
  button.click();
}

/** Waits until a dialog is in the overlay (dialogs open after a microtask). */
export async function dialogOpened(fixture: ComponentFixture<unknown>): Promise<void> {
  for (let attempt = 0; attempt < 20; attempt++) {
    await settle(fixture);
    if (document.querySelector('mat-dialog-container') !== null) return;
  }
  throw new Error('No dialog opened');
}

/** The text of each body row of the fixture's tables, whitespace collapsed. */
export function rowsText(fixture: ComponentFixture<unknown>): string[] {
  return Array.from((fixture.nativeElement as HTMLElement).querySelectorAll('tr[mat-row]')).map((row) =>
    (row.textContent ?? '').replace(/\s+/g, ' ').trim(),
  );
}
