// Moved to libs/diagram (src/testing/diagram-fixture.ts): its renderer spec draws the same fixture.
export { FIXTURE_DATABASES, fixtureModelInput, fixtureTopology } from '../../../../libs/diagram/src/testing/diagram-fixture';
