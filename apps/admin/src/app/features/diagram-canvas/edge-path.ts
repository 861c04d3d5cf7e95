// Moved to libs/diagram (canvas/edge-path.ts): the server's image rendering draws edges with it too.
export { MARKER_PATHS, markerId, markerUrl, roundedPath, usedMarkers, type MarkerDef } from '@sc/diagram';
