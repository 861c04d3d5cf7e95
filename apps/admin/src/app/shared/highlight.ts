import type { HLJSApi, LanguageFn } from 'highlight.js';

/**
 * Syntax highlighting with highlight.js core, loaded on first use with only the languages asked for (the full
 * bundle is ~1 MB). The result is highlight.js's HTML: the code escaped, wrapped in `<span class="hljs-…">`.
 */

const LANGUAGES: Record<string, () => Promise<{ default: LanguageFn }>> = {
  bash: () => import('highlight.js/lib/languages/bash'),
  go: () => import('highlight.js/lib/languages/go'),
  java: () => import('highlight.js/lib/languages/java'),
  javascript: () => import('highlight.js/lib/languages/javascript'),
  json: () => import('highlight.js/lib/languages/json'),
  python: () => import('highlight.js/lib/languages/python'),
  sql: () => import('highlight.js/lib/languages/sql'),
  typescript: () => import('highlight.js/lib/languages/typescript'),
  yaml: () => import('highlight.js/lib/languages/yaml'),
};

const ALIASES: Record<string, string> = { js: 'javascript', ts: 'typescript', sh: 'bash', shell: 'bash', yml: 'yaml', py: 'python' };

/** Languages guessed from when a snippet names none. */
const GUESS = ['javascript', 'typescript', 'json', 'yaml', 'sql', 'bash', 'python', 'go'];

let core: Promise<HLJSApi> | undefined;
const registered = new Map<string, Promise<void>>();

function loadCore(): Promise<HLJSApi> {
  core ??= import('highlight.js/lib/core').then((module) => module.default);
  return core;
}

async function register(hljs: HLJSApi, name: string): Promise<void> {
  let done = registered.get(name);
  if (!done) {
    done = LANGUAGES[name]().then((module) => hljs.registerLanguage(name, module.default));
    registered.set(name, done);
  }
  await done;
}

/** Known language name for `language` (aliases resolved), or undefined. */
export function highlightLanguage(language: string | undefined): string | undefined {
  if (!language) return undefined;
  const name = ALIASES[language.toLowerCase()] ?? language.toLowerCase();
  return name in LANGUAGES ? name : undefined;
}

/** Highlighted HTML for `code`; the language is guessed among common ones when unknown or not given. */
export async function highlight(code: string, language?: string): Promise<string> {
  const hljs = await loadCore();
  const known = highlightLanguage(language);
  if (known) {
    await register(hljs, known);
    return hljs.highlight(code, { language: known, ignoreIllegals: true }).value;
  }
  await Promise.all(GUESS.map((name) => register(hljs, name)));
  return hljs.highlightAuto(code, GUESS).value;
}
