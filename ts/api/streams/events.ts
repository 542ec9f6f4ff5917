// The messages of the WebSocket streams (clients.md §6.1 `/stream`, §6.2 `/ws/chain_delta`),
// declared once like the response shapes: each is a named schema served by `/debug/json_schemas`
// and checked by the tests on every message received. They are declared in the contract's shapes
// (blocks as `/chain/block/:id`); generation.ts says how 0.10 and 0.8 write them.
import { arr, bool, hexStr, int, named, obj, str, strMatching, u64, type Infer, type Shape } from '../schema.js';
import { CoinAmount } from '../views/amount.js';
import { Block, PartialBlock } from '../views/block.js';
import { ChainHead } from '../views/chain_head.js';

/** `{event, type}` with a fixed `type` (clients.md §6.1). */
const streamEvent = <T>(type: string, event: Shape<T>) => named(`StreamEvent.${type}`, obj({ event, type: strMatching(`^${type.replace('.', '\\.')}$`) }));

const Address = hexStr(48);
const Connection = named('StreamConnection', obj({ id: int, since: int, peerAddr: str, inbound: bool }));
const LogLineShape = named('StreamLogLine', obj({ timestampMilliseconds: u64, level: str, message: str, datetime: str }));
const MinerCount = named('StreamMinerCount', obj({ address: Address, count: int }));

/** Every `/stream` message, by its `type`. */
export const STREAM_EVENTS = {
  'chain.state': streamEvent('chain.state', obj({ head: ChainHead, latestBlocks: arr(Block) })),
  'chain.append': streamEvent('chain.append', obj({ head: ChainHead, newBlocks: arr(Block) })),
  'chain.fork': streamEvent('chain.fork', obj({ head: ChainHead, latestBlocks: arr(Block), rollbackLength: int })),
  'connection.state': streamEvent('connection.state', obj({ connections: arr(Connection), total: int })),
  'connection.add': streamEvent('connection.add', obj({ connection: Connection, total: int })),
  'connection.remove': streamEvent('connection.remove', obj({ id: int, total: int })),
  'log.state': streamEvent('log.state', arr(LogLineShape)),
  'log.line': streamEvent('log.line', LogLineShape),
  'minerdist.state': streamEvent('minerdist.state', obj({ counts: arr(MinerCount) })),
  'minerdist.delta': streamEvent('minerdist.delta', obj({ deltas: arr(MinerCount) })),
  'account.state': streamEvent('account.state', obj({ address: Address, history: arr(PartialBlock) })),
  'account.delta': streamEvent(
    'account.delta',
    obj({
      address: Address,
      balance: obj({ total: CoinAmount, locked: CoinAmount, mempool: CoinAmount }),
      history: arr(PartialBlock),
    }),
  ),
} as const;

export type StreamEventType = keyof typeof STREAM_EVENTS;
export type StreamEventBody<K extends StreamEventType> = Infer<(typeof STREAM_EVENTS)[K]>['event'];

/** Every `/ws/chain_delta` message, by its `type`. */
export const CHAIN_DELTA_EVENTS = {
  blockAppend: named('ChainDelta.blockAppend', obj({ type: strMatching('^blockAppend$'), data: Block })),
  rollback: named('ChainDelta.rollback', obj({ type: strMatching('^rollback$'), data: obj({ length: int }) })),
} as const;

export type ConnectionView = Infer<typeof Connection>;
export type LogLineView = Infer<typeof LogLineShape>;
export type MinerCountView = Infer<typeof MinerCount>;
