import {
  applyServerErrors,
  claimRuleGroup,
  createProviderForm,
  editProviderForm,
  moveClaimRule,
} from './provider-form-group';

function filledGenericForm() {
  const form = createProviderForm();
  form.patchValue({
    // The display name first: until the slug is set, it follows the name.
    displayName: 'Keycloak',
    slug: 'kc',
    clientId: 'client',
    clientSecret: 'secret',
    authUrl: 'https://kc.test/auth',
    tokenUrl: 'https://kc.test/token',
    userinfoUrl: 'https://kc.test/userinfo',
  });
  return form;
}

describe('provider form group', () => {
  it('requires only the chosen type’s endpoint fields', () => {
    const form = filledGenericForm();
    expect(form.valid).toBe(true);

    form.controls.type.setValue('okta');
    expect(form.controls.domain.hasError('required')).toBe(true);
    // The generic URLs no longer count, even when emptied.
    form.controls.authUrl.setValue('');
    expect(form.controls.authUrl.valid).toBe(true);
    form.controls.domain.setValue('acme.okta.com');
    expect(form.valid).toBe(true);

    form.controls.type.setValue('generic');
    expect(form.controls.authUrl.hasError('required')).toBe(true);

    form.controls.type.setValue('entra');
    expect(form.controls.tenantId.hasError('required')).toBe(true);
  });

  it('SAML: needs the metadata (URL or XML) instead of a client, and swaps untouched claim defaults', () => {
    const form = createProviderForm();
    form.patchValue({ displayName: 'Corp SAML', slug: 'corp' });
    form.controls.type.setValue('saml');
    expect([form.controls.clientId.valid, form.controls.clientSecret.valid]).toEqual([true, true]);
    expect(form.controls.idpMetadataUrl.hasError('metadataRequired')).toBe(true);
    expect(form.controls.subjectClaim.value).toBe('nameID');
    form.controls.idpMetadataXml.setValue('<md:EntityDescriptor/>');
    expect(form.valid).toBe(true);
    form.controls.type.setValue('generic');
    expect(form.controls.subjectClaim.value).toBe('sub');
    expect(form.controls.clientId.hasError('required')).toBe(true);
  });

  it('refuses a scheme, path or port in the Okta domain', () => {
    const form = filledGenericForm();
    form.controls.type.setValue('okta');
    for (const bad of ['https://acme.okta.com', 'acme.okta.com/oauth2', 'acme.okta.com:443']) {
      form.controls.domain.setValue(bad);
      expect(form.controls.domain.hasError('hostnameOnly')).toBe(true);
    }
    form.controls.domain.setValue('acme.okta.com');
    expect(form.controls.domain.errors).toBeNull();
  });

  it('checks URLs and requires the secret only when creating', () => {
    const form = filledGenericForm();
    form.controls.tokenUrl.setValue('kc.test/token');
    expect(form.controls.tokenUrl.hasError('url')).toBe(true);

    form.controls.clientSecret.setValue('');
    expect(form.controls.clientSecret.hasError('required')).toBe(true);
    editProviderForm(form);
    expect(form.controls.clientSecret.valid).toBe(true);
    expect(form.controls.slug.disabled).toBe(true);
    // The disabled slug still reaches the raw value (shown, never sent on update).
    expect(form.getRawValue().slug).toBe('kc');
  });

  it('suggests the slug from the display name until the slug is edited, and never on a saved provider', () => {
    const form = createProviderForm();
    form.controls.displayName.setValue('Acme Keycloak (EU)');
    expect(form.controls.slug.value).toBe('acme-keycloak-eu');
    form.controls.slug.setValue('kc');
    form.controls.slug.markAsDirty();
    form.controls.displayName.setValue('Something else');
    expect(form.controls.slug.value).toBe('kc');

    const saved = createProviderForm();
    editProviderForm(saved);
    saved.patchValue({ slug: 'kc', displayName: 'Renamed' });
    expect(saved.getRawValue().slug).toBe('kc');
  });

  it('disables the value of an exists rule and requires it otherwise', () => {
    const rule = claimRuleGroup({ claim: 'groups', operator: 'contains', value: '', role: 'admin' });
    expect(rule.controls.value.hasError('required')).toBe(true);
    rule.controls.operator.setValue('exists');
    expect(rule.controls.value.disabled).toBe(true);
    expect(rule.valid).toBe(true);
    rule.controls.operator.setValue('equals');
    expect(rule.controls.value.enabled).toBe(true);
    expect(rule.controls.value.hasError('required')).toBe(true);
  });

  it('reorders claim rules as controls, keeping what was typed in each', () => {
    const form = createProviderForm();
    const rules = form.controls.claimRules;
    for (const value of ['first', 'second', 'third']) {
      rules.push(claimRuleGroup({ claim: 'groups', operator: 'equals', value, role: 'viewer' }));
    }
    const third = rules.at(2);
    moveClaimRule(rules, 2, 0);
    expect(rules.at(0)).toBe(third);
    expect(rules.getRawValue().map((rule) => rule.value)).toEqual(['third', 'first', 'second']);
    expect(form.getRawValue().claimRules.map((rule) => rule.value)).toEqual(['third', 'first', 'second']);
    expect(rules.dirty).toBe(true);
  });

  it('puts server details on the matching controls and answers the ones it cannot place', () => {
    const form = filledGenericForm();
    form.controls.claimRules.push(claimRuleGroup({ claim: 'groups', operator: 'regex', value: '(', role: 'admin' }));
    const unplaced = applyServerErrors(form, [
      { path: 'userinfoUrl', message: 'userinfoUrl: plain http is not allowed' },
      { path: 'claimRules[0].value', message: 'invalid regular expression' },
      { path: 'claimRules[4].value', message: 'rule that is not on the form' },
      { message: 'no path at all' },
    ]);
    expect(form.controls.userinfoUrl.getError('server')).toBe('userinfoUrl: plain http is not allowed');
    expect(form.controls.userinfoUrl.touched).toBe(true);
    expect(form.controls.claimRules.at(0).controls.value.getError('server')).toBe('invalid regular expression');
    expect(unplaced).toEqual(['rule that is not on the form']);

    // Editing the field clears the server's message: it described the old value.
    form.controls.userinfoUrl.setValue('https://kc.test/userinfo');
    expect(form.controls.userinfoUrl.getError('server')).toBeNull();
  });
});
