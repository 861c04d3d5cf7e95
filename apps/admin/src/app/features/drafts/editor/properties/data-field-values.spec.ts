import { INPUT_TYPE_LABELS } from '@sc/diagram';
import { fieldView } from '../../../diagram-canvas/details-panel.component';
import { convertField, isIsoDate, pairEntry, pairsOf, sliderBounds, VALUE_KIND } from './data-field-values';

describe('data field values', () => {
  it('gives every input type a value kind the context allows', () => {
    expect(Object.keys(VALUE_KIND).sort()).toEqual([...INPUT_TYPE_LABELS].sort());
  });

  it('carries a value over to another input type when it fits, and drops it when it does not', () => {
    expect(convertField({ type: 'Text Input', value: '12' }, 'Number Input')).toEqual({ type: 'Number Input', value: 12 });
    expect(convertField({ type: 'Text Input', value: 'twelve' }, 'Number Input')).toEqual({ type: 'Number Input' });
    expect(convertField({ type: 'Text Input', value: 'a, b' }, 'Tag Input')).toEqual({ type: 'Tag Input', value: ['a', 'b'] });
    expect(convertField({ type: 'Tag Input', value: ['a', 'b'] }, 'Text Input')).toEqual({ type: 'Text Input', value: 'a, b' });
    expect(convertField({ type: 'Text Input', value: 'yes' }, 'Boolean Toggle')).toEqual({ type: 'Boolean Toggle', value: 'true' });
    expect(convertField({ type: 'Text Input', value: '2026-02-30' }, 'Date Picker')).toEqual({ type: 'Date Picker' });
    expect(convertField({ type: 'Text Input', value: 'ftp://x' }, 'URL Input')).toEqual({ type: 'URL Input' });
    expect(convertField({ type: 'Text Input', value: 'teal' }, 'Color Picker')).toEqual({ type: 'Color Picker', value: 'teal' });
    // Choices survive between the selectable types; other types drop them.
    expect(convertField({ type: 'Dropdown', value: 'b', options: ['a', 'b'] }, 'Checkbox Group')).toEqual({ type: 'Checkbox Group', value: ['b'], options: ['a', 'b'] });
    expect(convertField({ type: 'Dropdown', value: 'b', options: ['a', 'b'] }, 'Text Input')).toEqual({ type: 'Text Input', value: 'b' });
    expect(convertField({ type: 'Number Input', value: 7 }, 'Slider')).toEqual({ type: 'Slider', value: 7, options: [0, 100, 1] });
  });

  it('reads dates strictly and slider bounds defensively', () => {
    expect(['2026-11-24', '2024-02-29'].map(isIsoDate)).toEqual([true, true]);
    expect(['2026-02-29', '2026-1-1', '24/11/2026', ''].map(isIsoDate)).toEqual([false, false, false, false]);
    expect(sliderBounds({ type: 'Slider', options: [10, 20, 0.5] })).toEqual({ min: 10, max: 20, step: 0.5 });
    expect(sliderBounds({ type: 'Slider', options: ['x', null, -1] })).toEqual({ min: 0, max: 100, step: 1 });
  });

  it('writes Key-Value List entries the way the canvas details panel reads them', () => {
    const value = [pairEntry('rps', '500'), pairEntry('region', 'eu-west-1')];
    expect(pairsOf(value)).toEqual([
      { key: 'rps', value: '500' },
      { key: 'region', value: 'eu-west-1' },
    ]);
    expect(fieldView('Limits', { type: 'Key-Value List', value })).toEqual({
      label: 'Limits',
      as: 'pairs',
      pairs: [
        { key: 'rps', value: '500' },
        { key: 'region', value: 'eu-west-1' },
      ],
    });
  });
});
