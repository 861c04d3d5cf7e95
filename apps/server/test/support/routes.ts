import { RequestMethod, type INestApplication } from '@nestjs/common';
import { METHOD_METADATA, PATH_METADATA } from '@nestjs/common/constants';
import { DiscoveryService, MetadataScanner, ModulesContainer } from '@nestjs/core';
import { ACCESS_METADATA, type AccessRule } from '../../src/modules/access/decorators';
import { API_PREFIX } from '../../src/app.factory';

export interface RouteInfo {
  method: string;
  /** Full path with the global prefix, e.g. /api/v1/orgs/:orgId/members/:userId */
  path: string;
  access: AccessRule | undefined;
  handler: string;
}

/** Every HTTP route the application declares, from Nest's own controller metadata. */
export function listRoutes(app: INestApplication): RouteInfo[] {
  const discovery = new DiscoveryService(app.get(ModulesContainer));
  const scanner = new MetadataScanner();
  const routes: RouteInfo[] = [];
  for (const wrapper of discovery.getControllers()) {
    const controller = wrapper.metatype as (new (...args: never[]) => unknown) | null;
    if (!controller || !wrapper.instance) continue;
    const prototype = Object.getPrototypeOf(wrapper.instance) as Record<string, unknown>;
    const controllerPaths = asArray(Reflect.getMetadata(PATH_METADATA, controller) as string | string[] | undefined);
    for (const name of scanner.getAllMethodNames(prototype)) {
      const handler = prototype[name] as object;
      const methodPath = Reflect.getMetadata(PATH_METADATA, handler) as string | string[] | undefined;
      const requestMethod = Reflect.getMetadata(METHOD_METADATA, handler) as RequestMethod | undefined;
      if (methodPath === undefined || requestMethod === undefined) continue;
      const access = (Reflect.getMetadata(ACCESS_METADATA, handler) ?? Reflect.getMetadata(ACCESS_METADATA, controller)) as AccessRule | undefined;
      for (const base of controllerPaths) {
        for (const sub of asArray(methodPath)) {
          // The SCIM service provider is served outside the API prefix (app.factory.ts, SCIM_ROUTES).
          const prefix = base.replace(/^\/+/, '').startsWith('scim/') ? '' : API_PREFIX;
          const path = `/${[prefix, base, sub].map((part) => part.replace(/^\/+|\/+$/g, '')).filter(Boolean).join('/')}`;
          routes.push({ method: RequestMethod[requestMethod], path, access, handler: `${controller.name}.${name}` });
        }
      }
    }
  }
  return routes;
}

/** The paths Express really routes (method + path), to check the metadata walk misses nothing. */
export function expressRoutes(app: INestApplication): string[] {
  const instance = app.getHttpAdapter().getInstance() as { router: { stack: { route?: { path: string; methods: Record<string, boolean> } }[] } };
  return instance.router.stack.flatMap((layer) =>
    layer.route ? Object.keys(layer.route.methods).filter((m) => m !== '_all').map((method) => `${method.toUpperCase()} ${layer.route?.path}`) : [],
  );
}

function asArray(value: string | string[] | undefined): string[] {
  return value === undefined ? [''] : Array.isArray(value) ? value : [value];
}
