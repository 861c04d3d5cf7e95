import { AbstractControl, FormArray, FormControl, FormGroup, ValidationErrors, ValidatorFn, Validators } from '@angular/forms';
import {
  FIELD_LIMITS,
  SAML_METADATA_MAX_LENGTH,
  SSO_LIMITS,
  SSO_SLUG_PATTERN,
  type ClaimRuleOperator,
  type EntraCloud,
  type ErrorDetail,
  type SsoProviderType,
  type SsoRole,
} from '@sc/contracts';
import { suggestOrganizationId } from '../../shared/organization-id';
import type { ClaimRuleGroup } from './claim-rules-editor.component';
import {
  defaultClaimsFor,
  detailsByTarget,
  emptyProviderForm,
  moveItem,
  usesClient,
  usesField,
  type ClaimRuleFormValue,
  type ProviderFormValue,
  type TypeField,
} from './provider-form';

/** The reactive form behind the provider editor; the data rules live in provider-form.ts. */
export type ProviderFormGroup = FormGroup<{
  [K in Exclude<keyof ProviderFormValue, 'claimRules'>]: FormControl<ProviderFormValue[K]>;
} & { claimRules: FormArray<ClaimRuleGroup> }>;

/** Fields the chosen type needs; hidden fields of other types never block saving. */
const REQUIRED_BY_TYPE: readonly TypeField[] = ['authUrl', 'tokenUrl', 'userinfoUrl', 'tenantId', 'domain'];

function requiredForType(field: TypeField): ValidatorFn {
  return (control: AbstractControl<string>): ValidationErrors | null => {
    const type = control.parent?.get('type')?.value as SsoProviderType | undefined;
    if (!type || !usesField(type, field)) return null;
    return control.value.trim() === '' ? { required: true } : null;
  };
}

/** Client ID and secret: required for the OAuth types only (SAML has no client). */
function requiredForClient(control: AbstractControl<string>): ValidationErrors | null {
  const type = control.parent?.get('type')?.value as SsoProviderType | undefined;
  if (type && !usesClient(type)) return null;
  return control.value.trim() === '' ? { required: true } : null;
}

/** SAML needs its IdP's metadata: a URL, or the document pasted. */
const metadataRequired: ValidatorFn = (control: AbstractControl<string>) => {
  const type = control.parent?.get('type')?.value as SsoProviderType | undefined;
  if (type !== 'saml') return null;
  const pasted = (control.parent?.get('idpMetadataXml')?.value as string | undefined) ?? '';
  return control.value.trim() === '' && pasted.trim() === '' ? { metadataRequired: true } : null;
};

/** Okta asks for acme.okta.com; a pasted https://acme.okta.com/ is the common mistake. */
export const hostnameOnly: ValidatorFn = (control: AbstractControl<string>) => {
  const value = control.value.trim();
  return value !== '' && /[/:@?#\s]/.test(value) ? { hostnameOnly: true } : null;
};

const httpUrl: ValidatorFn = (control: AbstractControl<string>) => {
  const value = control.value.trim();
  if (value === '') return null;
  try {
    const url = new URL(value);
    return url.protocol === 'https:' || url.protocol === 'http:' ? null : { url: true };
  } catch {
    return { url: true };
  }
};

const valueUnlessExists: ValidatorFn = (control: AbstractControl<string>) => {
  const operator = control.parent?.get('operator')?.value as ClaimRuleOperator | undefined;
  return operator !== 'exists' && control.value === '' ? { required: true } : null;
};

export function claimRuleGroup(rule: ClaimRuleFormValue): ClaimRuleGroup {
  const group: ClaimRuleGroup = new FormGroup({
    claim: new FormControl(rule.claim, {
      nonNullable: true,
      validators: [Validators.required, Validators.maxLength(SSO_LIMITS.claimPathLength)],
    }),
    operator: new FormControl<ClaimRuleOperator>(rule.operator, { nonNullable: true }),
    value: new FormControl(rule.value, {
      nonNullable: true,
      validators: [valueUnlessExists, Validators.maxLength(SSO_LIMITS.ruleValueLength)],
    }),
    role: new FormControl<SsoRole>(rule.role, { nonNullable: true }),
  });
  // `exists` takes no value: the field is disabled rather than silently ignored.
  const syncValue = (operator: ClaimRuleOperator): void => {
    const value = group.controls.value;
    if (operator === 'exists') value.disable({ emitEvent: false });
    else value.enable({ emitEvent: false });
    value.updateValueAndValidity({ emitEvent: false });
  };
  syncValue(rule.operator);
  group.controls.operator.valueChanges.subscribe(syncValue);
  return group;
}

export function newClaimRule(): ClaimRuleFormValue {
  return { claim: 'groups', operator: 'contains', value: '', role: 'editor' };
}

export function createProviderForm(): ProviderFormGroup {
  const initial = emptyProviderForm();
  const text = (value: string, ...validators: ValidatorFn[]) => new FormControl(value, { nonNullable: true, validators });
  const form: ProviderFormGroup = new FormGroup({
    slug: text(initial.slug, Validators.required, Validators.pattern(SSO_SLUG_PATTERN)),
    displayName: text(initial.displayName, Validators.required, Validators.maxLength(FIELD_LIMITS.ssoDisplayName)),
    type: new FormControl<SsoProviderType>(initial.type, { nonNullable: true }),
    enabled: new FormControl(initial.enabled, { nonNullable: true }),
    tenantId: text(initial.tenantId, requiredForType('tenantId')),
    cloud: new FormControl<EntraCloud>(initial.cloud, { nonNullable: true }),
    domain: text(initial.domain, requiredForType('domain'), hostnameOnly),
    authUrl: text(initial.authUrl, requiredForType('authUrl'), httpUrl),
    tokenUrl: text(initial.tokenUrl, requiredForType('tokenUrl'), httpUrl),
    userinfoUrl: text(initial.userinfoUrl, requiredForType('userinfoUrl'), httpUrl),
    issuer: text(initial.issuer, httpUrl),
    jwksUri: text(initial.jwksUri, httpUrl),
    idpMetadataUrl: text(initial.idpMetadataUrl, metadataRequired, httpUrl),
    idpMetadataXml: text(initial.idpMetadataXml, Validators.maxLength(SAML_METADATA_MAX_LENGTH)),
    allowIdpInitiated: new FormControl(initial.allowIdpInitiated, { nonNullable: true }),
    clientId: text(initial.clientId, requiredForClient, Validators.maxLength(FIELD_LIMITS.ssoClientId)),
    // Required to create (OAuth types); see editProviderForm.
    clientSecret: text(initial.clientSecret, requiredForClient),
    scopes: text(initial.scopes),
    emailClaim: text(initial.emailClaim, Validators.required),
    nameClaim: text(initial.nameClaim, Validators.required),
    subjectClaim: text(initial.subjectClaim, Validators.required),
    allowedDomains: text(initial.allowedDomains),
    allowSignUp: new FormControl(initial.allowSignUp, { nonNullable: true }),
    defaultRole: new FormControl<SsoRole>(initial.defaultRole, { nonNullable: true }),
    claimRules: new FormArray<ClaimRuleGroup>([]),
  });
  // Until the admin edits the slug, it follows the display name ("Acme Keycloak" → "acme-keycloak"); the
  // same lowercase-token rules as organization IDs apply. A disabled (saved) slug never changes.
  form.controls.displayName.valueChanges.subscribe((name) => {
    const slug = form.controls.slug;
    if (slug.enabled && slug.pristine) slug.setValue(suggestOrganizationId(name));
  });
  let previousType = form.controls.type.value;
  form.controls.type.valueChanges.subscribe((type) => {
    for (const field of REQUIRED_BY_TYPE) form.controls[field].updateValueAndValidity({ emitEvent: false });
    for (const field of ['idpMetadataUrl', 'clientId', 'clientSecret'] as const) form.controls[field].updateValueAndValidity({ emitEvent: false });
    // Claim names the admin left at the previous type's defaults follow the new type (nameID ↔ sub).
    const before = defaultClaimsFor(previousType);
    const after = defaultClaimsFor(type);
    for (const field of ['emailClaim', 'nameClaim', 'subjectClaim'] as const) {
      if (form.controls[field].value === before[field]) form.controls[field].setValue(after[field], { emitEvent: false });
    }
    previousType = type;
  });
  form.controls.idpMetadataXml.valueChanges.subscribe(() => form.controls.idpMetadataUrl.updateValueAndValidity({ emitEvent: false }));
  return form;
}

/**
 * Turns the create form into the edit form: the slug is part of the callback URL registered at the provider,
 * so it is permanent; an empty secret field keeps the stored secret.
 */
export function editProviderForm(form: ProviderFormGroup): void {
  form.controls.slug.disable({ emitEvent: false });
  form.controls.clientSecret.clearValidators();
  form.controls.clientSecret.updateValueAndValidity({ emitEvent: false });
}

/** Replaces the whole form, claim rules included (after loading or saving a provider). */
export function setProviderForm(form: ProviderFormGroup, value: ProviderFormValue): void {
  const { claimRules, ...fields } = value;
  form.controls.claimRules.clear({ emitEvent: false });
  for (const rule of claimRules) form.controls.claimRules.push(claimRuleGroup(rule), { emitEvent: false });
  form.patchValue(fields);
  form.markAsPristine();
  form.markAsUntouched();
}

export function moveClaimRule(rules: FormArray<ClaimRuleGroup>, from: number, to: number): void {
  const reordered = moveItem(rules.controls, from, to);
  rules.clear({ emitEvent: false });
  for (const control of reordered) rules.push(control, { emitEvent: false });
  rules.updateValueAndValidity();
  rules.markAsDirty();
}

/**
 * Puts each server validation detail on its control as a `server` error, shown by the field's mat-error.
 * Answers the details that have no field on the form (the error banner lists everything anyway).
 */
export function applyServerErrors(form: ProviderFormGroup, details: readonly ErrorDetail[]): string[] {
  const unplaced: string[] = [];
  for (const [key, messages] of detailsByTarget(details)) {
    const control = form.get(key);
    if (!control) {
      unplaced.push(...messages);
      continue;
    }
    control.setErrors({ ...(control.errors ?? {}), server: messages.join(' ') });
    control.markAsTouched();
  }
  return unplaced;
}
