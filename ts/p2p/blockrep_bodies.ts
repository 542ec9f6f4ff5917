// The bodies of a Blockrep for the heights first…last (p2p.md §8 item 2): a 0.10.3 reference sends
// them concatenated without the u32 length prefixes of §2.4 that every reference parser expects.
// The prefixed form is taken when its count matches and every body passes its header's checks;
// otherwise the raw payload is split into consecutive bodies, each end chosen among the ends its
// structure allows (bodyEnds) by parsing it and matching its header's merkle root, backtracking
// where an omitted and an empty count field both fit. Neither form: the prefixed form's error.
import { bodyEnds, type Body } from '../core/body.js';
import { NodeError } from '../core/errors.js';
import type { Header } from '../core/header.js';
import { checkBlockBody } from '../consensus/block_check.js';
import { bodyLayoutAt, type NetworkParams } from '../consensus/params.js';
import type { BlockrepMsg } from './messages.js';

export interface CheckedBody {
  bytes: Uint8Array;
  body: Body;
}

/** `headers[i]` is the header of height `first + i`; one body per header, or a NodeError. */
export function blockrepBodies(params: NetworkParams, rep: BlockrepMsg, first: number, headers: Header[]): CheckedBody[] {
  let error: NodeError;
  if (rep.bodies) {
    try {
      if (rep.bodies.length !== headers.length)
        throw new NodeError('EINV_BLOCKREPSIZE', `${rep.bodies.length} bodies for ${first}..${first + headers.length - 1}`);
      return rep.bodies.map((bytes, i) => ({ bytes, body: checkBlockBody(params, first + i, headers[i], bytes) }));
    } catch (e) {
      if (!(e instanceof NodeError)) throw e;
      error = e;
    }
  } else {
    error = new NodeError('EMSGINTEGRITY0', 'Blockrep bodies are not length-prefixed');
  }
  const split = rep.raw ? splitRaw(params, rep.raw, first, headers) : null;
  if (!split) throw error;
  return split;
}

function splitRaw(params: NetworkParams, raw: Uint8Array, first: number, headers: Header[]): CheckedBody[] | null {
  const dead = new Set<string>(); // (index, offset) from which no split exists
  const out: CheckedBody[] = [];
  const from = (i: number, offset: number): boolean => {
    if (i === headers.length) return offset === raw.length;
    const key = `${i}/${offset}`;
    if (dead.has(key)) return false;
    const h = first + i;
    for (const end of bodyEnds(raw, offset, bodyLayoutAt(params, h, headers[i].version)).reverse()) {
      const bytes = raw.subarray(offset, end);
      let body: Body;
      try {
        body = checkBlockBody(params, h, headers[i], bytes);
      } catch (e) {
        if (e instanceof NodeError) continue;
        throw e;
      }
      out.push({ bytes, body });
      if (from(i + 1, end)) return true;
      out.pop();
    }
    dead.add(key);
    return false;
  };
  return headers.length > 0 && from(0, 0) ? out : null;
}
