import { TestBed } from '@angular/core/testing';
import { provideTestApp } from '../../../../testing/providers';
import { PaletteComponent } from './palette.component';

describe('PaletteComponent', () => {
  function render(): HTMLElement {
    TestBed.configureTestingModule({ providers: provideTestApp() });
    const fixture = TestBed.createComponent(PaletteComponent);
    fixture.detectChanges();
    return fixture.nativeElement as HTMLElement;
  }

  it('labels each button in English: "an" before a vowel, the name in lower case', () => {
    const host = render();
    const label = (selector: string) => host.querySelector(selector)?.getAttribute('aria-label');
    expect(label('[data-palette-type=image]')).toBe('Add an image node');
    expect(label('[data-palette-type=gif]')).toBe('Add an animated icon node');
    expect(label('[data-palette-type=cloud]')).toBe('Add a cloud service node');
    expect(label('[data-palette-shape=ellipse]')).toBe('Add an ellipse shape');
    expect(label('[data-palette-shape=rounded-rect]')).toBe('Add a rounded rect shape');
  });

  it('keeps each button a button, inside a list item of a list', () => {
    const host = render();
    const buttons = Array.from(host.querySelectorAll<HTMLButtonElement>('button[data-palette-type]'));
    expect(buttons.length).toBeGreaterThan(30);
    for (const button of buttons) {
      // A role on the button itself would hide that it is a button from a screen reader.
      expect(button.getAttribute('role')).toBeNull();
      const item = button.parentElement;
      expect(item?.tagName === 'LI' || item?.getAttribute('role') === 'listitem').toBe(true);
      const list = item?.parentElement;
      expect(list?.tagName === 'UL' || list?.getAttribute('role') === 'list').toBe(true);
    }
  });
});
