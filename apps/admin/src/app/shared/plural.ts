// The rule lives in @sc/contracts (the server and service-cli word counts the same way); re-exported for the
// dashboard's existing imports.
export { plural } from '@sc/contracts';
