import { codeOf, serviceSpec } from '../../testing/service-spec';
import { OrganizationsService } from '../organizations/organizations.service';
import { SetupErrorCode } from './setup.errors';
import { SetupModule } from './setup.module';
import { SetupService } from './setup.service';

const SETUP_TOKEN = 'spec-setup-token-0123456789abcdef';
const spec = serviceSpec([SetupModule], { SERVICE_SETUP_TOKEN: SETUP_TOKEN });

function request(id: string, token = SETUP_TOKEN) {
  return { token, organization: { id, name: `Org ${id}` }, owner: { email: `owner@${id}.example`, name: `Owner ${id}` } };
}

/** SetupService on an empty database, its setup token (SERVICE_SETUP_TOKEN) armed as at boot. */
async function sut() {
  const setup = spec.app.get(SetupService);
  await setup.onApplicationBootstrap();
  return { setup, organizations: spec.app.get(OrganizationsService) };
}

describe('SetupService', () => {
  it('creates the first organization with its owner, then answers setup_already_done', async () => {
    const { setup } = await sut();
    const { response } = await setup.run(request('first'), null);
    expect(response.organization.id).toBe('first');
    expect(await setup.isRequired()).toBe(false);
    expect(await codeOf(setup.run(request('second'), null))).toBe(SetupErrorCode.AlreadyDone);
  });

  it('refuses a wrong token while setup is still required', async () => {
    const { setup } = await sut();
    expect(await codeOf(setup.run(request('first', 'wrong-token'), null))).toBe(SetupErrorCode.TokenInvalid);
    expect(await setup.isRequired()).toBe(true);
  });

  it('tells a setup that lost the race that setup is done, not that its token is wrong', async () => {
    const { setup, organizations } = await sut();
    // The loser reads "no organization yet" first, and sees that answer only once the winner has finished (and forgotten the token).
    const realAnyExists = organizations.anyExists.bind(organizations);
    let winnerDone!: () => void;
    const winnerFinished = new Promise<void>((resolve) => (winnerDone = resolve));
    const spy = jest.spyOn(organizations, 'anyExists').mockImplementationOnce(async () => {
      const answer = await realAnyExists();
      await winnerFinished;
      return answer;
    });
    try {
      const loser = codeOf(setup.run(request('loser'), null));
      await setup.run(request('winner'), null);
      winnerDone();
      expect(await loser).toBe(SetupErrorCode.AlreadyDone);
    } finally {
      spy.mockRestore();
    }
  });
});
