// Node-only entry point: Mermaid parsing with a DOM shim.
export {};
