// oidc-provider ships no type declarations. This module declares the part of its API the harness uses.
// It is a module, not an ambient `declare module 'oidc-provider'`: oidc-idp.ts imports these types, so
// every project that compiles the library gets them without a triple-slash reference or tsconfig entry.
import type { IncomingMessage, ServerResponse } from 'node:http';

export interface OidcProvider {
  on(event: string, listener: (...args: never[]) => void): this;
  callback(): (req: IncomingMessage, res: ServerResponse) => Promise<void>;
}

/** What `import('oidc-provider')` resolves to (the package is ESM-only, with a default export). */
export interface OidcProviderModule {
  default: new (issuer: string, configuration: unknown) => OidcProvider;
}
