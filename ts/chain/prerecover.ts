// Signature recovery ahead of block application (issue 20): while block i is applied on the main
// thread, the signatures of blocks i+1 … i+AHEAD are recovered in worker threads (RecoverPool) and
// handed to the verification path (consensus/signature.ts rememberRecovered), which takes a key from
// there when digest and signature match exactly, else recovers as before. Only a hint: a block that
// does not parse, an entry whose digest cannot be formed yet (an account or asset created by a block
// not yet applied) or a failed pool leaves the verification to recover on its own, with the same
// verdicts. Blocks with few signed entries are left alone (a worker round trip costs more).
import type { NetworkParams } from '../consensus/params.js';
import { parseBlockBody } from '../consensus/block_check.js';
import { rememberRecovered } from '../consensus/signature.js';
import { blockHash, parseHeader } from '../core/header.js';
import { signedEntries, type Body } from '../core/body.js';
import { entryPinHeight, entryTxHash, type EntryContext } from '../core/entry.js';
import { RECOVERED_ITEM, RECOVER_ITEM, recoverPool, type RecoverPool } from '../kernel/recover_pool.js';
import { addressOf, dbReader } from '../state/ledger.js';
import { assetById } from '../state/assets.js';
import type { Db } from '../store/database.js';

/** Blocks recovered ahead of the one being applied. */
const AHEAD = 4;
/** Fewer signed entries than this in a block: recovered in place. */
export const MIN_PRERECOVER = 48;
/** Fewer bytes than any signed entry takes (account id, pin and nonce, fee, signature: > 80). */
const MIN_ENTRY_BYTES = 80;

export interface BranchBlock {
  header: Uint8Array;
  body: Uint8Array;
  /** checkBlockBody(params, its height, its header, body), when the caller already ran it (sync does). */
  checked?: Body;
}

export class Prerecovery {
  private submitted = 0;
  private readonly done: Promise<void>[] = [];
  private readonly reader;

  /**
   * `branch[i]` is the block at height fork + 1 + i; `hashAt(h)` the hash of an applied block
   * (heights ≤ fork, or branch blocks already applied).
   */
  constructor(
    private readonly params: NetworkParams,
    db: Db,
    private readonly branch: BranchBlock[],
    private readonly fork: number,
    private readonly hashAt: (h: number) => Uint8Array,
    private readonly pool: () => RecoverPool = recoverPool,
  ) {
    this.reader = dbReader(db);
  }

  /** Before branch[i] is applied: starts recovery up to i + AHEAD, then waits for branch[i]'s keys. */
  async before(i: number): Promise<void> {
    while (this.submitted < this.branch.length && this.submitted <= i + AHEAD) {
      const j = this.submitted++;
      this.done[j] = this.submit(j).catch(() => undefined);
    }
    await this.done[i];
  }

  private pinHash(h: number): Uint8Array {
    return h > this.fork ? blockHash(this.branch[h - this.fork - 1].header) : this.hashAt(h);
  }

  private async submit(j: number): Promise<void> {
    const height = this.fork + 1 + j;
    const { header, body: bytes, checked } = this.branch[j];
    // A signed entry takes more than MIN_ENTRY_BYTES: a smaller body has too few to bother (no parse).
    if (bytes.length < MIN_PRERECOVER * MIN_ENTRY_BYTES) return;
    const body = checked ?? parseBlockBody(this.params, height, parseHeader(header).version, bytes);
    const entries = signedEntries(body);
    if (entries.length < MIN_PRERECOVER) return;
    const items = new Uint8Array(entries.length * RECOVER_ITEM);
    const sigs: Uint8Array[] = [];
    const digests: Uint8Array[] = [];
    const assetHashes = new Map<bigint, Uint8Array | null>();
    for (const { entry, assetId } of entries) {
      const ctx: EntryContext = {};
      if ('toId' in entry) {
        const to = await addressOf(this.reader, entry.toId);
        if (!to) continue;
        ctx.toAddress = to;
      }
      if (assetId !== null) {
        if (!assetHashes.has(assetId)) assetHashes.set(assetId, (await assetById(this.reader, assetId))?.hash ?? null);
        const a = assetHashes.get(assetId);
        if (!a) continue;
        ctx.assetHash = a;
      }
      const pin = entryPinHeight(entry, height);
      if (pin < 0 || pin >= height) continue;
      const digest = entryTxHash(entry, height, this.pinHash(pin), ctx);
      items.set(digest, digests.length * RECOVER_ITEM);
      items.set(entry.signature, digests.length * RECOVER_ITEM + 32);
      digests.push(digest);
      sigs.push(entry.signature);
    }
    if (digests.length === 0) return;
    const out = await this.pool().recover(items.slice(0, digests.length * RECOVER_ITEM));
    digests.forEach((d, k) => {
      const o = k * RECOVERED_ITEM;
      rememberRecovered(d, sigs[k], out[o] === 0 ? out.slice(o + 1, o + RECOVERED_ITEM) : null);
    });
  }
}
