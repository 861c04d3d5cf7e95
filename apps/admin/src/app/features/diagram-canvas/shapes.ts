// Moved to libs/diagram (canvas/shapes.ts): the server sizes nodes with them too.
export { SYMBOL_SHAPES, SYMBOL_SIZE, mermaidShape, shapeDrawing, shapeSize, textOffset, type DrawnShape, type ShapeDrawing } from '@sc/diagram';
