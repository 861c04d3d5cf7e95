// The generated topologies live in libs/diagram's testing entry, so the server's integration tests draw the same ones.
export { generatedTopology, type GeneratedDiagram } from '@sc/diagram/testing';
