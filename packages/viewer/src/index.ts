// @assay/viewer: `assay view`, a results browser (Hono JSON API + Preact/Vega-Lite front end).
export { startViewer } from './start-viewer.js';
export type { RunningViewer, ViewerOptions } from './start-viewer.js';
export { defaultResultsDirs, resolveSources } from './resolve-sources.js';
export { findAnchors } from './evidence-anchors.js';
export type { Anchor } from './evidence-anchors.js';
export { messages } from './messages.js';
export { viewerToken } from './require-token.js';
