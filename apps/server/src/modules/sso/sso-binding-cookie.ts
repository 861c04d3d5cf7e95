import { Injectable } from '@nestjs/common';
import type { Request, Response } from 'express';
import { ssoCallbackPath } from '@sc/contracts';
import { AppConfig } from '../../config/app-config';

/** The cookie that binds a state to the browser that started the sign-in. */
export const SSO_BINDING_COOKIE = 'sc_sso_binding';

/** The binding a started sign-in asks the controller to set (plain values; SsoBindingCookie writes it). */
export interface SsoBinding {
  organizationId: string;
  slug: string;
  value: string;
  maxAgeMs: number;
}

/** The HTTP side of the binding cookie, for the SSO controllers only. */
@Injectable()
export class SsoBindingCookie {
  constructor(private readonly config: AppConfig) {}

  set(res: Response, binding: SsoBinding): void {
    // Lax: the provider's redirect back is a top-level GET navigation, which carries Lax cookies.
    res.cookie(SSO_BINDING_COOKIE, binding.value, { httpOnly: true, sameSite: 'lax', secure: this.config.secureCookies, path: ssoCallbackPath(binding.organizationId, binding.slug), maxAge: binding.maxAgeMs });
  }

  /** The callback uses the binding once: cleared before anything else, so even an error page drops it. */
  clear(res: Response, organizationId: string, slug: string): void {
    res.clearCookie(SSO_BINDING_COOKIE, { path: ssoCallbackPath(organizationId, slug) });
  }

  valueOf(req: Request): string | undefined {
    const value = (req.cookies as Record<string, string> | undefined)?.[SSO_BINDING_COOKIE];
    return typeof value === 'string' && value !== '' ? value : undefined;
  }
}
