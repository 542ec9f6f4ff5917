// Transaction propagation (p2p.md §5): pongs carry a random sample of our best-paying txids; a
// peer's offered txids (Pong or Txnotify) are requested with Txreq when new and paying at least our
// minimum fee, or when they replace one of ours with a higher fee; Txrep entries go through normal
// mempool admission and failures are dropped silently. Beyond the reference (which never pushes),
// new mempool transactions are pushed to peers with Txnotify.
import { randomInt } from 'node:crypto';
import { transactionIdKey, assetNameOf, type TransactionId } from '../core/transaction.js';
import { fee16Decode } from '../kernel/fee16.js';
import { priceFromBytes } from '../kernel/price.js';
import type { SignedRequest } from '../mempool/admission.js';
import type { PendingTx } from '../mempool/pending.js';
import type { MempoolService } from '../mempool/service.js';
import { knowsTokens } from './dialect.js';
import type { TxidWithFee } from './elements.js';
import type { TxrepMsg, TxreqMsg } from './messages.js';
import type { Peer } from './peer.js';
import { LIMIT } from './protocol.js';
import type { WireTransaction } from './tx_message.js';

const REJECTED_MS = 60_000;  // a refused (txid, fee) is not requested again for this long, or until the chain changes
const INFLIGHT_MS = 10_000;  // nor one already requested from another peer
const KNOWN_LIMIT = 50_000;
const DEFERRED_LIMIT = 1_000; // offers kept while behind
const MAX_PRECISION = 18;

const keyOf = (id: TransactionId, feeCode: number) => `${transactionIdKey(id)}/${feeCode}`;
const txIdOf = (tx: PendingTx): TransactionId => ({ accountId: tx.originId, pinHeight: tx.pinHeight, nonceId: tx.nonceId });

export function toWire(tx: PendingTx): WireTransaction {
  return { id: txIdOf(tx), reserved: new Uint8Array(3), feeCode: tx.feeCode, payload: tx.payload, signature: tx.signature };
}

/** The admission request of a received transaction, or null when its fields are invalid. */
export function fromWire(t: WireTransaction): SignedRequest | null {
  const p = t.payload;
  if (p.type === 'assetCreation' && (p.precision > MAX_PRECISION || assetNameOf(p.name) === null)) return null;
  if (p.type === 'limitSwap' && !priceFromBytes(p.limit)) return null;
  return { payload: p, pinHeight: t.id.pinHeight, nonceId: t.id.nonceId, feeCode: t.feeCode, feeE8: fee16Decode(t.feeCode), signature: t.signature };
}

export class TxRelay {
  private readonly rejected = new Map<string, number>();
  private readonly inflight = new Map<string, number>();
  private readonly known = new WeakMap<Peer, Set<string>>();
  private announced = new Set<string>();
  private admitting: Promise<void> = Promise.resolve();
  private deferred: { peer: Peer; txids: TxidWithFee[] }[] = [];

  constructor(private readonly mempool: MempoolService, private readonly log: (line: string) => void = () => {}) {}

  /** Pong sample: up to `max` txids drawn at random from the 800 highest-fee entries (§2.4 Pong). */
  sample(peer: Peer, max: number): TxidWithFee[] {
    let top = this.mempool.pool.all().slice(0, LIMIT.pongSampleFrom);
    if (peer.conn.peerVersion && !knowsTokens(peer.conn.peerVersion)) top = top.filter((t) => t.payload.type === 'coinTransfer');
    for (let i = 0; i < Math.min(max, top.length); i++) {
      const j = i + randomInt(top.length - i);
      [top[i], top[j]] = [top[j], top[i]];
    }
    const out = top.slice(0, max).map((t) => ({ id: txIdOf(t), feeCode: t.feeCode }));
    for (const t of out) this.markKnown(peer, keyOf(t.id, t.feeCode));
    return out;
  }

  /**
   * Requests the offered txids we want (§5 "Filtering"). While the node is behind its peers the
   * offers wait (their pins and senders may be in blocks still to come) until `caughtUp()`.
   */
  offered(peer: Peer, txids: TxidWithFee[], behind = false): void {
    if (behind) {
      if (this.deferred.length < DEFERRED_LIMIT) this.deferred.push({ peer, txids });
      return;
    }
    const now = Date.now();
    const have = new Map(this.mempool.pool.all().map((t) => [transactionIdKey(txIdOf(t)), t.feeCode]));
    const min = this.mempool.minFeeCode;
    const want: TransactionId[] = [];
    for (const t of txids) {
      const k = keyOf(t.id, t.feeCode);
      this.markKnown(peer, k);
      if ((this.rejected.get(k) ?? 0) > now || (this.inflight.get(k) ?? 0) > now) continue;
      const fee = have.get(transactionIdKey(t.id));
      if (fee === undefined ? t.feeCode >= min : t.feeCode > fee) {
        want.push(t.id);
        this.inflight.set(k, now + INFLIGHT_MS);
      }
      if (want.length === LIMIT.maxTxIds) break;
    }
    if (want.length) peer.send({ kind: 'Txreq', nonce: randomInt(0, 0x1_0000_0000), ids: want });
    this.prune(now);
  }

  /** Answers a Txreq with one optional entry per id, in request order (§2.4 code 14). */
  answer(peer: Peer, m: TxreqMsg): void {
    const byId = new Map(this.mempool.pool.all().map((t) => [transactionIdKey(txIdOf(t)), t]));
    const txs = m.ids.map((id) => {
      const t = byId.get(transactionIdKey(id));
      if (t) this.markKnown(peer, keyOf(id, t.feeCode));
      return t ? toWire(t) : null;
    });
    peer.send({ kind: 'Txrep', legacy: false, nonce: m.nonce, txs });
  }

  /** Admits the transactions of a Txrep one by one; refusals are silent (§5). */
  receive(peer: Peer, m: TxrepMsg): void {
    const txs = m.txs.filter((t): t is WireTransaction => t !== null);
    this.admitting = this.admitting.then(async () => {
      let added = 0;
      for (const t of txs) {
        const k = keyOf(t.id, t.feeCode);
        this.inflight.delete(k);
        this.markKnown(peer, k);
        const req = fromWire(t);
        try {
          if (!req) throw new Error('invalid fields');
          const tx = await this.mempool.add(req);
          // The sender is recovered from the signature; the id's account must be it (EFAKEACCID).
          if (tx.originId !== t.id.accountId) { this.mempool.pool.remove(tx); throw new Error('fake account id'); }
          added++;
        } catch {
          this.rejected.set(k, Date.now() + REJECTED_MS);
        }
      }
      if (added) this.log(`Added ${added} transaction(s) from peer ${peer.address}`);
    });
  }

  /** The node has caught up with its peers: the offers made meanwhile are considered now. */
  caughtUp(): void {
    const offers = this.deferred;
    this.deferred = [];
    for (const o of offers) if (!o.peer.conn.closed) this.offered(o.peer, o.txids);
  }

  /** After a chain change, refused transactions may have become valid (pin, sender, balance). */
  chainChanged(): void {
    this.rejected.clear();
  }

  /** Pushes mempool transactions not announced yet to the peers that do not know them (Txnotify). */
  push(peers: Peer[]): void {
    const pool = this.mempool.pool.all();
    const fresh = pool.filter((t) => !this.announced.has(keyOf(txIdOf(t), t.feeCode)));
    this.announced = new Set(pool.map((t) => keyOf(txIdOf(t), t.feeCode)));
    if (!fresh.length) return;
    for (const peer of peers) {
      const ids = fresh
        .filter((t) => !this.knownTo(peer).has(keyOf(txIdOf(t), t.feeCode)))
        .filter((t) => !peer.conn.peerVersion || knowsTokens(peer.conn.peerVersion) || t.payload.type === 'coinTransfer')
        .map((t) => ({ id: txIdOf(t), feeCode: t.feeCode }));
      for (let i = 0; i < ids.length; i += LIMIT.maxTxnotify) {
        const part = ids.slice(i, i + LIMIT.maxTxnotify);
        for (const t of part) this.markKnown(peer, keyOf(t.id, t.feeCode));
        peer.send({ kind: 'Txnotify', nonce: randomInt(0, 0x1_0000_0000), txids: part });
      }
    }
  }

  private knownTo(peer: Peer): Set<string> {
    let s = this.known.get(peer);
    if (!s) this.known.set(peer, (s = new Set()));
    return s;
  }

  private markKnown(peer: Peer, key: string): void {
    const s = this.knownTo(peer);
    if (s.size >= KNOWN_LIMIT) s.clear();
    s.add(key);
  }

  private prune(now: number): void {
    for (const m of [this.rejected, this.inflight]) for (const [k, until] of m) if (until <= now) m.delete(k);
  }
}
