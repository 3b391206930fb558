//! Property tests of the image atomics (`texture::atomic::apply32` / `apply64`)
//! against independent formulations in wider plain integer arithmetic, and of
//! the image data packing (D16, A16, DMASK) round trips.

use gcnrun::cpu::image::{select_dmask, store_rgba};
use gcnrun::texture::atomic::{apply32, apply64, AtomicOp};
use gcnrun::texture::data::{load_dwords, store_values, DataWidth};
use gcnrun::texture::format::NumFormat;
use gcnrun::texture::vaddr::unpack_a16;
use proptest::prelude::*;
use AtomicOp::*;

const INT_OPS: [AtomicOp; 14] = [
    Swap, CmpSwap, Add, Sub, Rsub, Smin, Umin, Smax, Umax, And, Or, Xor, Inc, Dec,
];

/// The reference for an integer op on `bits`-bit values held in u128, written
/// as modular arithmetic and comparisons of the mathematical integers (signed
/// ops compare the two's-complement values as i128), independent of the
/// wrapping_* helpers the interpreter uses.
fn reference(op: AtomicOp, bits: u32, old: u128, data: u128, cmp: u128) -> u128 {
    let m = 1u128 << bits;
    let signed = |v: u128| -> i128 {
        if v >= m / 2 {
            v as i128 - m as i128
        } else {
            v as i128
        }
    };
    match op {
        Swap => data,
        CmpSwap => {
            if old == cmp {
                data
            } else {
                old
            }
        }
        Add => (old + data) % m,
        Sub => (old + m - data) % m,
        Rsub => (data + m - old) % m,
        Smin => {
            if signed(old) <= signed(data) {
                old
            } else {
                data
            }
        }
        Smax => {
            if signed(old) >= signed(data) {
                old
            } else {
                data
            }
        }
        Umin => old.min(data),
        Umax => old.max(data),
        And | Or | Xor => {
            // Bit by bit.
            (0..bits).fold(0, |acc, b| {
                let (x, y) = (old >> b & 1, data >> b & 1);
                let r = match op {
                    And => x * y,
                    Or => (x + y).min(1),
                    _ => (x + y) % 2,
                };
                acc | r << b
            })
        }
        // INC counts 0, 1, …, data, 0 …: modulo data + 1 while old <= data.
        Inc => {
            if old <= data {
                (old + 1) % (data + 1)
            } else {
                0
            }
        }
        // DEC counts down modulo data + 1 (0 wraps to data); above data it
        // restarts at data.
        Dec => {
            if old <= data {
                (old + data) % (data + 1)
            } else {
                data
            }
        }
        FCmpSwap | Fmin | Fmax => unreachable!("integer ops only"),
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(4_000))]

    #[test]
    fn atomics32_match_integer_arithmetic(op_i in 0usize..14, old in any::<u32>(), data in any::<u32>(), cmp in any::<u32>(), same in any::<bool>()) {
        let op = INT_OPS[op_i];
        // Half the compare-swaps hit.
        let cmp = if same { old } else { cmp };
        let want = reference(op, 32, old.into(), data.into(), cmp.into());
        prop_assert_eq!(u128::from(apply32(op, old, data, cmp)), want, "{:?}", op);
    }

    #[test]
    fn atomics64_match_integer_arithmetic(op_i in 0usize..14, old in any::<u64>(), data in any::<u64>(), cmp in any::<u64>(), same in any::<bool>()) {
        let op = INT_OPS[op_i];
        let cmp = if same { old } else { cmp };
        let want = reference(op, 64, old.into(), data.into(), cmp.into());
        prop_assert_eq!(u128::from(apply64(op, old, data, cmp)), want, "{:?}", op);
    }

    /// Small operands make INC/DEC's wrap points and the signed/unsigned
    /// boundaries likely.
    #[test]
    fn atomics_near_the_edges(op_i in 0usize..14, old in 0u32..8, data in 0u32..8, hi in any::<bool>()) {
        let op = INT_OPS[op_i];
        let (old, data) = if hi { (old.wrapping_sub(4), data.wrapping_sub(4)) } else { (old, data) };
        let want = reference(op, 32, old.into(), data.into(), old.into());
        prop_assert_eq!(u128::from(apply32(op, old, data, old)), want, "{:?}", op);
        let (o64, d64) = (u64::from(old) | u64::from(hi) << 63, u64::from(data) | u64::from(hi) << 63);
        let want = reference(op, 64, o64.into(), d64.into(), o64.into());
        prop_assert_eq!(u128::from(apply64(op, o64, d64, o64)), want, "{:?}", op);
    }

    /// FMIN/FMAX return one of the operands: the smaller/larger by value, the
    /// non-NaN one when one is NaN; FCMPSWAP swaps exactly when the floats
    /// compare equal (−0 == +0, NaN never).
    #[test]
    fn float_atomics(a in any::<u32>(), b in any::<u32>(), d in any::<u32>()) {
        let (fa, fb) = (f32::from_bits(a), f32::from_bits(b));
        let min = apply32(Fmin, a, b, 0);
        let max = apply32(Fmax, a, b, 0);
        prop_assert!(min == a || min == b);
        prop_assert!(max == a || max == b);
        match (fa.is_nan(), fb.is_nan()) {
            (false, false) => {
                prop_assert!(f32::from_bits(min) <= fa && f32::from_bits(min) <= fb);
                prop_assert!(f32::from_bits(max) >= fa && f32::from_bits(max) >= fb);
            }
            (true, false) => prop_assert!(min == b && max == b),
            (false, true) => prop_assert!(min == a && max == a),
            (true, true) => prop_assert!(f32::from_bits(min).is_nan()),
        }
        let swapped = apply32(FCmpSwap, a, d, b);
        prop_assert_eq!(swapped, if fa == fb { d } else { a });
    }

    /// D16: components that are f16 values survive load packing and store
    /// unpacking, packed and unpacked; integer classes keep their low 16 bits.
    #[test]
    fn d16_round_trip(halves in prop::collection::vec(any::<u16>(), 1..=4), packed in any::<bool>()) {
        let width = if packed { DataWidth::Packed16 } else { DataWidth::Unpacked16 };
        let n = halves.len() as u32;
        let floats: Vec<u32> = halves
            .iter()
            .map(|&h| half::f16::from_bits(h).to_f32().to_bits())
            .collect();
        let dwords = load_dwords(&floats, width, false);
        prop_assert_eq!(dwords.len() as u32, width.dwords(n));
        let back = store_values(&dwords, n, width, NumFormat::Float);
        for (b, f) in back.iter().zip(&floats) {
            prop_assert!(b == f || (f32::from_bits(*b).is_nan() && f32::from_bits(*f).is_nan()));
        }
        let ints: Vec<u32> = halves.iter().map(|&h| u32::from(h)).collect();
        let dwords = load_dwords(&ints, width, true);
        prop_assert_eq!(store_values(&dwords, n, width, NumFormat::Uint), ints);
    }

    /// A16 unpacking is the inverse of packing two 16-bit values per dword.
    #[test]
    fn a16_round_trip(vals in prop::collection::vec(any::<u16>(), 0..8)) {
        let mut v = vals.clone();
        if v.len() % 2 == 1 {
            v.push(0);
        }
        let dwords: Vec<u32> = v.chunks(2).map(|p| u32::from(p[0]) | u32::from(p[1]) << 16).collect();
        let back: Vec<u32> = v.iter().map(|&x| u32::from(x)).collect();
        prop_assert_eq!(unpack_a16(&dwords), back);
    }

    /// DMASK: the components a store sends come back from a load with the same
    /// DMASK, and every component outside DMASK is zero.
    #[test]
    fn dmask_round_trip(dmask in 1u32..16, data in prop::array::uniform4(any::<u32>())) {
        let n = dmask.count_ones() as usize;
        let rgba = store_rgba(dmask, &data[..n]);
        prop_assert_eq!(select_dmask(dmask, rgba), data[..n].to_vec());
        for (c, &v) in rgba.iter().enumerate() {
            if dmask >> c & 1 == 0 {
                prop_assert_eq!(v, 0);
            }
        }
    }
}
