// Browser-safe entry point: graph model, context validation and application, collapse, export.
export {};
