// A regtest-mainnet node through its HTTP interface: the CPU miner's blocks carry header version 3
// and V2 bodies (coin transfers only) with Janus8 proof of work from height 1; coin transfers are
// admitted and mined; every exchange transaction type is refused at admission (EBLOCKV4, as 0.10.3
// says of them before the token era) and a block carrying one is refused, leaving the chain as it was.
import { describe, expect, it } from 'vitest';
import { initKernel } from '../../ts/kernel/instance.js';
import { powCheck } from '../../ts/kernel/pow.js';
import { fromHex, toHex } from '../../ts/core/hex.js';
import { parseHeader, serializeHeader } from '../../ts/core/header.js';
import { bodyMerkleRoot, parseBody, serializeBody } from '../../ts/core/body.js';
import { assetNameBytes, type TransactionPayload } from '../../ts/core/transaction.js';
import { PowVersion } from '../../ts/consensus/params.js';
import { solve, type MiningTask } from '../../ts/miner/cpu_miner.js';
import { genesisHash } from '../helpers/node.js';
import { sharedNode } from '../helpers/shared_node.js';
import { mine } from '../helpers/peers.js';
import { TestWallet, requestJson, signRequest } from '../helpers/wallet.js';

await initKernel();

const node = sharedNode(['--regtest-mainnet']);
const A = TestWallet.fromSeed(31),
  B = TestWallet.fromSeed(32);
const FEE = 0x4fa2;

async function task(): Promise<MiningTask> {
  const r = await node().get(`/chain/mine/${A.addressText}`);
  expect(r.body.code, r.text).toBe(0);
  return r.body.data;
}

describe('a regtest-mainnet node', () => {
  it('mines version-3 headers with V2 bodies and Janus8 from height 1', async () => {
    const t = await task();
    expect(t.height).toBe(1);
    expect(t.testnet).toBe(true); // as the harness build of 0.8.20 says on its --testnet
    const block = solve(t)!;
    expect(parseHeader(block.header).version).toBe(3);
    expect(powCheck(block.header, PowVersion.Janus8)).toBe(true);
    const body = parseBody(block.body, 'V2');
    expect(toHex(parseHeader(block.header).merkleRoot)).toBe(toHex(bodyMerkleRoot(body, true)));
    const r = await node().post('/chain/append', { height: block.height, header: toHex(block.header), body: toHex(block.body) });
    expect(r.body.code, r.text).toBe(0);
    await mine(node(), A.addressText, 4);
    expect((await node().data('/chain/head')).chainHead.height).toBe(5);
  });

  it('admits and mines a coin transfer; refuses every exchange type with EBLOCKV4', async () => {
    const genesis = await genesisHash(node());
    let nonce = 0;
    const send = (payload: TransactionPayload) =>
      node().post('/transaction/add', requestJson(signRequest(A.sk, payload, { pinHeight: 0, pinHash: genesis, nonceId: ++nonce, feeCode: FEE })));
    const ok = await send({ type: 'coinTransfer', toAddress: B.address, amount: 12_345n });
    expect(ok.body.code, ok.text).toBe(0);
    const h = new Uint8Array(32).fill(7);
    const refused: TransactionPayload[] = [
      { type: 'assetCreation', supply: 1_000_000n, precision: 2, name: assetNameBytes('TOK') },
      { type: 'tokenTransfer', assetHash: h, isLiquidity: false, toAddress: B.address, amount: 1n },
      { type: 'limitSwap', assetHash: h, isBuy: true, amount: 1_000n, limit: new Uint8Array([0x80, 0, 0]) },
      { type: 'liquidityDeposit', assetHash: h, base: 1n, quote: 1n },
      { type: 'liquidityWithdrawal', assetHash: h, shares: 1n },
      { type: 'cancelation', cancelHeight: 0, cancelNonceId: 1 },
    ];
    for (const p of refused) {
      const r = await send(p);
      expect([p.type, r.body.code, r.body.error.startsWith('Cannot use BlockV4 features')]).toEqual([p.type, 192, true]);
    }
    expect(JSON.stringify(await node().data('/transaction/mempool'))).toContain(ok.body.data.txHash);
    await mine(node(), A.addressText, 1);
    const lookup = await node().data(`/transaction/lookup/${ok.body.data.txHash}`);
    expect(lookup.mined.block.height).toBe(6);
  });

  it('refuses a block in the V4 layout (exchange sections), leaving the chain as it was', async () => {
    const before = await node().data('/chain/head');
    const t = await task();
    const header = parseHeader(fromHex(t.header)!);
    const body = parseBody(fromHex(t.body)!, 'V2');
    const v4 = serializeBody({ ...body, layout: 'V4', countFields: 4 }); // with all four count fields
    expect(v4.length).toBeGreaterThan(fromHex(t.body)!.length);
    header.merkleRoot = bodyMerkleRoot(parseBody(v4, 'V4'), true);
    const raw = serializeHeader(header);
    for (let n = 0; !powCheck(raw, PowVersion.Janus8); n++) new DataView(raw.buffer).setUint32(76, n);
    const r = await node().post('/chain/append', { height: t.height, header: toHex(raw), body: toHex(v4) });
    expect(r.body.code, r.text).not.toBe(0);
    expect(await node().data('/chain/head')).toEqual(before);
  });
});
