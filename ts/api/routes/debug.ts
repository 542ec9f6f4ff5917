// /debug/json_schemas (http-api-details.md §9.12): the JSON Schemas of every declared response
// type, by name, sent without the envelope.
import { route } from '../route.js';
import { schemaDocument } from '../schema.js';

export const debugRoutes = [
  route({ method: 'GET', path: '/debug/json_schemas', response: null, raw: true, handler: () => schemaDocument() }),
];
