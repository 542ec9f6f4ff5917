// A failure the wallet finds itself (a malformed argument, a wrong passphrase, a missing wallet
// file, a transaction it will not sign): printed as its one-line message, without an API error
// name, since no node said it. The node's own refusals are NodeRefusal (node_client.ts); a command
// line it cannot read is a UsageError (cli/options.ts).
export class WalletError extends Error {}
