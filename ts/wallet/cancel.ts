// `cancel <txhash>` takes only an open limit order of the wallet's own that a block already holds:
// a cancelation of anything else is mined as "nothing to cancel" and still pays its fee (a pending
// transfer cannot be taken back; an order still in the mempool may fill completely in the block
// that includes it). Everything is checked before signing, and the refusal says why.
import type { NodeApi } from './node_api.js';
import { WalletError } from './wallet_error.js';

/** The transaction id to cancel, or a WalletError saying why the hash cannot be canceled. */
export async function cancelableOrder(api: NodeApi, me: string, hash: string): Promise<{ pinHeight: number; nonceId: number }> {
  const t = await api.lookup(hash);
  if (t === null) throw new WalletError(`the node knows no transaction ${hash}`);
  const c = t.transaction.signedCommon;
  if (!c || c.originAddress !== me) {
    throw new WalletError(
      `${hash} was ${c ? `sent by ${c.originAddress}` : `a ${t.type} nobody signed`}, not by this wallet: only its own open orders can be canceled`,
    );
  }
  if (t.type !== 'limitSwap')
    throw new WalletError(`${hash} is a ${t.type}, not a limit order: only open orders can be canceled (a sent transaction cannot be taken back)`);
  const orders = (await api.openOrders(me)).flatMap((m) => [...m.coinToAssetSwaps, ...m.assetToCoinSwaps]);
  const open = orders.find((o) => o.txHash === hash);
  if (!open) throw new WalletError(`order ${hash} is not open any more (filled or canceled: see 'history')`);
  if (open.inMempool || t.mined === null)
    throw new WalletError(`order ${hash} is still in the mempool: cancel it once a block holds it (it may fill completely in that block)`);
  return { pinHeight: Number(c.pinHeight), nonceId: Number(c.nonceId) };
}
