// Moved to libs/diagram (canvas/layout.ts): the server lays out a diagram's default view with the same code.
export { GROUP_HEADER, LayoutCache, borderPoint, centre, layoutDiagram } from '@sc/diagram';
export type { Box, EdgeRoute, ElkEngine, LayoutDirection, LayoutInput, LayoutResult, Point } from '@sc/diagram';
