// Answers to a peer's header and block requests (p2p.md §2.4 codes 6–11) from the chain it names
// by descriptor: the current one or a retained replaced one (chain_description.ts). Call inside
// `chain.locked`, after flushing announcements (§2.3 "Ordering").
import type { ChainDescription } from './chain_description.js';
import type { BatchrepMsg, BatchreqMsg, BlockrepMsg, ProberepMsg, ProbereqMsg, Request } from './messages.js';
import { MAX_PAYLOAD, MSG } from './protocol.js';

const MAX_BLOCKREP = MAX_PAYLOAD.get(MSG.Blockrep)!;

/** The reply type of a request type. */
export type ReplyTo<R extends Request> = R extends BatchreqMsg ? BatchrepMsg : R extends ProbereqMsg ? ProberepMsg : BlockrepMsg;

export function serveRequest<R extends Request>(desc: ChainDescription, req: R): Promise<ReplyTo<R>> {
  return answer(desc, req) as Promise<ReplyTo<R>>;
}

async function answer(desc: ChainDescription, req: Request): Promise<BatchrepMsg | ProberepMsg | BlockrepMsg> {
  switch (req.kind) {
    case 'Batchreq': {
      // Headers start … start+count−1, cut off at the chain's end; empty for an unknown descriptor.
      const c = desc.described(req.descriptor);
      const headers: Uint8Array[] = [];
      if (c) for (let h = req.start; h < req.start + req.count && h <= c.length; h++) headers.push(c.header(h)!);
      return { kind: 'Batchrep', nonce: req.nonce, headers };
    }
    case 'Probereq': {
      const requested = desc.described(req.descriptor)?.header(req.height) ?? null;
      const current = desc.described(desc.descriptor)?.header(req.height) ?? null;
      return { kind: 'Proberep', nonce: req.nonce, descriptor: desc.descriptor, requested, current };
    }
    case 'Blockreq': {
      // All bodies first … last, or none (range not fully available, or too large for one reply).
      const c = desc.described(req.descriptor);
      const bodies: Uint8Array[] = [];
      if (!c || req.last > c.length) return { kind: 'Blockrep', nonce: req.nonce, bodies };
      let size = 4;
      for (let h = req.first; h <= req.last; h++) {
        const b = await c.body(h);
        size += 4 + (b?.length ?? 0);
        if (!b || size > MAX_BLOCKREP) return { kind: 'Blockrep', nonce: req.nonce, bodies: [] };
        bodies.push(b);
      }
      return { kind: 'Blockrep', nonce: req.nonce, bodies };
    }
  }
}
