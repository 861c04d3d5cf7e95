import { effect, signal, type Signal } from '@angular/core';
import type { HLJSApi, LanguageFn } from 'highlight.js';

/**
 * Syntax highlighting for code in markdown and for `code` nodes, with highlight.js. Its core and each language
 * are separate lazy chunks, loaded on the first block that needs them, so pages without code pay nothing.
 *
 * The languages a service repository's docs usually hold; anything else is shown as plain (escaped) text.
 */
const LANGUAGES: Record<string, () => Promise<{ default: LanguageFn }>> = {
  bash: () => import('highlight.js/lib/languages/bash'),
  c: () => import('highlight.js/lib/languages/c'),
  cpp: () => import('highlight.js/lib/languages/cpp'),
  csharp: () => import('highlight.js/lib/languages/csharp'),
  css: () => import('highlight.js/lib/languages/css'),
  diff: () => import('highlight.js/lib/languages/diff'),
  dockerfile: () => import('highlight.js/lib/languages/dockerfile'),
  go: () => import('highlight.js/lib/languages/go'),
  graphql: () => import('highlight.js/lib/languages/graphql'),
  http: () => import('highlight.js/lib/languages/http'),
  ini: () => import('highlight.js/lib/languages/ini'),
  java: () => import('highlight.js/lib/languages/java'),
  javascript: () => import('highlight.js/lib/languages/javascript'),
  json: () => import('highlight.js/lib/languages/json'),
  kotlin: () => import('highlight.js/lib/languages/kotlin'),
  makefile: () => import('highlight.js/lib/languages/makefile'),
  markdown: () => import('highlight.js/lib/languages/markdown'),
  nginx: () => import('highlight.js/lib/languages/nginx'),
  php: () => import('highlight.js/lib/languages/php'),
  plaintext: () => import('highlight.js/lib/languages/plaintext'),
  protobuf: () => import('highlight.js/lib/languages/protobuf'),
  python: () => import('highlight.js/lib/languages/python'),
  ruby: () => import('highlight.js/lib/languages/ruby'),
  rust: () => import('highlight.js/lib/languages/rust'),
  scss: () => import('highlight.js/lib/languages/scss'),
  shell: () => import('highlight.js/lib/languages/shell'),
  sql: () => import('highlight.js/lib/languages/sql'),
  swift: () => import('highlight.js/lib/languages/swift'),
  typescript: () => import('highlight.js/lib/languages/typescript'),
  xml: () => import('highlight.js/lib/languages/xml'),
  yaml: () => import('highlight.js/lib/languages/yaml'),
};

/** The languages highlighted (the code editors' language pickers offer these). */
export const HIGHLIGHT_LANGUAGES: readonly string[] = Object.keys(LANGUAGES);

/** Other names authors write after ``` (lower case), mapped to the language that reads them. */
const ALIASES: Record<string, string> = {
  sh: 'bash',
  zsh: 'bash',
  console: 'shell',
  'c++': 'cpp',
  'c#': 'csharp',
  cs: 'csharp',
  docker: 'dockerfile',
  golang: 'go',
  gql: 'graphql',
  toml: 'ini',
  js: 'javascript',
  jsx: 'javascript',
  mjs: 'javascript',
  cjs: 'javascript',
  jsonc: 'json',
  kt: 'kotlin',
  mk: 'makefile',
  md: 'markdown',
  proto: 'protobuf',
  py: 'python',
  rb: 'ruby',
  rs: 'rust',
  text: 'plaintext',
  txt: 'plaintext',
  plain: 'plaintext',
  ts: 'typescript',
  tsx: 'typescript',
  html: 'xml',
  svg: 'xml',
  yml: 'yaml',
  // The schema files this service stores: Postgres, MySQL and SQLite dialects all read fine as SQL.
  postgres: 'sql',
  postgresql: 'sql',
  mysql: 'sql',
  sqlite: 'sql',
};

let core: Promise<HLJSApi> | undefined;
const registered = new Map<string, Promise<void>>();

/** The highlight.js language for what an author wrote (`ts`, `TypeScript`, `yml`), or null when it has none here. */
export function highlightLanguage(name: string | null | undefined): string | null {
  const key = (name ?? '').trim().toLowerCase();
  const language = ALIASES[key] ?? key;
  return Object.hasOwn(LANGUAGES, language) ? language : null;
}

/**
 * The code as highlighted HTML (`<span class="hljs-…">` around escaped text), or null when the language is not
 * one this app highlights. highlight.js escapes the code itself; callers insert the result into a `code` element.
 */
export async function highlightCode(code: string, language: string | null | undefined): Promise<string | null> {
  const name = highlightLanguage(language);
  if (name === null) return null;
  const hljs = await loadLanguage(name);
  return hljs.highlight(code, { language: name, ignoreIllegals: true }).value;
}

async function loadLanguage(name: string): Promise<HLJSApi> {
  core ??= import('highlight.js/lib/core').then(({ default: hljs }) => hljs);
  const hljs = await core;
  let loading = registered.get(name);
  if (loading === undefined) {
    loading = LANGUAGES[name]().then(({ default: language }) => hljs.registerLanguage(name, language));
    // A failed chunk load (network) may be retried by the next block.
    loading.catch(() => registered.delete(name));
    registered.set(name, loading);
  }
  await loading;
  return hljs;
}

/** Languages tried when a snippet names none (a diagram's `code` node has no language field). */
const GUESS = ['javascript', 'typescript', 'json', 'yaml', 'sql', 'bash', 'python', 'go'];

/** Like highlightCode, but guesses among common languages when `language` is missing or unknown. */
export async function highlightOrGuess(code: string, language?: string | null): Promise<string> {
  const known = await highlightCode(code, language);
  if (known !== null) return known;
  let hljs: HLJSApi | undefined;
  for (const name of GUESS) hljs = await loadLanguage(name);
  return (hljs as HLJSApi).highlightAuto(code, GUESS).value;
}

/**
 * The highlighted HTML of `code()` in `language()` as a signal for a component's template: null at once on every
 * change (the template shows the text plain), then `highlight`'s result once the lazily loaded language has run. A
 * result for text that has since changed is dropped; a language chunk that fails to load leaves the text plain.
 * Must be called in an injection context (a component's field initializer or constructor).
 */
export function highlightedHtml(
  code: () => string,
  language: () => string | null | undefined,
  highlight: (code: string, language: string | null | undefined) => Promise<string | null> = highlightCode,
): Signal<string | null> {
  const html = signal<string | null>(null);
  effect((onCleanup) => {
    const text = code();
    const name = language();
    let current = true;
    onCleanup(() => (current = false));
    html.set(null);
    highlight(text, name).then(
      (result) => current && html.set(result),
      () => undefined,
    );
  });
  return html.asReadonly();
}
