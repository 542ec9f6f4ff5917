// Signature recovery ahead of block application (issue 20): while block i is applied on the main
// thread, the signatures of blocks i+1 … i+AHEAD are recovered in worker threads (RecoverPool) and
// handed to the verification path (consensus/signature.ts rememberRecovered) with the parsed entry
// and the digest's inputs; it takes digest and key when the entry is applied with the same inputs,
// else hashes and recovers as before. Only a hint: a block that does not parse, an entry whose
// digest cannot be formed yet (an asset created by a block not yet applied; accounts such blocks
// create are named by guessing their ids) or a failed pool leaves the verification to recover on
// its own, with the same verdicts. Blocks with few signed entries are left alone (a worker round
// trip costs more).
import type { NetworkParams } from '../consensus/params.js';
import { parseBlockBody } from '../consensus/block_check.js';
import { knownSignerKey, rememberRecovered, seenSignatureKey, type Recovered } from '../consensus/signature.js';
import { equalBytes } from '../core/hex.js';
import { blockHash, parseHeader } from '../core/header.js';
import { signedEntries, type Body } from '../core/body.js';
import { entryPinHeight, entryTxHash, type EntryContext, type SignedEntry } from '../core/entry.js';
import { HINTED_ITEM, RECOVERED_ITEM, recoverPool, type RecoverPool } from '../kernel/recover_pool.js';
import { SIGNER_TAG } from '../kernel/secp256k1.js';
import { addressOf, dbReader, nextStateId } from '../state/ledger.js';
import { assetById } from '../state/assets.js';
import type { KeySource } from '../store/database.js';

/** Blocks recovered ahead of the one being applied. */
const AHEAD = 4;
/** Fewer signed entries than this in a block: recovered in place. */
export const MIN_PRERECOVER = 48;
/** Fewer bytes than any signed entry takes (account id, pin and nonce, fee, signature: > 80). */
const MIN_ENTRY_BYTES = 80;

let hintsGiven = 0;

/** How many signatures went to recovery with their signer's key as a hint so far (tests, diagnostics). */
export function prerecoveryHints(): number {
  return hintsGiven;
}

export interface BranchBlock {
  header: Uint8Array;
  body: Uint8Array;
  /** checkBlockBody(params, its height, its header, body), when the caller already ran it (sync does). */
  checked?: Body;
}

/** The state id block `block` of the branch starts from. */
interface IdBase {
  block: number;
  id: bigint;
}

export class Prerecovery {
  private submitted = 0;
  private readonly bodies: (Body | null)[] = [];
  /** Hashes of the pinned blocks, each computed once (a block's entries mostly share a few pins). */
  private readonly pins = new Map<number, Uint8Array>();
  private readonly done: Promise<void>[] = [];
  private readonly reader;

  /**
   * `branch[i]` is the block at height fork + 1 + i; `hashAt(h)` the hash of an applied block
   * (heights ≤ fork, or branch blocks already applied).
   */
  constructor(
    private readonly params: NetworkParams,
    db: KeySource,
    private readonly branch: BranchBlock[],
    private readonly fork: number,
    private readonly hashAt: (h: number) => Uint8Array,
    private readonly pool: () => RecoverPool = recoverPool,
  ) {
    this.reader = dbReader(db);
  }

  /** Before branch[i] is applied: starts recovery up to i + AHEAD, then waits for branch[i]'s keys. */
  async before(i: number): Promise<void> {
    if (this.submitted < this.branch.length && this.submitted <= i + AHEAD) {
      // Every block below i is applied and i is not yet: the state id block i starts from.
      const base: IdBase = { block: i, id: await nextStateId(this.reader) };
      while (this.submitted < this.branch.length && this.submitted <= i + AHEAD) {
        const j = this.submitted++;
        this.done[j] = this.submit(j, base).catch(() => undefined);
      }
    }
    await this.done[i];
  }

  /**
   * Block i's body as parsed here (not checked), if it was: recoveries are remembered for these very
   * entries, so block application should check and apply this object (checkParsedBody).
   */
  parsed(i: number): Body | undefined {
    return this.bodies[i] ?? undefined;
  }

  private body(j: number): Body | null {
    if (this.bodies[j] === undefined) {
      const { header, body, checked } = this.branch[j];
      try {
        this.bodies[j] = checked ?? parseBlockBody(this.params, this.fork + 1 + j, parseHeader(header).version, body);
      } catch {
        this.bodies[j] = null;
      }
    }
    return this.bodies[j];
  }

  /**
   * The address of account `id` if a block from `base.block` to `j`, not yet applied, creates it:
   * new accounts take the next state ids (§6.6), and a block's asset creations the ones after them.
   * A guess, exact unless one of those blocks also draws ids for new balance rows (exchange.md
   * §2.4); a wrong guess gives a digest that apply never asks for, so only a miss.
   */
  private newAccountAddress(base: IdBase, j: number, id: bigint): Uint8Array | undefined {
    let first = base.id;
    for (let k = base.block; k <= j; k++) {
      const b = this.body(k);
      if (!b) return undefined;
      const at = id - first;
      if (at >= 0n && at < BigInt(b.newAddresses.length)) return b.newAddresses[Number(at)];
      first += BigInt(b.newAddresses.length + b.assetCreations.length);
    }
    return undefined;
  }

  private pinHash(h: number): Uint8Array {
    let hash = this.pins.get(h);
    if (!hash) this.pins.set(h, (hash = h > this.fork ? blockHash(this.branch[h - this.fork - 1].header) : this.hashAt(h)));
    return hash;
  }

  private async submit(j: number, base: IdBase): Promise<void> {
    const height = this.fork + 1 + j;
    // A signed entry takes more than MIN_ENTRY_BYTES: a smaller body has too few to bother.
    if (this.branch[j].body.length < MIN_PRERECOVER * MIN_ENTRY_BYTES) return;
    const body = this.body(j);
    if (!body) return;
    const entries = signedEntries(body);
    if (entries.length < MIN_PRERECOVER) return;
    // Each item carries the key its signer was last seen with, else a tag naming the signer (the
    // kernel recovers the first of its signatures and takes that key for the others): the kernel
    // checks the signatures of one signer together, far cheaper than recovering each.
    const items = new Uint8Array(entries.length * HINTED_ITEM);
    const recovered: (Recovered & { entry: SignedEntry })[] = [];
    // Per block: one read per recipient, not per entry.
    const addresses = new Map<bigint, Uint8Array | undefined>();
    const assetHashes = new Map<bigint, Uint8Array | null>();
    for (const { entry, assetId } of entries) {
      const ctx: EntryContext = {};
      if ('toId' in entry) {
        if (!addresses.has(entry.toId)) addresses.set(entry.toId, (await addressOf(this.reader, entry.toId)) ?? this.newAccountAddress(base, j, entry.toId));
        const to = addresses.get(entry.toId);
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
      const pinHash = this.pinHash(pin);
      const digest = entryTxHash(entry, height, pinHash, ctx);
      const seen = seenSignatureKey(digest, entry.signature);
      if (seen) {
        rememberRecovered(entry, { height, pinHash, ctx, digest, pub: seen });
        continue;
      }
      const at = recovered.length * HINTED_ITEM;
      items.set(digest, at);
      items.set(entry.signature, at + 32);
      const key = knownSignerKey(entry.originId);
      if (key) {
        items.set(key, at + 97);
        hintsGiven++;
      } else {
        items[at + 97] = SIGNER_TAG;
        new DataView(items.buffer, at + 98, 8).setBigUint64(0, entry.originId);
      }
      recovered.push({ entry, height, pinHash, ctx, digest, pub: null });
    }
    if (recovered.length === 0) return;
    const out = await this.pool().recover(items.slice(0, recovered.length * HINTED_ITEM), true);
    // A block's signers are few: equal keys share one array (no copy per entry, and the address of
    // a key is then found by identity, verifyEntrySignature).
    let last: Uint8Array | null = null;
    recovered.forEach((r, k) => {
      const o = k * RECOVERED_ITEM;
      if (out[o] === 0) {
        const key = out.subarray(o + 1, o + RECOVERED_ITEM);
        if (!last || !equalBytes(last, key)) last = key.slice();
        r.pub = last;
      }
      rememberRecovered(r.entry, r);
    });
  }
}
