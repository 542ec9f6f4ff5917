// The account reference `{accountId, address}` of balance results (http-api.md "Accounts").
import { formatAddress } from '../../core/address.js';
import { hexStr, named, obj, u64, type Infer } from '../schema.js';

export const Account = named('Account', obj({ accountId: u64, address: hexStr(48) }));

export function accountView(accountId: bigint, address: Uint8Array): Infer<typeof Account> {
  return { accountId, address: formatAddress(address) };
}
