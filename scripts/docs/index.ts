// The document generators `make docs` runs (scripts/docs.mjs).
export { apiDoc } from './api_doc.js';
export { architectureDoc } from './architecture_doc.js';
