// A failure the wallet finds itself (a malformed argument, a wrong passphrase, a missing wallet
// file, a transaction it will not sign): printed as its one-line message, without an API error
// name, since no node said it. The node's own refusals are NodeRefusal (node_client.ts).
export class WalletError extends Error {}

/** A command line the wallet cannot read: exit code 2, followed by `help` or a pointer to --help. */
export class UsageError extends WalletError {
  constructor(message: string, readonly help?: string) { super(message); }
}
