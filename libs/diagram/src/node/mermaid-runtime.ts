import { isColor } from '../lib/context/colors';
import type { MermaidParser } from './mermaid-error-origin';

const CSS_WIDE_KEYWORDS = new Set(['inherit', 'initial', 'unset', 'revert', 'revert-layer']);

/**
 * The slice of Mermaid's API we use. Mermaid's own typings describe the browser API and a
 * generic `DiagramDB`; each kind's database is read through the narrow views in
 * graph-builders.ts instead.
 */
export interface MermaidDiagram {
  type: string;
  db: unknown;
  /** The diagram kind's parser (see mermaid-error-origin.ts). */
  parser: MermaidParser;
}
export interface MermaidModule {
  initialize(config: Record<string, unknown>): void;
  mermaidAPI: { getDiagramFromText(text: string): Promise<MermaidDiagram> };
}

/** Edges are capped at 500 by default; real architecture diagrams and the benchmark go well beyond. */
export const MERMAID_MAX_EDGES = 100_000;

let loading: Promise<MermaidModule> | undefined;
let queue: Promise<unknown> = Promise.resolve();

/**
 * Mermaid expects a browser: DOMPurify (used to sanitize labels) needs a window at import
 * time, and some label code asks window.CSS.supports. A jsdom window provides both; it is
 * installed once per process (or worker thread) and only when no window exists yet.
 */
async function installDomShim(): Promise<void> {
  const globals = globalThis as unknown as { window?: Window & typeof globalThis; document?: Document };
  if (globals.window) return;
  // Loaded here, not at the top: importing @sc/diagram/node (for the worker pool, say) must not cost jsdom's ≈0.4 s.
  const { JSDOM } = await import('jsdom');
  const dom = new JSDOM('<!doctype html><html><body></body></html>', { pretendToBeVisual: false });
  const window = dom.window as unknown as Window & typeof globalThis;
  // jsdom has no CSS.supports. Mermaid asks it whether a sequence `box` starts with a colour
  // (`box Purple Team` → colour Purple, title Team), so it must answer as a browser would.
  const supports = (property: string, value?: string) => property === 'color' && value !== undefined && (isColor(value) || CSS_WIDE_KEYWORDS.has(value.toLowerCase()));
  (window as unknown as { CSS: unknown }).CSS = { ...(window.CSS ?? {}), supports };
  globals.window = window;
  globals.document = window.document;
}

async function loadMermaid(): Promise<MermaidModule> {
  await installDomShim();
  // Mermaid is ESM-only; node16 module output keeps this a native import().
  const imported = (await import('mermaid')) as unknown as { default: MermaidModule };
  const mermaid = imported.default;
  mermaid.initialize({ startOnLoad: false, maxEdges: MERMAID_MAX_EDGES, securityLevel: 'strict', logLevel: 'fatal' });
  return mermaid;
}

export function getMermaid(): Promise<MermaidModule> {
  loading ??= loadMermaid();
  return loading;
}

/**
 * Runs `task` with Mermaid once every earlier task has finished. Diagram databases are
 * module-global singletons that getDiagramFromText clears and refills, so two parses must
 * never interleave, and the database must be read before the next parse starts.
 */
export function withMermaid<T>(task: (mermaid: MermaidModule) => Promise<T> | T): Promise<T> {
  const run = queue.then(async () => task(await getMermaid()));
  queue = run.catch(() => undefined);
  return run;
}
