import { isColor, type DataField, type InputTypeLabel } from '@sc/diagram';

/**
 * How each of the spec's 19 input types stores its value in the context file (string, number or array of strings)
 * and what its `options` hold. The canvas's details panel reads the same shapes (diagram-canvas/details-panel).
 */
export type ValueKind = 'string' | 'number' | 'strings';

export const VALUE_KIND: Readonly<Record<InputTypeLabel, ValueKind>> = {
  'Text Input': 'string',
  'URL Input': 'string',
  'Number Input': 'number',
  'Text Editor': 'string',
  'Date Picker': 'string', // YYYY-MM-DD
  Dropdown: 'string', // one of options
  'Multi Select': 'strings', // some of options
  'Boolean Toggle': 'string', // "true" or "false"
  'Link or File Upload': 'string', // a URL or a file name
  'Rich Text Editor': 'string', // Markdown
  'Code Editor': 'string', // options: [language]
  'Key-Value List': 'strings', // "key: value" per entry
  'Tag Input': 'strings',
  'Date Range Picker': 'strings', // [from, to], YYYY-MM-DD
  'Color Picker': 'string',
  Slider: 'number', // options: [min, max, step]
  'File Upload': 'string', // a file name or URL; nothing is uploaded
  'Search Select': 'string', // one of options
  'Checkbox Group': 'strings', // some of options
};

/** Input types whose options are the choices (strings). */
export const CHOICE_TYPES: readonly InputTypeLabel[] = ['Dropdown', 'Multi Select', 'Search Select', 'Checkbox Group'];

export const SLIDER_DEFAULTS = { min: 0, max: 100, step: 1 } as const;

const DATE = /^\d{4}-\d{2}-\d{2}$/;

/** A valid calendar date written YYYY-MM-DD. */
export function isIsoDate(text: string): boolean {
  if (!DATE.test(text)) return false;
  const date = new Date(`${text}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === text;
}

/** An absolute http(s) URL (what the URL inputs accept and the details panel links). */
export function isWebUrl(text: string): boolean {
  try {
    return ['http:', 'https:'].includes(new URL(text).protocol);
  } catch {
    return false;
  }
}

/** Slider bounds from `options` ([min, max, step]), falling back to 0–100 by 1. */
export function sliderBounds(field: DataField): { min: number; max: number; step: number } {
  const [min, max, step] = (field.options ?? []).map((value) => (typeof value === 'number' && Number.isFinite(value) ? value : undefined));
  return { min: min ?? SLIDER_DEFAULTS.min, max: max ?? SLIDER_DEFAULTS.max, step: step !== undefined && step > 0 ? step : SLIDER_DEFAULTS.step };
}

/** The choices of a selectable field: its options as strings. */
export function choices(field: DataField): string[] {
  return (field.options ?? []).filter((option): option is string | number => typeof option === 'string' || typeof option === 'number').map(String);
}

export function textOf(value: DataField['value']): string {
  return Array.isArray(value) ? value.join(', ') : value === undefined ? '' : String(value);
}

export function listOf(value: DataField['value']): string[] {
  if (Array.isArray(value)) return value;
  return textOf(value)
    .split(/\s*,\s*/)
    .filter((item) => item !== '');
}

/** "key: value" entries of a Key-Value List as pairs (the first ":" or "=" separates, as the details panel reads). */
export function pairsOf(value: DataField['value']): { key: string; value: string }[] {
  return listOf(value).map((entry) => {
    const match = /^\s*([^:=]+?)\s*[:=]\s*(.*)$/.exec(entry);
    return match ? { key: match[1], value: match[2] } : { key: entry.trim(), value: '' };
  });
}

export function pairEntry(key: string, value: string): string {
  return `${key}: ${value}`;
}

/**
 * The field as another input type: the value is carried over when it still makes sense (text to text, a list to
 * tags, "3" to a number), otherwise dropped; options are kept only for types that use them.
 */
export function convertField(field: DataField, type: InputTypeLabel): DataField {
  const value = convertValue(field.value, type);
  const keepsOptions = CHOICE_TYPES.includes(type) && CHOICE_TYPES.includes(field.type);
  const options = keepsOptions ? field.options : type === 'Slider' ? [SLIDER_DEFAULTS.min, SLIDER_DEFAULTS.max, SLIDER_DEFAULTS.step] : undefined;
  return { type, ...(value !== undefined ? { value } : {}), ...(options !== undefined ? { options } : {}) };
}

function convertValue(value: DataField['value'], type: InputTypeLabel): DataField['value'] {
  if (value === undefined) return undefined;
  const text = textOf(value).trim();
  switch (type) {
    case 'Number Input':
    case 'Slider': {
      const number = typeof value === 'number' ? value : Number(text);
      return text !== '' && Number.isFinite(number) ? number : undefined;
    }
    case 'Boolean Toggle':
      return ['true', 'yes', '1', 'on'].includes(text.toLowerCase()) ? 'true' : 'false';
    case 'Date Picker':
      return isIsoDate(text) ? text : undefined;
    case 'Date Range Picker': {
      const dates = listOf(value).filter(isIsoDate);
      return dates.length === 2 ? dates : undefined;
    }
    case 'URL Input':
      return isWebUrl(text) ? text : undefined;
    case 'Color Picker':
      return isColor(text) ? text : undefined;
    case 'Multi Select':
    case 'Tag Input':
    case 'Checkbox Group':
    case 'Key-Value List':
      return listOf(value);
    case 'Dropdown':
    case 'Search Select':
      return Array.isArray(value) ? value[0] : text === '' ? undefined : text;
    default:
      return text === '' ? undefined : textOf(value);
  }
}
