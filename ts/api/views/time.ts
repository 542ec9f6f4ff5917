// The Timepoint value (http-api-details.md §1.4): Unix seconds with their UTC rendering.
import { int, named, obj, strMatching, type Infer } from '../schema.js';

export const Timepoint = named(
  'Timepoint',
  obj({
    UTC: strMatching('^\\d{4}-\\d{2}-\\d{2} \\d{2}:\\d{2}:\\d{2} UTC$'),
    timestamp: int,
  }),
);

/** `{UTC: "YYYY-MM-DD HH:MM:SS UTC", timestamp}` of a Unix time in seconds. */
export function timepoint(timestamp: number): Infer<typeof Timepoint> {
  const iso = new Date(timestamp * 1000).toISOString(); // YYYY-MM-DDTHH:MM:SS.sssZ
  return { UTC: `${iso.slice(0, 10)} ${iso.slice(11, 19)} UTC`, timestamp };
}
