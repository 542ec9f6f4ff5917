// Signing bytes, txHash and signer recovery (consensus.md §7.2, §7.3, §7.7; http-api.md "Adding a
// transaction"), checked on the reference's accepted coin transfers (vectors/coin-transfers.json).
import { beforeAll, describe, expect, it } from 'vitest';
import { initKernel } from '../../ts/kernel/instance.js';
import { sha256 } from '../../ts/kernel/hash.js';
import { fee16Decode, fee16Encode } from '../../ts/kernel/fee16.js';
import { Reader } from '../../ts/core/bytes.js';
import { addressOfPrivateKey, signDigest } from '../../ts/core/keys.js';
import { formatAddress } from '../../ts/core/address.js';
import { fromHex, toHex } from '../../ts/core/hex.js';
import {
  assetNameBytes,
  assetNameOf,
  compareTransactionIds,
  rewardHash,
  serializeTransactionId,
  signingBytes,
  transactionIdKey,
  txHash,
  type SigningCommon,
  type TransactionPayload,
} from '../../ts/core/transaction.js';
import { recoverSignerAddress, verifySignature } from '../../ts/consensus/signature.js';
import { NodeError } from '../../ts/core/errors.js';
import { COIN_TRANSFERS, COIN_TRANSFER_KEYS, PIN_HASH_0, TESTNET_BLOCK_1 } from './vectors.js';

beforeAll(async () => {
  await initKernel();
});

/** Reads the fields of a recorded coin transfer back out of its signed bytes. */
function fieldsOf(hex: string): { common: SigningCommon; payload: TransactionPayload } {
  const r = new Reader(fromHex(hex)!);
  const common: SigningCommon = { pinHash: r.bytes(32), pinHeight: r.u32(), nonceId: r.u32(), reserved: r.bytes(3), feeE8: r.u64() };
  const payload: TransactionPayload = { type: 'coinTransfer', toAddress: r.bytes(20), amount: r.u64() };
  r.end();
  return { common, payload };
}

describe('coin transfers accepted by the reference (vectors/coin-transfers.json)', () => {
  let keys: { name: string; sk: Uint8Array; address: Uint8Array }[] = [];
  beforeAll(() => {
    keys = Object.entries(COIN_TRANSFER_KEYS).map(([name, sk]) => ({ name, sk: fromHex(sk)!, address: addressOfPrivateKey(fromHex(sk)!) }));
  });

  for (const v of COIN_TRANSFERS) {
    it(v.case, () => {
      const { common, payload } = fieldsOf(v.signedBytesHex);
      expect(toHex(common.reserved!)).toBe('000000');
      if (common.pinHeight === 0) expect(toHex(common.pinHash)).toBe(PIN_HASH_0);
      expect(common.pinHeight % 32).toBe(0);
      // the fee is on the 16-bit grid
      expect(fee16Decode(fee16Encode(common.feeE8, 'down'))).toBe(common.feeE8);
      // rebuilt from the fields, with and without the (zero) reserved bytes
      expect(toHex(signingBytes(common, payload))).toBe(v.signedBytesHex);
      expect(toHex(signingBytes({ ...common, reserved: undefined }, payload))).toBe(v.signedBytesHex);
      expect(toHex(txHash(common, payload))).toBe(v.txHash);
      // the signature recovers to one of the three keys, which reproduces it (RFC 6979)
      const sig = fromHex(v.signature65)!;
      const signer = recoverSignerAddress(fromHex(v.txHash)!, sig)!;
      const key = keys.find((k) => toHex(k.address) === toHex(signer));
      expect(key).toBeDefined();
      expect(toHex(signDigest(fromHex(v.txHash)!, key!.sk))).toBe(v.signature65);
      verifySignature(fromHex(v.txHash)!, sig, key!.address);
      const other = keys.find((k) => k !== key)!;
      expect(() => verifySignature(fromHex(v.txHash)!, sig, other.address)).toThrow(NodeError);
    });
  }

  it('a tampered amount no longer verifies', () => {
    const v = COIN_TRANSFERS[0];
    const { common, payload } = fieldsOf(v.signedBytesHex);
    const signer = recoverSignerAddress(fromHex(v.txHash)!, fromHex(v.signature65)!)!;
    const tampered = txHash(common, { ...payload, amount: (payload as { amount: bigint }).amount + 1n } as TransactionPayload);
    expect(() => verifySignature(tampered, fromHex(v.signature65)!, signer)).toThrow(/Corrupted signature/);
  });
});

describe('token-era signing bytes (L/seed layouts, http-api.md table)', () => {
  const common: SigningCommon = { pinHash: new Uint8Array(32).fill(0xcc), pinHeight: 0x40, nonceId: 7, feeE8: 9992n };
  const asset = new Uint8Array(32).fill(0x11);
  const to = new Uint8Array(20).fill(0x22);
  const hex = (p: TransactionPayload): string => toHex(signingBytes(common, p)).slice(102); // after byte 51
  const u64 = (v: bigint): string => v.toString(16).padStart(16, '0');

  it('common part: pinHash ‖ pinHeight ‖ nonceId ‖ reserved ‖ decoded fee', () => {
    const b = signingBytes(common, { type: 'cancelation', cancelHeight: 32, cancelNonceId: 5 });
    expect(toHex(b.subarray(0, 51))).toBe('cc'.repeat(32) + '00000040' + '00000007' + '000000' + u64(9992n));
    const reserved = signingBytes({ ...common, reserved: Uint8Array.of(1, 2, 3) }, { type: 'cancelation', cancelHeight: 32, cancelNonceId: 5 });
    expect(toHex(reserved.subarray(40, 43))).toBe('010203');
  });
  it('coinTransfer: bytes 52–79', () => {
    expect(hex({ type: 'coinTransfer', toAddress: to, amount: 5n })).toBe('22'.repeat(20) + u64(5n));
  });
  it('tokenTransfer: assetHash ‖ isLiquidity ‖ toAddr ‖ amount (52–112)', () => {
    const p = { type: 'tokenTransfer', assetHash: asset, isLiquidity: true, toAddress: to, amount: 9n } as const;
    expect(signingBytes(common, p).length).toBe(112);
    expect(hex(p)).toBe('11'.repeat(32) + '01' + '22'.repeat(20) + u64(9n));
    expect(hex({ ...p, isLiquidity: false }).slice(64, 66)).toBe('00');
  });
  it('limitSwap: assetHash ‖ isBuy ‖ amount ‖ 3-byte limit (52–95)', () => {
    const p = { type: 'limitSwap', assetHash: asset, isBuy: true, amount: 3n, limit: fromHex('c0e64d')! } as const;
    expect(signingBytes(common, p).length).toBe(95);
    expect(hex(p)).toBe('11'.repeat(32) + '01' + u64(3n) + 'c0e64d');
  });
  it('liquidityDeposit: assetHash ‖ base ‖ quote (52–99)', () => {
    const p = { type: 'liquidityDeposit', assetHash: asset, base: 1n, quote: 2n } as const;
    expect(signingBytes(common, p).length).toBe(99);
    expect(hex(p)).toBe('11'.repeat(32) + u64(1n) + u64(2n));
  });
  it('liquidityWithdrawal: assetHash ‖ shares (52–91)', () => {
    const p = { type: 'liquidityWithdrawal', assetHash: asset, shares: 4n } as const;
    expect(signingBytes(common, p).length).toBe(91);
    expect(hex(p)).toBe('11'.repeat(32) + u64(4n));
  });
  it('cancelation: cancelHeight ‖ cancelNonceId (52–59)', () => {
    const p = { type: 'cancelation', cancelHeight: 64, cancelNonceId: 0xabcdef } as const;
    expect(signingBytes(common, p).length).toBe(59);
    expect(hex(p)).toBe('00000040' + '00abcdef');
  });
  it('txHash hashes exactly the signing bytes of each payload, one after another (its writer is reused)', () => {
    const payloads: TransactionPayload[] = [
      { type: 'tokenTransfer', assetHash: asset, isLiquidity: true, toAddress: to, amount: 9n },
      { type: 'cancelation', cancelHeight: 64, cancelNonceId: 1 },
      { type: 'coinTransfer', toAddress: to, amount: 5n },
      { type: 'liquidityDeposit', assetHash: asset, base: 1n, quote: 2n },
      { type: 'cancelation', cancelHeight: 64, cancelNonceId: 1 },
    ];
    for (const p of payloads) expect(toHex(txHash(common, p))).toBe(toHex(sha256(signingBytes(common, p))));
    // a refused value leaves nothing behind for the next hash
    expect(() => txHash(common, { type: 'coinTransfer', toAddress: new Uint8Array(19), amount: 5n })).toThrow(/EBUG|bytes/);
    expect(toHex(txHash(common, payloads[2]))).toBe(toHex(sha256(signingBytes(common, payloads[2]))));
  });
  it('assetCreation: supply ‖ precision ‖ name padded (52–65)', () => {
    const p = { type: 'assetCreation', supply: 10n ** 12n, precision: 4, name: assetNameBytes('TOK2') } as const;
    expect(signingBytes(common, p).length).toBe(65);
    expect(hex(p)).toBe(u64(10n ** 12n) + '04' + '544f4b3200');
  });
});

describe('reward hash (§7.7, §11.6)', () => {
  it('is SHA256(address ‖ amount ‖ height ‖ 0u16)', () => {
    expect(toHex(rewardHash(fromHex(TESTNET_BLOCK_1.address)!, 300_000_000n, 1))).toBe(TESTNET_BLOCK_1.rewardHash);
  });
});

describe('address (§11.7)', () => {
  it('private key 1', () => {
    const sk = new Uint8Array(32);
    sk[31] = 1;
    expect(formatAddress(addressOfPrivateKey(sk))).toBe('751e76e8199196d454941c45d1b3a323f1433bd6ffded884');
  });
  it('§11.6 display address', () => {
    expect(formatAddress(fromHex(TESTNET_BLOCK_1.address)!)).toBe(TESTNET_BLOCK_1.displayAddress);
  });
});

describe('transaction ids', () => {
  it('serialize as accountId u64 ‖ pinHeight u32 ‖ nonceId u32 and order like /chain/txcache', () => {
    expect(toHex(serializeTransactionId({ accountId: 2n, pinHeight: 32, nonceId: 3 }))).toBe('0000000000000002' + '00000020' + '00000003');
    const ids = [
      { accountId: 5n, pinHeight: 0, nonceId: 1 },
      { accountId: 2n, pinHeight: 32, nonceId: 3 },
      { accountId: 2n, pinHeight: 0, nonceId: 9 },
    ];
    expect(ids.sort(compareTransactionIds).map(transactionIdKey)).toEqual(['2:0:9', '5:0:1', '2:32:3']);
  });
});

describe('asset names (exchange.md §2.1)', () => {
  it('accepts 1–5 alphanumerics with zero padding only at the end', () => {
    expect(assetNameOf(assetNameBytes('TOK2'))).toBe('TOK2');
    expect(assetNameOf(assetNameBytes('abcde'))).toBe('abcde');
    expect(assetNameOf(new Uint8Array(5))).toBeNull();
    expect(assetNameOf(Uint8Array.of(0x41, 0, 0x42, 0, 0))).toBeNull();
    expect(assetNameOf(assetNameBytes('A-B'))).toBeNull();
  });
});
