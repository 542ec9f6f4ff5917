//! Exact liquidity-pool arithmetic (exchange.md §6.2–§6.4): constant-product swaps with a 0.5 %
//! fee taken from the output, share minting by the geometric mean of the reserves, and
//! pro-rata withdrawal. Products of two u64 are exact in u128; no floating point anywhere.

/// Fee kept by the pool: the trader receives 9950/10000 of the constant-product output (§6.2).
const KEEP_NUM: u128 = 9_950;
const KEEP_DEN: u128 = 10_000;

/// Why a pool operation has no result; the discriminant is the export's status code.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum PoolError {
    /// A reserve or the share total would exceed u64.
    Overflow = 1,
    /// The operation is undefined for this pool: withdrawing more shares than exist (or from a
    /// pool without shares), or depositing into a pool with shares but a zero reserve product.
    Invalid = 2,
}

/// Reserves and share total of one asset's pool; a missing pool is all zero (§6.1).
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub struct Pool {
    pub base: u64,
    pub quote: u64,
    pub shares: u64,
}

fn to_u64(v: u128) -> Result<u64, PoolError> {
    u64::try_from(v).map_err(|_| PoolError::Overflow)
}

/// Constant-product output for `input` added to reserve `r_in`, paid from reserve `r_out`:
/// the pool keeps at least ⌈r_out·r_in / (r_in + input)⌉ and the fee comes off the rest.
/// An empty product gives t = 0 (§6.2 edge cases): then 99.5 % of r_out is paid out.
fn swap_out(r_out: u64, r_in: u64, input: u64) -> u64 {
    if input == 0 {
        return 0;
    }
    let t = (u128::from(r_out) * u128::from(r_in)).div_ceil(u128::from(r_in) + u128::from(input));
    // t ≤ r_out because r_in / (r_in + input) ≤ 1, so the subtraction cannot wrap
    ((u128::from(r_out) - t) * KEEP_NUM / KEEP_DEN) as u64
}

/// poolBuy(x): `quote_in` coin in, base out. Returns (base out, pool after).
pub fn buy(p: Pool, quote_in: u64) -> Result<(u64, Pool), PoolError> {
    let out = swap_out(p.base, p.quote, quote_in);
    let quote = p.quote.checked_add(quote_in).ok_or(PoolError::Overflow)?;
    Ok((out, Pool { base: p.base - out, quote, ..p }))
}

/// poolSell(y): `base_in` asset in, quote out. Returns (quote out, pool after).
pub fn sell(p: Pool, base_in: u64) -> Result<(u64, Pool), PoolError> {
    let out = swap_out(p.quote, p.base, base_in);
    let base = p.base.checked_add(base_in).ok_or(PoolError::Overflow)?;
    Ok((out, Pool { base, quote: p.quote - out, ..p }))
}

/// ⌊√n⌋ of a 128-bit integer (always < 2^64), exact: Newton's iteration from above.
pub fn isqrt(n: u128) -> u64 {
    if n < 2 {
        return n as u64;
    }
    // start at a power of two ≥ √n; the iteration then decreases monotonically to ⌊√n⌋
    let bits = 128 - n.leading_zeros();
    let mut x: u128 = 1 << bits.div_ceil(2);
    loop {
        let y = (x + n / x) / 2;
        if y >= x {
            return x as u64;
        }
        x = y;
    }
}

/// Liquidity deposit of `base_in` asset and `quote_in` coin (§6.3). Returns (shares minted,
/// pool after). The first deposit into a share-less pool mints √(R_b·R_q) after the deposit
/// (0 when one side is empty); later deposits grow the share total in proportion to √(R_b·R_q).
/// Minting 0 shares is a valid result here; the transaction rules decide what it means.
pub fn deposit(p: Pool, base_in: u64, quote_in: u64) -> Result<(u64, Pool), PoolError> {
    let k0 = isqrt(u128::from(p.base) * u128::from(p.quote));
    let base = p.base.checked_add(base_in).ok_or(PoolError::Overflow)?;
    let quote = p.quote.checked_add(quote_in).ok_or(PoolError::Overflow)?;
    let k1 = isqrt(u128::from(base) * u128::from(quote));
    let shares = if p.shares == 0 {
        k1
    } else {
        if k0 == 0 {
            return Err(PoolError::Invalid);
        }
        // S·k1 < 2^128; k1 ≥ k0 (reserves only grow), so S' ≥ S
        to_u64(u128::from(p.shares) * u128::from(k1) / u128::from(k0))?
    };
    Ok((shares - p.shares, Pool { base, quote, shares }))
}

/// Liquidity withdrawal of `redeemed` shares (§6.4): returns (base out, quote out, pool after).
/// Rounds in favour of the pool; redeeming all shares empties it exactly.
pub fn withdraw(p: Pool, redeemed: u64) -> Result<(u64, u64, Pool), PoolError> {
    if p.shares == 0 || redeemed > p.shares {
        return Err(PoolError::Invalid);
    }
    let part = |reserve: u64| (u128::from(redeemed) * u128::from(reserve) / u128::from(p.shares)) as u64;
    let (b, q) = (part(p.base), part(p.quote)); // ≤ the reserve since redeemed ≤ shares
    Ok((b, q, Pool { base: p.base - b, quote: p.quote - q, shares: p.shares - redeemed }))
}

/// Writes little-endian u64s to `out`.
unsafe fn write_u64s(out: *mut u8, values: &[u64]) {
    for (i, v) in values.iter().enumerate() {
        crate::output(out.add(8 * i), &v.to_le_bytes());
    }
}

fn status<T>(r: &Result<T, PoolError>) -> u32 {
    match r {
        Ok(_) => 0,
        Err(e) => *e as u32,
    }
}

/// poolBuy. Writes [base out, base after, quote after] (3 LE u64, 24 bytes) to `out`.
/// Returns 0, or a `PoolError` code (then `out` is untouched).
///
/// # Safety
/// `out..out+24` writable linear memory.
#[no_mangle]
pub unsafe extern "C" fn pool_buy(base: u64, quote: u64, quote_in: u64, out: *mut u8) -> u32 {
    let r = buy(Pool { base, quote, shares: 0 }, quote_in);
    if let Ok((o, p)) = r {
        write_u64s(out, &[o, p.base, p.quote]);
    }
    status(&r)
}

/// poolSell. Writes [quote out, base after, quote after] (24 bytes) to `out`; status as `pool_buy`.
///
/// # Safety
/// `out..out+24` writable linear memory.
#[no_mangle]
pub unsafe extern "C" fn pool_sell(base: u64, quote: u64, base_in: u64, out: *mut u8) -> u32 {
    let r = sell(Pool { base, quote, shares: 0 }, base_in);
    if let Ok((o, p)) = r {
        write_u64s(out, &[o, p.base, p.quote]);
    }
    status(&r)
}

/// Liquidity deposit. Writes [minted, base after, quote after, shares after] (32 bytes).
///
/// # Safety
/// `out..out+32` writable linear memory.
#[no_mangle]
pub unsafe extern "C" fn pool_deposit(
    base: u64,
    quote: u64,
    shares: u64,
    base_in: u64,
    quote_in: u64,
    out: *mut u8,
) -> u32 {
    let r = deposit(Pool { base, quote, shares }, base_in, quote_in);
    if let Ok((m, p)) = r {
        write_u64s(out, &[m, p.base, p.quote, p.shares]);
    }
    status(&r)
}

/// Liquidity withdrawal. Writes [base out, quote out, base after, quote after, shares after]
/// (40 bytes).
///
/// # Safety
/// `out..out+40` writable linear memory.
#[no_mangle]
pub unsafe extern "C" fn pool_withdraw(base: u64, quote: u64, shares: u64, redeemed: u64, out: *mut u8) -> u32 {
    let r = withdraw(Pool { base, quote, shares }, redeemed);
    if let Ok((b, q, p)) = r {
        write_u64s(out, &[b, q, p.base, p.quote, p.shares]);
    }
    status(&r)
}

#[cfg(test)]
mod tests {
    use super::*;

    const fn pool(base: u64, quote: u64, shares: u64) -> Pool {
        Pool { base, quote, shares }
    }

    #[test]
    fn worked_example_6_5() {
        // 1. Alice: 1000 units + 500 coin into an empty pool
        let (minted, p) = deposit(Pool::default(), 100_000_000_000, 50_000_000_000).unwrap();
        assert_eq!(minted, 70_710_678_118);
        assert_eq!(p, pool(100_000_000_000, 50_000_000_000, 70_710_678_118));
        // 2. Bob: 100 units + 100 coin, unbalanced
        let (minted, p) = deposit(p, 10_000_000_000, 10_000_000_000).unwrap();
        assert_eq!(isqrt(6_600_000_000_000_000_000_000), 81_240_384_046);
        assert_eq!(minted, 10_529_705_928);
        assert_eq!(p, pool(110_000_000_000, 60_000_000_000, 81_240_384_046));
        // a balanced 100 units + 50 coin instead
        let (balanced, _) =
            deposit(pool(100_000_000_000, 50_000_000_000, 70_710_678_118), 10_000_000_000, 5_000_000_000).unwrap();
        assert_eq!(balanced, 7_071_067_812);
        // 3. Bob withdraws everything he got
        let (b, q, p) = withdraw(p, 10_529_705_928).unwrap();
        assert_eq!((b, q), (14_257_289_224, 7_776_703_213));
        assert_eq!(p, pool(110_000_000_000 - 14_257_289_224, 60_000_000_000 - 7_776_703_213, 70_710_678_118));
        // Alice withdraws the rest: the pool empties exactly
        let (b, q, p) = withdraw(p, 70_710_678_118).unwrap();
        assert_eq!((b, q), (110_000_000_000 - 14_257_289_224, 60_000_000_000 - 7_776_703_213));
        assert_eq!(p, Pool::default());
    }

    #[test]
    fn swaps() {
        let p = pool(1_000_000, 2_000_000, 0);
        // buy 10,000 coin: t = ⌈2·10^12 / 2,010,000⌉ = 995,025; out = ⌊4,975·0.995⌋ = 4,950
        let (out, after) = buy(p, 10_000).unwrap();
        assert_eq!(out, 4_950);
        assert_eq!(after, pool(995_050, 2_010_000, 0));
        // sell 10,000 units: t = ⌈2·10^12 / 1,010,000⌉ = 1,980,199; out = ⌊19,801·0.995⌋ = 19,701
        let (out, after) = sell(p, 10_000).unwrap();
        assert_eq!(out, 19_701);
        assert_eq!(after, pool(1_010_000, 1_980_299, 0));
        // zero input: nothing happens
        assert_eq!(buy(p, 0).unwrap(), (0, p));
        assert_eq!(sell(p, 0).unwrap(), (0, p));
        // the product never decreases
        for x in [1u64, 7, 999, 123_456, 10_000_000, u64::MAX - 2_000_000] {
            let (_, a) = buy(p, x).unwrap();
            assert!(u128::from(a.base) * u128::from(a.quote) >= 2_000_000_000_000);
            let (_, a) = sell(p, x.min(u64::MAX - 1_000_000)).unwrap();
            assert!(u128::from(a.base) * u128::from(a.quote) >= 2_000_000_000_000);
        }
        // large reserves: the product needs all 128 bits
        let big = pool(u64::MAX, u64::MAX, 0);
        assert_eq!(buy(big, 1), Err(PoolError::Overflow));
        assert_eq!(sell(big, 1), Err(PoolError::Overflow));
        let (out, a) = buy(pool(u64::MAX, 1 << 62, 0), 1 << 62).unwrap();
        // t = ⌈(2^64−1)·2^62 / 2^63⌉ = 2^63; out = ⌊(2^63 − 1)·0.995⌋
        assert_eq!(out, (((1u128 << 63) - 1) * 9950 / 10000) as u64);
        assert_eq!(a, pool(u64::MAX - out, 1 << 63, 0));
    }

    #[test]
    fn degenerate_pools_6_2() {
        // empty pool: the trader gets nothing and the input stays in the pool
        assert_eq!(buy(Pool::default(), 500).unwrap(), (0, pool(0, 500, 0)));
        assert_eq!(sell(Pool::default(), 500).unwrap(), (0, pool(500, 0, 0)));
        // only base: a buy of any size pays 99.5 % of it
        assert_eq!(buy(pool(1_000, 0, 0), 1).unwrap(), (995, pool(5, 1, 0)));
        assert_eq!(buy(pool(1_000, 0, 0), u64::MAX).unwrap().0, 995);
        // only base: a sell gets nothing (no quote to pay)
        assert_eq!(sell(pool(1_000, 0, 0), 7).unwrap(), (0, pool(1_007, 0, 0)));
        // only quote: the mirror images
        assert_eq!(sell(pool(0, 1_000, 0), 1).unwrap(), (995, pool(1, 5, 0)));
        assert_eq!(buy(pool(0, 1_000, 0), 7).unwrap(), (0, pool(0, 1_007, 0)));
        // shares are carried through untouched
        assert_eq!(buy(pool(10, 10, 9), 0).unwrap().1.shares, 9);
    }

    #[test]
    fn deposits() {
        // one-sided first deposit mints nothing and leaves a one-sided pool
        assert_eq!(deposit(Pool::default(), 1_000, 0).unwrap(), (0, pool(1_000, 0, 0)));
        // reserves left without shares go to the next depositor
        assert_eq!(deposit(pool(1_000, 0, 0), 0, 4_000).unwrap(), (2_000, pool(1_000, 4_000, 2_000)));
        // a deposit of nothing into a live pool mints nothing
        assert_eq!(deposit(pool(100, 100, 100), 0, 0).unwrap(), (0, pool(100, 100, 100)));
        // tiny deposits can mint 0 (the transaction rules decide about that)
        assert_eq!(deposit(pool(1_000_000, 1_000_000, 1_000_000), 1, 0).unwrap().0, 0);
        // shares but no product: undefined
        assert_eq!(deposit(pool(0, 5, 3), 1, 1), Err(PoolError::Invalid));
        // reserve overflow
        assert_eq!(deposit(pool(u64::MAX, 1, 1), 1, 0), Err(PoolError::Overflow));
        // share total overflow: S·k1/k0 > u64
        assert_eq!(deposit(pool(1, 1, u64::MAX), 3, 3), Err(PoolError::Overflow));
        // the largest first deposit: √((2^64−1)²) = 2^64 − 1
        assert_eq!(deposit(Pool::default(), u64::MAX, u64::MAX).unwrap().0, u64::MAX);
    }

    #[test]
    fn withdrawals() {
        let p = pool(1_000, 3_000, 7);
        // ⌊2·1000/7⌋ = 285, ⌊2·3000/7⌋ = 857
        assert_eq!(withdraw(p, 2).unwrap(), (285, 857, pool(715, 2_143, 5)));
        assert_eq!(withdraw(p, 7).unwrap(), (1_000, 3_000, Pool::default()));
        assert_eq!(withdraw(p, 0).unwrap(), (0, 0, p));
        assert_eq!(withdraw(p, 8), Err(PoolError::Invalid));
        assert_eq!(withdraw(pool(5, 5, 0), 0), Err(PoolError::Invalid));
        let full = pool(u64::MAX, u64::MAX, u64::MAX);
        assert_eq!(withdraw(full, u64::MAX - 1).unwrap().0, u64::MAX - 1);
    }

    #[test]
    fn integer_square_root() {
        assert_eq!(isqrt(0), 0);
        assert_eq!(isqrt(1), 1);
        assert_eq!(isqrt(3), 1);
        assert_eq!(isqrt(4), 2);
        assert_eq!(isqrt(5_000_000_000_000_000_000_000), 70_710_678_118);
        assert_eq!(isqrt(u128::MAX), u64::MAX);
        let mut x: u128 = 0x0123_4567_89AB_CDEF_FEDC_BA98_7654_3210;
        for _ in 0..20_000 {
            x = x.wrapping_mul(0x2545_F491_4F6C_DD1D_9E37_79B9_7F4A_7C15).wrapping_add(1);
            let n = x >> (x % 128);
            let r = u128::from(isqrt(n));
            assert!(r * r <= n && (r + 1).checked_mul(r + 1).is_none_or(|s| s > n), "{n}");
            let sq = r * r; // exact squares and their neighbours
            assert_eq!(u128::from(isqrt(sq)), r);
            if sq > 0 {
                assert_eq!(u128::from(isqrt(sq - 1)), r - 1);
            }
        }
    }

    #[test]
    fn exports() {
        let mut out = [0u8; 40];
        let rd = |o: &[u8], i: usize| u64::from_le_bytes(o[8 * i..8 * i + 8].try_into().unwrap());
        unsafe {
            assert_eq!(pool_buy(1_000_000, 2_000_000, 10_000, out.as_mut_ptr()), 0);
            assert_eq!((rd(&out, 0), rd(&out, 1), rd(&out, 2)), (4_950, 995_050, 2_010_000));
            assert_eq!(pool_sell(1_000_000, 2_000_000, 10_000, out.as_mut_ptr()), 0);
            assert_eq!((rd(&out, 0), rd(&out, 1), rd(&out, 2)), (19_701, 1_010_000, 1_980_299));
            assert_eq!(pool_buy(1, u64::MAX, 1, out.as_mut_ptr()), 1);
            assert_eq!(pool_deposit(0, 0, 0, 100_000_000_000, 50_000_000_000, out.as_mut_ptr()), 0);
            assert_eq!(rd(&out, 0), 70_710_678_118);
            assert_eq!(rd(&out, 3), 70_710_678_118);
            assert_eq!(pool_withdraw(1_000, 3_000, 7, 2, out.as_mut_ptr()), 0);
            assert_eq!((0..5).map(|i| rd(&out, i)).collect::<Vec<_>>(), [285, 857, 715, 2_143, 5]);
            assert_eq!(pool_withdraw(1_000, 3_000, 7, 8, out.as_mut_ptr()), 2);
        }
    }
}
