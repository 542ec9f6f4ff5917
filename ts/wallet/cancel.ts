// `cancel <txhash>` takes only an open limit order of the wallet's own that a block already holds:
// a cancelation of anything else is mined as "nothing to cancel" and still pays its fee (a pending
// transfer cannot be taken back; an order still in the mempool may fill completely in the block
// that includes it). Everything is checked before signing, and the refusal says why.
import { ERRORS } from '../core/errors.js';
import { NodeRefusal, type NodeClient } from './node_client.js';
import { WalletError } from './wallet_error.js';

type Lookup = { type: string; mined: unknown; transaction: { signedCommon?: { originAddress: string; pinHeight: number; nonceId: number } } };
type OpenOrders = { coinToAssetSwaps: { txHash: string; inMempool: boolean }[]; assetToCoinSwaps: { txHash: string; inMempool: boolean }[] }[];

/** The transaction id to cancel, or a WalletError saying why the hash cannot be canceled. */
export async function cancelableOrder(node: NodeClient, me: string, hash: string): Promise<{ pinHeight: number; nonceId: number }> {
  let t: Lookup;
  try {
    t = await node.get<Lookup>(`/transaction/lookup/${hash}`);
  } catch (e) {
    if (e instanceof NodeRefusal && e.code === ERRORS.ENOTFOUND[0]) throw new WalletError(`the node knows no transaction ${hash}`);
    throw e;
  }
  const c = t.transaction.signedCommon;
  if (!c || c.originAddress !== me) {
    throw new WalletError(
      `${hash} was ${c ? `sent by ${c.originAddress}` : `a ${t.type} nobody signed`}, not by this wallet: only its own open orders can be canceled`,
    );
  }
  if (t.type !== 'limitSwap')
    throw new WalletError(`${hash} is a ${t.type}, not a limit order: only open orders can be canceled (a sent transaction cannot be taken back)`);
  const orders = (await node.get<OpenOrders>(`/account/${me}/open_orders`)).flatMap((m) => [...m.coinToAssetSwaps, ...m.assetToCoinSwaps]);
  const open = orders.find((o) => o.txHash === hash);
  if (!open) throw new WalletError(`order ${hash} is not open any more (filled or canceled: see 'history')`);
  if (open.inMempool || t.mined === null)
    throw new WalletError(`order ${hash} is still in the mempool: cancel it once a block holds it (it may fill completely in that block)`);
  return { pinHeight: c.pinHeight, nonceId: c.nonceId };
}
