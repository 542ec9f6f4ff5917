// The one error table (http-api-details.md §2.2, R1 numbering and texts). Every error the node
// reports, over HTTP or to peers, carries one of these codes.

export const ERRORS = {
  ENOERROR: [0, 'No error'],
  EMSGTYPE: [1, 'Invalid message type'],
  EMSGLEN: [2, 'Invalid message length'],
  ECHECKSUM: [4, 'Bad message checksum'],
  EMSGFLOOD: [5, 'Received too many messages'],
  ENOBATCH: [6, 'Peer did not provide batch'],
  EBUFFERFULL: [7, 'Send buffer full'],
  EBATCHSIZE: [8, 'Invalid batch size'],
  EHEADERLINK: [9, 'Bad header link'],
  EPOW: [10, 'Bad proof of work'],
  ETIMESTAMP: [11, 'Timestamp rule violated'],
  EDIFFICULTY: [12, 'Wrong difficulty in block header'],
  EHANDSHAKE: [13, 'Bad hand shake'],
  EVERSION: [14, 'Unsupported version'],
  EREORGWORK: [15, 'Peer changed to shorter chain'],
  EDESCRIPTOR: [16, 'Descriptors not consecutive'],
  EMROOT: [17, 'Merkle root mismatch'],
  ENOBLOCK: [18, 'Peer did not provide block'],
  EUNREQUESTED: [19, 'Received unrequested message'],
  EIDNOTREFERENCED: [20, 'Account id not referenced'],
  EADDRPOLICY: [21, 'New address policy violated'],
  EBALANCE: [22, 'Insufficient balance'],
  ECORRUPTEDSIG: [23, 'Corrupted signature'],
  ETIMEOUT: [24, 'Connection request timed out'],
  ESWITCHING: [25, 'Busy, switching chains'],
  ENONCE: [26, 'Duplicate transaction nonce'],
  EDUST: [27, 'Fee too low'],
  EBLOCKSIZE: [28, 'Block too large'],
  EPINHEIGHT: [29, 'Invalid transaction pin'],
  ECLOCKTOLERANCE: [30, 'Clock tolerance exceeded'],
  EINVDSC: [31, 'Invalid descripted state'],
  EAPPEND: [32, 'Invalid chain append'],
  EFORK: [33, 'Invalid chain fork'],
  ENOTFOUND: [56, 'Not found'],
  EEMPTY: [57, 'Empty response for request not yet expired'],
  EFAKEHEIGHT: [58, 'Fake height advertised by node'],
  EFAKEWORK: [59, 'Fake total work advertised by node'],
  EBADMATCH: [60, 'Bad headerchain match'],
  EBADMISMATCH: [61, 'Bad headerchain mismatch'],
  EBADPROBE: [62, 'Inconsistent probe message'],
  EPROBEDESCRIPTOR: [63, 'Current probe descriptor does not match'],
  ERESTRICTED: [64, 'Peer ignored limit restrictions'],
  ENOPINHEIGHT: [65, 'Height is no pin height'],
  EBADLEADER: [66, 'Bad leader signature'],
  ELEADERMISMATCH: [67, 'Leader signature mismatch'],
  ELOWPRIORITY: [68, 'Low leader signature priority'],
  EBADPUBKEY: [69, 'Invalid public key'],
  EBADPRIVKEY: [70, 'Invalid private key'],
  EBADADDRESS: [71, 'Invalid address'],
  EBADHEIGHT: [72, 'Invalid height'],
  EZEROHEIGHT: [73, 'Invalid zero height'],
  EBADROLLBACK: [74, 'Rollback forbidden'],
  EBADROLLBACKLEN: [75, 'Bad rollback length'],
  EMINEDDEPRECATED: [76, 'Submitted deprecated block'],
  EBLOCKRANGE: [77, 'Invalid block range'],
  EFORKHEIGHT: [78, 'Invalid fork height'],
  EPROBEHEIGHT: [79, 'Invalid probe height'],
  EBATCHHEIGHT: [80, 'Invalid batch height'],
  EGRIDMISMATCH: [81, 'Grid mismatch'],
  ESELFSEND: [82, 'Self send transaction not allowed'],
  EBLOCKVERSION: [83, 'Unsupported block version'],
  EZEROAMOUNT: [84, 'Transactions cannot send 0 tokens'],
  ENOINIT: [85, 'First message must be init message'],
  EINVINIT: [86, 'Only first message can be init message'],
  EFAKEACCID: [87, 'Fake account id'],
  EINV_FUNDS: [88, 'Malformed funds data'],
  EINV_BODY: [89, 'Malformed body data'],
  EINV_PAGE: [90, 'Invalid page'],
  EINV_PROBE: [91, 'Invalid probe message'],
  EINV_GRID: [92, 'Invalid grid'],
  EINV_TXREQ: [93, 'Invalid tx request'],
  EINV_ARGS: [94, 'Invalid API arguments'],
  EINV_TXREP: [95, 'Invalid tx reply'],
  EINV_INITGRID: [96, 'Invalid grid in init message'],
  EINV_HEADERVEC: [97, 'Invalid header vector'],
  EINV_BLOCKREPSIZE: [98, 'Invalid block reply size'],
  EINV_RTCOFFER: [99, 'Invalid SDP offer forward request'],
  EDUP_RTCOFFER: [100, 'Duplicate SDP offer forward request'],
  ERTCINV_RFA: [101, 'Invalid RTC request forward answer'],
  ERTCDUP_RFA: [102, 'Duplicate RTC request forward answer'],
  ERTCINV_FA: [103, 'Invalid RTC forwarded answer'],
  ERTCDUP_FA: [104, 'Duplicate RTC forwarded answer'],
  ERTCIP_FA: [105, 'WebRTC forwarded ip differs'],
  ERTCDISCARD_FA: [106, 'Invalid discarding of expected forwarded answer'],
  ERTCQUOTA_FO: [107, 'RTC quota for forwarded offers exceeded'],
  ERTCDUP_ID: [109, 'Duplicate RTC id'],
  ERTCFAILED: [110, 'WebRTC connection failed'],
  ERTCCHANNEL_ERROR: [111, 'WebRTC channel error'],
  ERTCCLOSED: [112, 'WebRTC connection was closed'],
  ERTCTEXT: [113, 'Text over RTC is not supported'],
  ERTCUNIQUEIP: [114, 'WebRTC SDP ip is not unique'],
  ERTCUNIQUEIP_RFA: [115, 'WebRTC SDP ip not unique (forward answer)'],
  ERTCWRONGIP_RFA: [116, 'Wrong WebRTC SDP ip (forward answer)'],
  ERTCWRONGIP_FO: [117, 'Wrong WebRTC SDP ip (forward offer)'],
  ERTCUNIQUEIP_RFO: [118, 'WebRTC forward offer request SDP ip is not unique'],
  ERTCUNVERIFIEDIP: [119, 'WebRTC ip not verified'],
  ERTCDUP_DATACHANNEL: [120, 'WebRTC ip not verified'],
  ERTCUNEXP_VA: [121, 'Unexpected WebRTC verification answer'],
  EADDRNOTFOUND: [122, 'Address not found'],
  EACCIDNOTFOUND: [123, 'Account id not found'],
  ECONNRATELIMIT: [124, 'Connection rate limit exceeded'],
  EINITV1: [125, 'Init V1 not allowed from this peer'],
  EINITV3: [126, 'Init V3 not allowed from this peer'],
  EFROZENACC: [127, "Account is frozen and can't send"],
  EHEADERRANGE: [128, 'Invalid header range'],
  EBADPRICE: [129, 'Invalid price'],
  EBADFEE: [130, 'Invalid fee'],
  ETOKIDNOTFOUND: [131, 'Token id not found'],
  ENOPOOL: [132, 'No pool liquidity'],
  ERTCDISABLED: [133, 'WebRTC disabled, cannot receive message'],
  EIDPOLICY: [134, 'Block transaction id policy violated'],
  EINV_WART: [179, 'Invalid WART amount'],
  EINV_SUPPLY: [180, 'Invalid asset supply'],
  ETXTYPESTATE: [181, 'Transaction type invalid at current chain state'],
  EASSETNAME: [182, 'Invalid asset name'],
  EZEROBASEQUOTE: [183, "Base and quote can't be both zero"],
  ETOKBALANCE: [184, 'Insufficient token balance'],
  EASSETHASHNOTFOUND: [185, 'Asset hash not found'],
  EASSETIDNOTFOUND: [186, 'Asset id not found'],
  ECANCELSELF: [187, 'Cannot cancel future transactions'],
  ECANCELFUTURE: [188, 'Cannot cancel future transactions'],
  ETXTYPE: [189, 'Invalid transaction message type'],
  EEXCESSBYTES: [190, 'Excessive bytes after parsing'],
  EWARTTOKID: [191, 'Illegal use of WART in non-WART token id'],
  EBLOCKV4: [192, 'Cannot use BlockV4 features'],
  EZEROWART: [193, 'WART amount cannot be 0'],
  EPOOLREDEEM: [194, 'Cannot redeem more shares than pool issued'],
  EINVBUY: [195, 'Invalid buy value'],
  ETOKENDECIMALS: [196, 'Invalid token decimals'],
  EINVSIG: [197, 'Invalid signature'],
  EBATCHSIZE2: [198, 'Invalid batch size'],
  EBATCHSIZE3: [199, 'Invalid batch size'],
  ERTCNOSIGNAL: [200, 'WebRTC signaling server was closed (offer)'],
  ERTCNOSIGNAL2: [201, 'WebRTC signaling server was closed (answer)'],
  EMSGINTEGRITY0: [202, 'Message integrity check 0 failed'],
  EMSGINTEGRITY1: [203, 'Message integrity check 1 failed'],
  EMSGINTEGRITY2: [204, 'Message integrity check 2 failed'],
  ESTARTWEBSOCK: [206, 'Error while starting websocket connection'],
  EWEBSOCK: [207, 'Error while in websocket connection'],
  ERTCOWNIP: [208, 'Own announced IP not present in '],
  ERTCFWDREJECT: [209, 'WebRTC forward rejected'],
  ERTCCHANNEL_CLOSED: [210, 'WebRTC datachannel closed'],
  ERTCNOPEER: [211, 'WebRTC verification peer already closed'],
  ERTCNOIP: [212, 'Cannot select own WebRTC ip'],
  ERTCIDIP: [213, 'IP in verification offer is not announced as identity'],
  ERTCFEELER: [214, 'Normal feeler connection shutdown'],
  EAPICMD: [216, 'Triggered by API command'],
  EMINFEE: [217, 'Transaction fee below threshold'],
  EINV_HEX: [300, 'Cannot parse hexadecimal input'],
  EBADNONCE: [301, 'Cannot parse nonce'],
  EINEXACTFEE: [302, 'Inexact fee not allowed'],
  EBADAMOUNT: [303, 'Invalid amount'],
  EPARSESIG: [304, 'Cannot parse signature'],
  ENOTSYNCED: [305, 'Node not synced yet'],
  EBADTOKEN: [306, 'Invalid token'],
  EINV_TOKEN: [307, 'Malformed token specification'],
  ETOKENNOTFOUND: [308, 'Token not found'],
  EPARSEHASH: [309, 'Cannot parse hash'],
  EBADLIQUIDITYFLAG: [310, 'Cannot parse liquidity flag'],
  EBADBUYFLAG: [311, 'Cannot parse buy flag'],
  EBADCANCELHEIGHT: [312, 'Cannot parse cancel height'],
  ECANCLHNOPINH: [313, 'Cancel height must be a pin height (multiple of 32)'],
  EBADCANCELNONCE: [314, 'Cannot parse cancel nonce'],
  EBADASSETUNITS: [315, 'Cannot parse asset units'],
  EBADASSETDECIMALS: [316, 'Cannot parse asset decimals'],
  EBADHEADER: [317, 'Cannot parse header'],
  EHTTPREQUEST: [318, 'HTTP request failed'],
  EINVJSON: [319, 'Invalid JSON received'],
  EINVINTERVAL: [320, 'Invalid candle interval'],
  EINVARGCOMB: [321, 'Invalid argument combination'],
  ERANGETOOBIG: [322, 'Specified result range too big'],
  EINVRANGE: [323, 'Specified range invalid'],
  EAPINOTENABLED: [324, 'API method not enabled'],
  EHASHRATEINTERVAL: [325, 'Hashrate estimate needs at least 2 block times'],
  ESIGTERM: [1000, 'Received SIGTERM'],
  ESIGHUP: [1001, 'Received SIGHUP'],
  ESIGINT: [1002, 'Received SIGINT'],
  EREFUSED: [1003, 'Connection refused due to ban'],
  EDUPLICATECONNECTION: [1005, 'Duplicate connection'],
  EEVICTED: [1006, 'Connection was evicted'],
  EBUG: [2000, 'Bug-related error'],
  // Ours: LevelDB found a damaged file while answering (the reference has no such code).
  EDBDAMAGED: [2001, 'Database damaged'],
  // Ours: applying the block trips an assertion or an uncaught exception in the reference 0.10.3,
  // which then exits: no reference node can hold such a block, so we refuse it.
  EREFABORT: [2002, 'Block aborts the reference node'],
  // Ours: the database refused a write (disk full, I/O error); the chain stays what it holds.
  EDBWRITE: [2003, 'Database write failed'],
  // Ours: a sync reply not arriving in time from a peer that keeps sending other bytes (a slow
  // link, not a silent liar): the connection closes without an offense (README "Sync is not held hostage").
  ESLOWPEER: [2004, 'Peer too slow to answer'],
} as const;

export type ErrorName = keyof typeof ERRORS;

/**
 * Cases of an error that a reference node answers otherwise than the other cases of the same error:
 * the place that refuses names the case, and the API generations (ts/api/generations/) word it as
 * their reference does. The contract answers the error itself.
 */
export const REFUSAL_CASES = {
  // (0.10.3 refuses odd hex before it looks at the length.)
  oddHex: 'a hex path parameter of odd length',
  tokenIdNotNumber: 'a token spec shorter than 64 chars that is no integer token id',
  feeMissing: 'a transaction without `feeE8` and without a fee text',
  // (Not a zero r or s, which no key recovers from.)
  signatureForm: 'a signature that is no low-s compact signature with recovery id 0–3',
  unknownAccountId: 'an account id that names no account',
} as const;

export type RefusalCase = keyof typeof REFUSAL_CASES;

/** An error with a code from the table; the API writes it as `{code, error}`. */
export class NodeError extends Error {
  readonly code: number;
  readonly errorName: ErrorName;
  /** The case, where one is named (see RefusalCase). */
  readonly refusal?: RefusalCase;
  constructor(name: ErrorName, detail?: string, refusal?: RefusalCase) {
    const [code, text] = ERRORS[name];
    super(detail ? `${text}: ${detail}` : text);
    this.code = code;
    this.errorName = name;
    if (refusal) this.refusal = refusal;
  }
}

export const fail = (name: ErrorName, detail?: string, refusal?: RefusalCase): never => {
  throw new NodeError(name, detail, refusal);
};

/** The longest piece of a request an error message quotes, so an error text stays short. */
export const QUOTE_CHARS = 100;

/** `'text'` for an error message; longer text is cut, and the cut marked with its full length. */
export function quoted(text: string): string {
  return text.length <= QUOTE_CHARS ? `'${text}'` : `'${text.slice(0, QUOTE_CHARS)}…' (${text.length} chars)`;
}
