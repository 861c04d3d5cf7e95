import { HarnessLoader } from '@angular/cdk/testing';
import { TestbedHarnessEnvironment } from '@angular/cdk/testing/testbed';
import { OutputEmitterRef, Type } from '@angular/core';
import { ComponentFixture, TestBed } from '@angular/core/testing';
import { MatCheckboxHarness } from '@angular/material/checkbox/testing';
import { MatChipInputHarness } from '@angular/material/chips/testing';
import { MatSelectHarness } from '@angular/material/select/testing';
import { MatSlideToggleHarness } from '@angular/material/slide-toggle/testing';
import { MatSliderHarness } from '@angular/material/slider/testing';
import { TestKey } from '@angular/cdk/testing';
import { provideTestApp } from './providers';
import { settle } from './dom';

/**
 * Drives a properties panel (node, edge, group) the way the editor page uses it: every emitted value is fed back
 * as the new input, so a sequence of edits builds up one element. Controls are found by their data-testid.
 */
export class PanelDriver<C, V> {
  readonly fixture: ComponentFixture<C>;
  readonly loader: HarnessLoader;
  /** Every value emitted so far. */
  readonly emitted: V[] = [];

  constructor(component: Type<C>, inputs: Record<string, unknown>, output: (component: C) => OutputEmitterRef<V>, feedBack: (value: V) => [string, unknown]) {
    TestBed.resetTestingModule();
    TestBed.configureTestingModule({ providers: provideTestApp() });
    this.fixture = TestBed.createComponent(component);
    for (const [name, value] of Object.entries(inputs)) this.fixture.componentRef.setInput(name, value);
    output(this.fixture.componentInstance).subscribe((value) => {
      this.emitted.push(value);
      const [name, next] = feedBack(value);
      this.fixture.componentRef.setInput(name, next);
    });
    this.fixture.detectChanges();
    this.loader = TestbedHarnessEnvironment.loader(this.fixture);
  }

  get host(): HTMLElement {
    return this.fixture.nativeElement as HTMLElement;
  }

  el<T extends HTMLElement = HTMLInputElement>(testId: string): T {
    const element = this.host.querySelector<T>(`[data-testid="${testId}"]`);
    if (element === null) throw new Error(`No element with data-testid="${testId}"`);
    return element;
  }

  has(testId: string): boolean {
    return this.host.querySelector(`[data-testid="${testId}"]`) !== null;
  }

  text(testId: string): string {
    return (this.el<HTMLElement>(testId).textContent ?? '').replace(/\s+/g, ' ').trim();
  }

  /** Types a whole value and commits it (input, then change), as a user typing and leaving the field. */
  async type(testId: string, value: string): Promise<void> {
    const input = this.el<HTMLInputElement>(testId);
    input.value = value;
    input.dispatchEvent(new Event('input', { bubbles: true }));
    input.dispatchEvent(new Event('change', { bubbles: true }));
    await this.settle();
  }

  /** Commits each id in an id field (`testId`) and expects its problem (`<testId>-error`) to name the reason given. */
  async expectIdProblems(testId: string, cases: readonly (readonly [id: string, problem: string])[]): Promise<void> {
    for (const [id, problem] of cases) {
      await this.type(testId, id);
      expect(this.text(`${testId}-error`)).toContain(problem);
    }
  }

  async click(testId: string): Promise<void> {
    this.el<HTMLElement>(testId).click();
    await this.settle();
  }

  /** Picks options of a mat-select by their text (several for a multiple select). */
  async select(testId: string, ...texts: string[]): Promise<void> {
    const select = await this.loader.getHarness(MatSelectHarness.with({ selector: `[data-testid="${testId}"]` }));
    await select.open();
    for (const text of texts) await select.clickOptions({ text });
    if (await select.isOpen()) await select.close();
    await this.settle();
  }

  /**
   * Picks an option of a mat-select by clicking, without waiting for the app to be stable: for selects that start
   * an HTTP request (pending requests keep a zoneless app unstable until the spec answers them).
   */
  pickNow(testId: string, text: string): void {
    this.el<HTMLElement>(testId).querySelector<HTMLElement>('.mat-mdc-select-trigger')?.click();
    this.fixture.detectChanges();
    const options = Array.from(document.querySelectorAll<HTMLElement>('mat-option'));
    const option = options.find((candidate) => candidate.textContent?.trim() === text);
    if (!option) throw new Error(`No option "${text}" in ${testId}; found: ${options.map((o) => o.textContent?.trim()).join(', ')}`);
    option.click();
    this.fixture.detectChanges();
  }

  /** The option texts of a mat-select, read by opening it without waiting for stability (see pickNow). */
  optionsNow(testId: string): string[] {
    this.el<HTMLElement>(testId).querySelector<HTMLElement>('.mat-mdc-select-trigger')?.click();
    this.fixture.detectChanges();
    const texts = Array.from(document.querySelectorAll<HTMLElement>('mat-option')).map((option) => option.textContent?.trim() ?? '');
    document.querySelector<HTMLElement>('.cdk-overlay-backdrop')?.click();
    document.body.dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape' }));
    this.fixture.detectChanges();
    return texts;
  }

  async selectOptions(testId: string): Promise<string[]> {
    const select = await this.loader.getHarness(MatSelectHarness.with({ selector: `[data-testid="${testId}"]` }));
    await select.open();
    const options = await Promise.all((await select.getOptions()).map((option) => option.getText()));
    await select.close();
    return options;
  }

  async toggle(testId: string): Promise<void> {
    const toggle = await this.loader.getHarness(MatSlideToggleHarness.with({ selector: `[data-testid="${testId}"]` }));
    await toggle.toggle();
    await this.settle();
  }

  async check(testId: string): Promise<void> {
    const box = await this.loader.getHarness(MatCheckboxHarness.with({ selector: `[data-testid="${testId}"]` }));
    await box.toggle();
    await this.settle();
  }

  /** Adds chips to a chip list by typing each and pressing Enter. */
  async chips(testId: string, ...items: string[]): Promise<void> {
    for (const item of items) {
      const input = await this.loader.getHarness(MatChipInputHarness.with({ selector: `[data-testid="${testId}"]` }));
      await input.setValue(item);
      await input.sendSeparatorKey(TestKey.ENTER);
      await this.settle();
    }
  }

  async slide(testId: string, value: number): Promise<void> {
    const slider = await this.loader.getHarness(MatSliderHarness.with({ selector: `mat-slider:has([data-testid="${testId}"])` }));
    await (await slider.getEndThumb()).setValue(value);
    await this.settle();
  }

  /** Chooses a file in a file input (jsdom cannot open a file dialog). */
  async chooseFile(testId: string, name: string): Promise<void> {
    const input = this.el<HTMLInputElement>(testId);
    Object.defineProperty(input, 'files', { configurable: true, value: [new File(['x'], name)] });
    input.dispatchEvent(new Event('change', { bubbles: true }));
    await this.settle();
  }

  settle(): Promise<void> {
    return settle(this.fixture);
  }
}
