// Tests read responses with the node's own exact JSON reader (uint64 values stay exact).
export { readJson as parseJsonExact } from '../../ts/api/json.js';
