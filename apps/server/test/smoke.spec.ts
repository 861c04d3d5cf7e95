import { call, createTestApp, sessionHeaders, setupOrganization, type TestApp } from './support';

describe('smoke', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t?.close());

  it('answers health and completes setup', async () => {
    expect((await call(t.baseUrl, 'GET', '/api/v1/health')).body).toEqual({ status: 'ok', database: 'ok' });
    const org = await setupOrganization(t, { orgId: 'acme' });
    const me = await call<{ organization: { id: string }; role: string }>(t.baseUrl, 'GET', '/api/v1/me', { headers: sessionHeaders(org.owner) });
    expect(me.status).toBe(200);
    expect(me.body.organization.id).toBe('acme');
    expect(me.body.role).toBe('owner');
  });
});
