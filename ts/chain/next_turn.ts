// The rest of a long task continues in the event loop's next turn: what arrived meanwhile (a
// request, a peer's message) is answered first. Reads of the database resolve without waiting, so
// an `await` alone never lets them in: a block of 353 transfers held every request for 100–400 ms
// (bench `headlatency`). The chain's changes stay exclusive; readers see the published view.
export const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));
