import { Injectable } from '@nestjs/common';
import type { Request, Response } from 'express';
import { samlAcsPath, ssoCallbackPath } from '@sc/contracts';
import { AppConfig } from '../../config/app-config';

/** The cookie that binds a state to the browser that started the sign-in. */
export const SSO_BINDING_COOKIE = 'sc_sso_binding';

/** The binding a started sign-in asks the controller to set (plain values; SsoBindingCookie writes it). */
export interface SsoBinding {
  organizationId: string;
  slug: string;
  value: string;
  maxAgeMs: number;
  /** SAML: the cookie goes to the ACS path, and must survive the IdP's cross-site POST (see set()). */
  saml: boolean;
}

/** The HTTP side of the binding cookie, for the SSO controllers only. */
@Injectable()
export class SsoBindingCookie {
  constructor(private readonly config: AppConfig) {}

  set(res: Response, binding: SsoBinding): void {
    if (binding.saml) {
      // The IdP answers with a cross-site form POST, which carries no Lax cookie: SameSite=None, which browsers
      // accept only with Secure. Over plain http (development) no SameSite attribute is sent: browsers then use
      // their default (Chrome's Lax-by-default still lets a top-level POST carry it within two minutes).
      // Nothing else rides on this cookie: HttpOnly, only the ACS path, 10 minutes, a random value whose hash
      // binds one state, and that state is useless without the IdP's signed answer.
      const sameSite = this.config.secureCookies ? { sameSite: 'none' as const, secure: true } : { secure: false };
      res.cookie(SSO_BINDING_COOKIE, binding.value, { httpOnly: true, ...sameSite, path: samlAcsPath(binding.organizationId, binding.slug), maxAge: binding.maxAgeMs });
      return;
    }
    // Lax: the provider's redirect back is a top-level GET navigation, which carries Lax cookies.
    res.cookie(SSO_BINDING_COOKIE, binding.value, { httpOnly: true, sameSite: 'lax', secure: this.config.secureCookies, path: ssoCallbackPath(binding.organizationId, binding.slug), maxAge: binding.maxAgeMs });
  }

  /** The callback uses the binding once: cleared before anything else, so even an error page drops it. */
  clear(res: Response, organizationId: string, slug: string, saml = false): void {
    res.clearCookie(SSO_BINDING_COOKIE, { path: saml ? samlAcsPath(organizationId, slug) : ssoCallbackPath(organizationId, slug) });
  }

  valueOf(req: Request): string | undefined {
    const value = (req.cookies as Record<string, string> | undefined)?.[SSO_BINDING_COOKIE];
    return typeof value === 'string' && value !== '' ? value : undefined;
  }
}
