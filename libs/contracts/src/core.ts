// The decorator-free part of the contracts: the error body, the sync bundle and digest, and the .service.yaml rules.
// `service-cli` imports only this entry, so it never loads class-validator (≈0.2 s of every CLI start).
export * from './lib/errors';
export * from './lib/error-codes';
export * from './lib/sync';
export * from './lib/gateway-info';
export * from './lib/service-config';
export * from './lib/input-rules';
export * from './lib/field-limits';
export * from './lib/http-names';
export * from './lib/safe-redirect';
export * from './lib/sso-error-wording';
export * from './lib/plural';
export * from './lib/mcp';
