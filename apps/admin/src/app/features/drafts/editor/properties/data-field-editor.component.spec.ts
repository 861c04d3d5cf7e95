import { INPUT_TYPE_LABELS, validateDrawnGraph, type DataField } from '@sc/diagram';
import { PanelDriver } from '../../../../../testing/properties-kit';
import { DataFieldEditorComponent } from './data-field-editor.component';

/** One field's editor, with each emitted field fed back as the new input (as the data-field list does). */
function editor(field: DataField): PanelDriver<DataFieldEditorComponent, DataField> {
  return new PanelDriver(DataFieldEditorComponent, { field, index: 0, label: 'Field' }, (c) => c.fieldChange, (next) => ['field', next]);
}
const last = <V>(driver: PanelDriver<unknown, V>): V | undefined => driver.emitted.at(-1);
const p = 'data-field-0-value';

/** The field is a valid data field of a node by the context rules (what the server's save checks). */
function expectValid(field: DataField | undefined): void {
  const checked = validateDrawnGraph({ kind: 'flowchart', nodes: [{ id: 'n', label: 'N', overlay: { data: { Field: field as DataField } } }], edges: [], groups: [] });
  expect(checked.errors).toEqual([]);
  expect(checked.warnings).toEqual([]);
}

describe('DataFieldEditorComponent', () => {
  it('Text Input and Text Editor store the text; clearing removes the value', async () => {
    const text = editor({ type: 'Text Input', value: 'old' });
    expect(text.el(p).value).toBe('old');
    await text.type(p, 'payments-team');
    expect(last(text)).toEqual({ type: 'Text Input', value: 'payments-team' });
    await text.type(p, '');
    expect(last(text)).toEqual({ type: 'Text Input' });

    const area = editor({ type: 'Text Editor' });
    await area.type(p, 'line one\nline two');
    expect(last(area)).toEqual({ type: 'Text Editor', value: 'line one\nline two' });
    expectValid(last(area));
  });

  it('URL Input stores absolute http(s) URLs only and says why it refuses others', async () => {
    const url = editor({ type: 'URL Input' });
    await url.type(p, 'javascript:alert(1)');
    expect(url.emitted).toEqual([]);
    expect(url.text(`${p}-error`)).toContain('not an absolute http(s) URL');
    await url.type(p, 'https://wiki.example/runbook');
    expect(last(url)).toEqual({ type: 'URL Input', value: 'https://wiki.example/runbook' });
    expect(url.has(`${p}-error`)).toBe(false);
    expectValid(last(url));
  });

  it('Number Input stores a number (not a string)', async () => {
    const number = editor({ type: 'Number Input' });
    await number.type(p, '6');
    expect(last(number)).toEqual({ type: 'Number Input', value: 6 });
    await number.type(p, '-2.5');
    expect(last(number)?.value).toBe(-2.5);
    expectValid(last(number));
  });

  it('Date Picker stores YYYY-MM-DD; Date Range Picker stores [from, to] and refuses a range that ends before it starts', async () => {
    const date = editor({ type: 'Date Picker' });
    await date.type(p, '2026-11-02');
    expect(last(date)).toEqual({ type: 'Date Picker', value: '2026-11-02' });

    const range = editor({ type: 'Date Range Picker' });
    await range.type(`${p}-from`, '2026-03-01');
    expect(range.emitted).toEqual([]);
    expect(range.text(`${p}-error`)).toContain('both');
    await range.type(`${p}-to`, '2026-02-01');
    expect(range.emitted).toEqual([]);
    expect(range.text(`${p}-error`)).toContain('ends before it starts');
    await range.type(`${p}-to`, '2026-03-31');
    expect(last(range)).toEqual({ type: 'Date Range Picker', value: ['2026-03-01', '2026-03-31'] });
    expectValid(last(range));
  });

  it('Dropdown: options are edited as chips and the value is one of them', async () => {
    const dropdown = editor({ type: 'Dropdown' });
    await dropdown.chips(`${p}-options`, 'tier-1', 'tier-2', 'tier-3');
    expect(last(dropdown)).toEqual({ type: 'Dropdown', options: ['tier-1', 'tier-2', 'tier-3'] });
    expect(await dropdown.selectOptions(p)).toEqual(['(none)', 'tier-1', 'tier-2', 'tier-3']);
    await dropdown.select(p, 'tier-2');
    expect(last(dropdown)).toEqual({ type: 'Dropdown', options: ['tier-1', 'tier-2', 'tier-3'], value: 'tier-2' });
    // Removing the chosen option drops the value with it.
    await dropdown.click(`${p}-options-remove-1`);
    expect(last(dropdown)).toEqual({ type: 'Dropdown', options: ['tier-1', 'tier-3'] });
    expectValid(last(dropdown));
  });

  it('Multi Select stores the chosen options as an array of strings', async () => {
    const multi = editor({ type: 'Multi Select', options: ['eu', 'us', 'apac'] });
    await multi.select(p, 'eu', 'apac');
    expect(last(multi)).toEqual({ type: 'Multi Select', options: ['eu', 'us', 'apac'], value: ['eu', 'apac'] });
    expectValid(last(multi));
  });

  it('Search Select accepts one of its options only', async () => {
    const search = editor({ type: 'Search Select', options: ['Alice', 'Bob'] });
    await search.type(p, 'Mallory');
    expect(search.emitted).toEqual([]);
    expect(search.text(`${p}-error`)).toContain('not one of the options');
    await search.type(p, 'Bob');
    expect(last(search)).toEqual({ type: 'Search Select', options: ['Alice', 'Bob'], value: 'Bob' });
    expectValid(last(search));
  });

  it('Checkbox Group stores the checked options in the options’ order', async () => {
    const group = editor({ type: 'Checkbox Group', options: ['read', 'write', 'admin'] });
    await group.check(`${p}-option-2`);
    await group.check(`${p}-option-0`);
    expect(last(group)).toEqual({ type: 'Checkbox Group', options: ['read', 'write', 'admin'], value: ['read', 'admin'] });
    await group.check(`${p}-option-2`);
    expect(last(group)?.value).toEqual(['read']);
    expectValid(last(group));
  });

  it('Boolean Toggle stores "true" / "false" (the context allows strings, numbers and string arrays only)', async () => {
    const toggle = editor({ type: 'Boolean Toggle' });
    await toggle.toggle(p);
    expect(last(toggle)).toEqual({ type: 'Boolean Toggle', value: 'true' });
    await toggle.toggle(p);
    expect(last(toggle)).toEqual({ type: 'Boolean Toggle', value: 'false' });
    expectValid(last(toggle));
  });

  it('Tag Input stores the tags as an array of strings, without duplicates', async () => {
    const tags = editor({ type: 'Tag Input' });
    await tags.chips(p, 'pci', 'critical', 'pci');
    expect(last(tags)).toEqual({ type: 'Tag Input', value: ['pci', 'critical'] });
    await tags.click(`${p}-remove-0`);
    expect(last(tags)?.value).toEqual(['critical']);
    expectValid(last(tags));
  });

  it('Key-Value List stores "key: value" entries and refuses a key with ":" or "="', async () => {
    const pairs = editor({ type: 'Key-Value List' });
    await pairs.click(`${p}-add`);
    await pairs.type(`${p}-key-0`, 'rps');
    await pairs.type(`${p}-val-0`, '500');
    await pairs.click(`${p}-add`);
    await pairs.type(`${p}-val-1`, '50');
    await pairs.type(`${p}-key-1`, 'burst');
    expect(last(pairs)).toEqual({ type: 'Key-Value List', value: ['rps: 500', 'burst: 50'] });
    const count = pairs.emitted.length;
    await pairs.type(`${p}-key-1`, 'a=b');
    expect(pairs.emitted.length).toBe(count);
    expect(pairs.text(`${p}-error`)).toContain('cannot contain');
    await pairs.click(`${p}-remove-1`);
    expect(last(pairs)).toEqual({ type: 'Key-Value List', value: ['rps: 500'] });
    expectValid(last(pairs));
  });

  it('Rich Text Editor stores Markdown, formats the selection and previews it sanitized', async () => {
    const rich = editor({ type: 'Rich Text Editor' });
    await rich.type(p, 'Owned by payments');
    const area = rich.el<HTMLTextAreaElement>(p);
    area.setSelectionRange(9, 17);
    await rich.click(`${p}-bold`);
    expect(last(rich)).toEqual({ type: 'Rich Text Editor', value: 'Owned by **payments**' });
    await rich.type(p, 'Hi <img src=x onerror=alert(1)> **there**');
    await rich.click(`${p}-preview-toggle`);
    await rich.settle();
    const preview = rich.el<HTMLElement>(`${p}-preview`);
    expect(preview.querySelector('strong')?.textContent).toBe('there');
    expect(preview.querySelector('img[onerror]')).toBeNull();
    expectValid(last(rich));
  });

  it('Code Editor stores the code, its language in options, and Tab indents', async () => {
    const code = editor({ type: 'Code Editor' });
    await code.select(`${p}-language`, 'typescript');
    expect(last(code)).toEqual({ type: 'Code Editor', options: ['typescript'] });
    await code.type(p, 'const a = 1;');
    expect(last(code)).toEqual({ type: 'Code Editor', options: ['typescript'], value: 'const a = 1;' });
    const area = code.el<HTMLTextAreaElement>(p);
    area.setSelectionRange(0, 0);
    const tab = new KeyboardEvent('keydown', { key: 'Tab', cancelable: true, bubbles: true });
    area.dispatchEvent(tab);
    expect(tab.defaultPrevented).toBe(true);
    expect(area.value).toBe('  const a = 1;');
    expectValid(last(code));
  });

  it('Color Picker stores a colour from the text or the picker, and refuses text that is no colour', async () => {
    const colour = editor({ type: 'Color Picker' });
    await colour.type(p, 'not-a-colour');
    expect(colour.emitted).toEqual([]);
    await colour.type(p, 'rebeccapurple');
    expect(last(colour)).toEqual({ type: 'Color Picker', value: 'rebeccapurple' });
    await colour.type(`${p}-picker`, '#1f6feb');
    expect(last(colour)).toEqual({ type: 'Color Picker', value: '#1f6feb' });
    expectValid(last(colour));
  });

  it('Slider stores a number within [min, max] kept in options', async () => {
    const slider = editor({ type: 'Slider', options: [0, 10, 1] });
    await slider.slide(p, 7);
    expect(last(slider)).toEqual({ type: 'Slider', options: [0, 10, 1], value: 7 });
    await slider.type(`${p}-max`, '5');
    expect(last(slider)).toEqual({ type: 'Slider', options: [0, 5, 1], value: 5 });
    const count = slider.emitted.length;
    await slider.type(`${p}-min`, '9');
    expect(slider.emitted.length).toBe(count);
    expect(slider.text(`${p}-error`)).toContain('minimum must be below');
    expectValid(last(slider));
  });

  it('File Upload and Link or File Upload keep a file name or a link; nothing is uploaded, and the UI says so', async () => {
    const file = editor({ type: 'File Upload' });
    expect(file.host.textContent).toContain('Nothing is uploaded');
    await file.chooseFile(`${p}-file`, 'architecture.pdf');
    expect(last(file)).toEqual({ type: 'File Upload', value: 'architecture.pdf' });
    expectValid(last(file));

    const link = editor({ type: 'Link or File Upload' });
    expect(link.host.textContent).toContain('Files are not uploaded');
    await link.type(p, ' https://files.example/spec.pdf ');
    expect(last(link)).toEqual({ type: 'Link or File Upload', value: 'https://files.example/spec.pdf' });
    await link.chooseFile(`${p}-file`, 'spec.pdf');
    expect(last(link)?.value).toBe('spec.pdf');
    expectValid(last(link));
  });

  it('has an editor for each of the 19 input types', () => {
    expect(INPUT_TYPE_LABELS).toHaveLength(19);
    for (const type of INPUT_TYPE_LABELS) {
      const driver = editor({ type });
      // A type without its own case would render nothing at all.
      expect({ type, control: driver.host.querySelector(`[data-testid^="${p}"]`)?.tagName ?? null }).toEqual({ type, control: expect.any(String) });
    }
  });
});
