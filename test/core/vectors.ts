// Real data from consensus.md §11 (mainnet headers, the testnet block of §11.6) and
// vectors/coin-transfers.json, shared by the core and consensus tests.

export interface HeaderVector {
  name: string;
  height: number;
  raw: string;
  hash: string;
  prevHash: string;
  target: number;
  targetKind: 'V1' | 'V2';
  zeros: number;
  mantissa: number;
  version: number;
  difficulty: number;
  powVersion: number;
}

export const HEADERS: HeaderVector[] = [
  {
    name: '§11.2 Janus8', height: 1_949_766,
    raw: '05b42d206f8a4b2b8094199fd28423151af8aa54a5073ac6e6805f42096dc3a20ae7cde7f3c41bf363fe94eb448bf924f791f77c22a2ebd6a3a5d8948f8aff019f072bea0000000366f2fefb2719fef5',
    hash: '80b200a9ac37d7c41d98ad1cc2d6add8ab50a3905bf52d8347b56955923c28bc',
    prevHash: '05b42d206f8a4b2b8094199fd28423151af8aa54a5073ac6e6805f42096dc3a2',
    target: 0x0ae7cde7, targetKind: 'V2', zeros: 43, mantissa: 0x27cde7, version: 3,
    difficulty: 14_142_941_042_437.885, powVersion: 8,
  },
  {
    name: '§11.3 checkpoint', height: 2_246_400,
    raw: '34b4064fced07341204e3b2283477d5fc6423d7f8244f83d6e1fa1551a74ad470ba7c02fc4c7d16b758e8af266349dc1070727b5ecd5d7fc6c6417d2458018e328818355000000036748585daf74da6b',
    hash: '425a74799bbf9e7ecdd57628bc88be349738add14e988ff31a71f59710e1a5f5',
    prevHash: '34b4064fced07341204e3b2283477d5fc6423d7f8244f83d6e1fa1551a74ad47',
    target: 0x0ba7c02f, targetKind: 'V2', zeros: 46, mantissa: 0x27c02f, version: 3,
    difficulty: 2 ** 68 / 0x27c02f, powVersion: 8,
  },
  {
    name: '§11.4 Janus1 746,727', height: 746_727,
    raw: '97d7572245923377cd972657994013e9bcbe8d07251db053be7a8603c4c2325f0aed5677607773e58740a6161b1338bbf51ceea97a76431707c44c6dc0a8143267b7fcb5000000026580b4bce36e3bc8',
    hash: 'a235342bab7ff6a10ff47e6ba07392946b152785cd6a45e9fbaeb4bd8a9abe11',
    prevHash: '97d7572245923377cd972657994013e9bcbe8d07251db053be7a8603c4c2325f',
    target: 0x0aed5677, targetKind: 'V2', zeros: 43, mantissa: 0x2d5677, version: 2,
    difficulty: 12_416_803_050_367.305, powVersion: 1,
  },
  {
    name: '§11.4 Janus1 746,726', height: 746_726,
    raw: '3eb6fc536af5dd035c568d9148d6f21e71fb6340ffbb1958b60038090fb117510aed5677a893cfcab30cb30bd374b2862b8f253cbf7899c8dd43a2082413dddbfc7b1fcb000000026580b4b84eaebc09',
    hash: '97d7572245923377cd972657994013e9bcbe8d07251db053be7a8603c4c2325f',
    prevHash: '3eb6fc536af5dd035c568d9148d6f21e71fb6340ffbb1958b60038090fb11751',
    target: 0x0aed5677, targetKind: 'V2', zeros: 43, mantissa: 0x2d5677, version: 2,
    difficulty: 12_416_803_050_367.305, powVersion: 1,
  },
  {
    name: '§11.5 Original', height: 366_700,
    raw: '11f2b6860910f7b544e01fd5ed5419588c29e42b305553bd492a0d00000000002ac075d9a4d44aff9ebd539f2b5e758fb76df22bfd13a2e4d894752c7892f9e9c3f3d96900000001650bd0820d8e8eab',
    hash: 'ac4f50ef90c0730075f4995d0b33691e9e7d69f84d2191c029371c0000000000',
    prevHash: '11f2b6860910f7b544e01fd5ed5419588c29e42b305553bd492a0d0000000000',
    target: 0x2ac075d9, targetKind: 'V1', zeros: 42, mantissa: 0xc075d9, version: 1,
    difficulty: 5_850_035_871_080.048, powVersion: 0,
  },
];

/** §11.6: testnet height 1 as published for L (header version 3, fake PoW). */
export const TESTNET_BLOCK_1 = {
  header: 'b29988793c29118a842ba38ea4ab13d43e3dce3f04511ba6ca3340542dfd8537077fffffeab3b88a101b745e8d7b530eb129a789f571a4718edc07435ae74998981a3a7f000000036948246d00000000',
  hash: '6851377f19b814ab3a4354c811a96908afba9c47cf3e4b85048d95de11e3f6aa',
  body: '00000000000000000000' + '0001' + '3661579d61abde5837a8686dc4d65348a2fc61b1' + '0000000000000001' + '0000000011e1a300' + '00000000' + '0000' + '0000' + '0000',
  address: '3661579d61abde5837a8686dc4d65348a2fc61b1',
  displayAddress: '3661579d61abde5837a8686dc4d65348a2fc61b1fe5f4093',
  leaves: [
    'fe5f40934a0fe34da7b5990220b1cda58382c81ccdbc6b17ca3ada615eecd569',
    '7922d9c006a9e4bcd3c1ccfe70f80050fd712dfdfdc7a3bcb03fab8d7999ac40',
  ],
  merkleRoot: 'eab3b88a101b745e8d7b530eb129a789f571a4718edc07435ae74998981a3a7f',
  rewardHash: 'da3dcfbc0dcb60be544a8510589f973b82651b48ddcb7943718dc3dcf93ae234',
};

export interface CoinTransferCase { case: string; signedBytesHex: string; txHash: string; signature65: string }

/** vectors/coin-transfers.json (recorded from the reference node): accepted coin transfers. */
export const PIN_HASH_0 = 'b29988793c29118a842ba38ea4ab13d43e3dce3f04511ba6ca3340542dfd8537';
export const COIN_TRANSFERS: CoinTransferCase[] = [
  { case: 'coinTransfer (amountE8, feeE8)', signedBytesHex: 'b29988793c29118a842ba38ea4ab13d43e3dce3f04511ba6ca3340542dfd8537000000000000000100000000000000000f44008a163de3871436bf503ba5b1bc0d7fb862d2207e0000000005f5e100',
    txHash: 'dd156b4a9dd0a81e1b241ffa17acd7ab9bf41ffd52bd5419cb8dbd6944cd1303',
    signature65: 'd706a1500acb4f40a1b482cbb959e5c4d05da8fef10ba2b4847e39db49a7459d7d8391b65b0216362fc0f3245fa1b26f02d6ec0d835ed2e5313a489e40f3197601' },
  { case: 'coinTransfer to a new address, with extra key type', signedBytesHex: 'b29988793c29118a842ba38ea4ab13d43e3dce3f04511ba6ca3340542dfd8537000000000000000300000000000000000f440065e687fd95c0f1d33536b0106a96a7398f664f200000000000003039',
    txHash: '541d2c35debab849f5b9b4928d68b4fe3796a0902904b5904c8ff6c54b3aadd1',
    signature65: '94c11659af2e3b4db766c25bbcfa40484e9c3623df612641916b94f90117a8e97b2a7eb5adde3e71b1e88fe40a558cde3a565ca86528d73e9871276c6e78302b00' },
  { case: 'fee below minimum (representable 0.00999936)', signedBytesHex: 'b29988793c29118a842ba38ea4ab13d43e3dce3f04511ba6ca3340542dfd8537000000000000000c00000000000000000f42008a163de3871436bf503ba5b1bc0d7fb862d2207e00000000000003e8',
    txHash: 'd9098f3ccd0cafdd07771efb794315367ace10c8054dba000c6307a7db296324',
    signature65: '69cbf7d2dcc94eabc20a00cab7106b9d5f3b7c86cd56b4cab1b1b7d4a78c6370620c36eb14c68bec0a1d7f9f977a0789f918df1fa932a0d0965f6a4cbf37815a00' },
  { case: 'type tokenTransfer but coin-transfer fields, signed as coin transfer', signedBytesHex: 'b29988793c29118a842ba38ea4ab13d43e3dce3f04511ba6ca3340542dfd8537000000000000002f00000000000000000f44008a163de3871436bf503ba5b1bc0d7fb862d2207e0000000000000309',
    txHash: '39b50b824e5364cab261f4d3b71c2dd2264eabe1466d3bad667f2840823effa8',
    signature65: '7d85e076b0d426d46856c8a698f35aa587c653df33bc1690576f7588d79d087426ca472481b09c690a64ca57e363375f175758e2a2b014faf9586abe1dca12a800' },
  { case: 're-submit nonce 101', signedBytesHex: 'b29988793c29118a842ba38ea4ab13d43e3dce3f04511ba6ca3340542dfd8537000000000000006500000000000000000f44008a163de3871436bf503ba5b1bc0d7fb862d2207e0000000005f5e100',
    txHash: '77c67f0c59da4737023cc63ea7044bff52d1effd4b6ce2e506d9948dad6d00f3',
    signature65: 'c05b2125ed051566143e88716e9b2a26754f20bf6df408683241ce28a792e3cc051cef1e4f0e8bcbc295a4aa746665c3d7f76d7fcbfe6b45b3959a7e8e9962be01' },
  { case: 're-submit nonce 103', signedBytesHex: 'b29988793c29118a842ba38ea4ab13d43e3dce3f04511ba6ca3340542dfd8537000000000000006700000000000000000f440065e687fd95c0f1d33536b0106a96a7398f664f200000000000003039',
    txHash: '750bf8900fb6bce289bed6f21adb2e9de4988e887f6b53ab17a0e4cbcbb073e7',
    signature65: '440677bb54cd08c16b72b83a1d258767132f73415e929b6acf839ef3c24f707505597d00984d55fac91996b2d99cbbaba3b7957021a0a329822a540c4a11b42a01' },
  { case: 'coinTransfer pinned at height 32', signedBytesHex: '36db6b72f14a5c5470f4f41d79ce3247132676feb6b4ddd78898358838fb85ff00000020000000c800000000000000000f44008a163de3871436bf503ba5b1bc0d7fb862d2207e00000000000f4240',
    txHash: '6cba337873931e0fab75e798bab10d16a84a9fbc71121cabd2d17c928b96e422',
    signature65: '61998d38619c5fa04fc39dc9b0793a6940cd3ca6f015ffc1fac1cb20e23b6c7a101dcd8dacbbc0be2bb2879cd6ea5ae728518925657f5a3411d83f83c9bafb4e01' },
  { case: 'pending tx (before replace-by-fee probe)', signedBytesHex: '36db6b72f14a5c5470f4f41d79ce3247132676feb6b4ddd78898358838fb85ff000000200000012c00000000000000000f44008a163de3871436bf503ba5b1bc0d7fb862d2207e00000000000003e8',
    txHash: '09fa8461f0e0d2b6b365eb43a3a45794db7a772548ad9e02c71a10557b44374a',
    signature65: 'ad5077598c2adc4e424d4da71287de6f9e0439bf1ed895d55e1483e82acd179276f8f1606b14192b5170e9add3d076816ce0bd8ddcb344e8110c0ef5492aecea01' },
];
/** The signing keys named in the file's note. */
export const COIN_TRANSFER_KEYS: Record<string, string> = {
  A: 'cb6b03db23870c557e3a07858afd691d479ab0d61673fdffbbfc807f7238c5ff',
  B: '94f333e6271549ea647898fdc256a45ab333e9dfcdebfd6d59fd8152a5d1e3df',
  C: '1be39088158a86c0754243248d55948ed5479ff04b53e185a4802e6eec794d7c',
};
