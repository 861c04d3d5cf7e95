// Node text is sized from libs/diagram's width table (text-size.ts), not measured with the browser's fonts: the
// server lays out a diagram's default view with the same sizes (see @sc/diagram's default-layout.ts).
export { FONT_FAMILY, MONO_FAMILY, linesWidth, textWidth, wrapWords, type Font } from '@sc/diagram';
