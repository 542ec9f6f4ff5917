// The exact JSON codec lives in core (the wallet, an HTTP client, uses it too).
export { readJson, writeJson } from '../core/json.js';
