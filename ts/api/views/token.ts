// The token object of balance and richlist results (http-api.md "Accounts"): `{id, spec, name, decimals}`.
import type { Token as TokenFacts } from '../token_spec.js';
import { int, named, obj, str, u64, type Infer } from '../schema.js';

export const Token = named('Token', obj({ id: u64, spec: str, name: str, decimals: int }));

export function tokenView(t: TokenFacts): Infer<typeof Token> {
  return { id: t.id, spec: t.spec, name: t.name, decimals: t.decimals };
}
