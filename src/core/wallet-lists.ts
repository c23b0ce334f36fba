/**
 * The most entries each of a wallet record's `created`, `bundled` and `early` lists holds (spec
 * §2.4 wallet record; docs/api.md "GET /api/v1/wallet/{address}"): the wallet's newest, by slot. A
 * sniper's wallet may be a first-30-s buyer in hundreds of thousands of launches (200,000 made a
 * 66 MB answer that held the server ~1.3 s). `buyouts` is complete (each took a whole curve), and
 * the record's `counts` count every role.
 */
export const WALLET_LIST_MAX = 1000;
