export * from './test-app';
export * from './test-database';
export * from './manual-clock';
export * from './http';
export * from './seed';
export * from './routes';
export * from './round-robin-proxy';
