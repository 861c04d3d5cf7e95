// The Node half of @sc/diagram (Mermaid parsing). Importing it loads jsdom (≈0.4 s), so diagram-check.ts
// require()s this file on its first check instead of importing the library at start-up. The indirection keeps
// the library itself statically imported (Nx forbids lazy-loading a library that other files import statically).
export { validateDiagramWithContext } from '@sc/diagram/node';
