/**
 * patches/nestjs-cls+6.3.1.patch: nestjs-cls registers a global guard and interceptor even when they are not mounted
 * (this app mounts neither: UnitOfWork opens its own context). Stock 6.3.1 makes them no-ops that still run on every
 * request; patched, they are nil and Nest skips them. Fails when the installed nestjs-cls is not the patched one.
 */
describe('nestjs-cls without mounted enhancers', () => {
  it('provides no global guard or interceptor', () => {
    // The module class is not part of the package's public entry point.
    const { ClsRootModule } = require('nestjs-cls/dist/src/lib/cls-module/cls-root.module') as {
      ClsRootModule: { clsGuardFactory(options: { mount: boolean }): unknown; clsInterceptorFactory(options: { mount: boolean }): unknown };
    };
    expect(ClsRootModule.clsGuardFactory({ mount: false })).toBeNull();
    expect(ClsRootModule.clsInterceptorFactory({ mount: false })).toBeNull();
  });
});
