// Moved to libs/diagram (src/testing/diagram-fixture.ts; specs only): its renderer spec draws the same fixture.
export { FIXTURE_DATABASES, fixtureModelInput, fixtureTopology } from '@sc/diagram/testing';
