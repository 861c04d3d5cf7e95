/** Text and attribute values written into the SVG documents this library draws (render-svg, sequence-svg). */
export const escapeXml = (text: string): string => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
