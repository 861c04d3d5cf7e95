export * from './lib/errors';
export * from './lib/sync';
