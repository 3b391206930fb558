//! Image atomics' arithmetic, one rule per operation for 32 and 64 bits, read
//! by the CPU interpreter and by the GPU diff's serial-order check.

pub use crate::ir::atomic::AtomicOp;

/// The new 32-bit value (CLRX MIMG page operations, with docs/errata.md S1–S3).
/// Float minimum/maximum return the non-NaN operand when one is NaN (IEEE
/// minNum/maxNum, Rust's `f32::min`/`max`).
///
/// WGSL twin: `apply32` in `shaders/atomic.wgsl` (docs/gpu.md, "Twins").
pub fn apply32(op: AtomicOp, old: u32, data: u32, cmp: u32) -> u32 {
    use AtomicOp::*;
    let f = f32::from_bits;
    match op {
        Swap => data,
        CmpSwap => {
            if old == cmp {
                data
            } else {
                old
            }
        }
        Add => old.wrapping_add(data),
        Sub => old.wrapping_sub(data),
        Rsub => data.wrapping_sub(old),
        Smin => (old as i32).min(data as i32) as u32,
        Umin => old.min(data),
        Smax => (old as i32).max(data as i32) as u32,
        Umax => old.max(data),
        And => old & data,
        Or => old | data,
        Xor => old ^ data,
        Inc => {
            if old >= data {
                0
            } else {
                old + 1
            }
        }
        Dec => {
            if old == 0 || old > data {
                data
            } else {
                old - 1
            }
        }
        FCmpSwap => {
            if f(old) == f(cmp) {
                data
            } else {
                old
            }
        }
        Fmin => fmin32(old, data),
        Fmax => fmax32(old, data),
    }
}

/// The total order FMIN/FMAX use on non-NaN floats (IEEE 754-2019 totalOrder
/// restricted to numbers): −0 sorts below +0, denormals compare exactly. A sign
/// flip of the magnitude bits makes it an unsigned integer order.
///
/// WGSL twin: `float_key32` in `shaders/atomic.wgsl` (docs/gpu.md, "Twins").
fn float_key32(b: u32) -> u32 {
    if b >> 31 == 1 {
        !b
    } else {
        b | 0x8000_0000
    }
}

/// FMIN (32-bit): a NaN operand yields the other operand (IEEE 754-2008
/// minNum, as the GCN3 ISA describes V_MIN_F32 in IEEE mode); otherwise the
/// lesser in `float_key32`'s order; on a tie (equal bits) the old value stays.
/// The ±0 order is gcnrun's choice (docs/semantics/images.md, "Image atomics").
///
/// WGSL twin: `fmin32` in `shaders/atomic.wgsl` (docs/gpu.md, "Twins").
pub fn fmin32(old: u32, data: u32) -> u32 {
    let nan = |b: u32| f32::from_bits(b).is_nan();
    if nan(old) {
        data
    } else if nan(data) || float_key32(data) >= float_key32(old) {
        old
    } else {
        data
    }
}

/// FMAX (32-bit): as [`fmin32`] with the greater value.
///
/// WGSL twin: `fmax32` in `shaders/atomic.wgsl` (docs/gpu.md, "Twins").
pub fn fmax32(old: u32, data: u32) -> u32 {
    let nan = |b: u32| f32::from_bits(b).is_nan();
    if nan(old) {
        data
    } else if nan(data) || float_key32(data) <= float_key32(old) {
        old
    } else {
        data
    }
}

/// The 64-bit [`float_key32`].
///
/// WGSL twin: `float_key64` in `shaders/atomic.wgsl` (docs/gpu.md, "Twins").
fn float_key64(b: u64) -> u64 {
    if b >> 63 == 1 {
        !b
    } else {
        b | 1 << 63
    }
}

/// FMIN on f64 bits, the rules of [`fmin32`].
pub fn fmin64(old: u64, data: u64) -> u64 {
    let nan = |b: u64| f64::from_bits(b).is_nan();
    if nan(old) {
        data
    } else if nan(data) || float_key64(data) >= float_key64(old) {
        old
    } else {
        data
    }
}

/// FMAX on f64 bits, the rules of [`fmin32`] with the greater value.
pub fn fmax64(old: u64, data: u64) -> u64 {
    let nan = |b: u64| f64::from_bits(b).is_nan();
    if nan(old) {
        data
    } else if nan(data) || float_key64(data) <= float_key64(old) {
        old
    } else {
        data
    }
}

/// The new 64-bit value: [`apply32`]'s rules on 64-bit integers / doubles.
///
/// WGSL twins: `apply64` in `shaders/atomic.wgsl`; `atomic64` (as one 64-bit atomic: native
/// where WGSL has the operation, else `apply64` in a compare-exchange loop ("Memory")) in
/// `shaders/atomic64.wgsl` (docs/gpu.md, "Twins").
pub fn apply64(op: AtomicOp, old: u64, data: u64, cmp: u64) -> u64 {
    use AtomicOp::*;
    let f = f64::from_bits;
    match op {
        Swap => data,
        CmpSwap => {
            if old == cmp {
                data
            } else {
                old
            }
        }
        Add => old.wrapping_add(data),
        Sub => old.wrapping_sub(data),
        Rsub => data.wrapping_sub(old),
        Smin => (old as i64).min(data as i64) as u64,
        Umin => old.min(data),
        Smax => (old as i64).max(data as i64) as u64,
        Umax => old.max(data),
        And => old & data,
        Or => old | data,
        Xor => old ^ data,
        Inc => {
            if old >= data {
                0
            } else {
                old + 1
            }
        }
        Dec => {
            if old == 0 || old > data {
                data
            } else {
                old - 1
            }
        }
        FCmpSwap => {
            if f(old) == f(cmp) {
                data
            } else {
                old
            }
        }
        Fmin => fmin64(old, data),
        Fmax => fmax64(old, data),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use AtomicOp::*;

    #[test]
    fn errata_rules() {
        // S1: INC increments while old < data, then wraps to 0 (CLRX's 32-bit
        // pseudo-code decrements: a typo).
        assert_eq!(apply32(Inc, 5, 10, 0), 6);
        assert_eq!(apply32(Inc, 10, 10, 0), 0);
        // DEC: old == 0 or old > data → data.
        assert_eq!(apply32(Dec, 0, 7, 0), 7);
        assert_eq!(apply32(Dec, 9, 7, 0), 7);
        assert_eq!(apply32(Dec, 5, 7, 0), 4);
        // S2: SUB = image − data, RSUB = data − image.
        assert_eq!(apply32(Sub, 10, 3, 0), 7);
        assert_eq!(apply32(Rsub, 10, 3, 0), 3u32.wrapping_sub(10));
    }

    #[test]
    fn signedness_and_wrap() {
        assert_eq!(apply32(Add, u32::MAX, 2, 0), 1);
        assert_eq!(apply32(Smin, 5, (-3i32) as u32, 0), (-3i32) as u32);
        assert_eq!(apply32(Umin, 5, (-3i32) as u32, 0), 5);
        assert_eq!(apply32(Smax, 5, (-3i32) as u32, 0), 5);
        assert_eq!(apply32(Umax, 5, (-3i32) as u32, 0), (-3i32) as u32);
        assert_eq!(apply64(Add, u64::MAX, 1, 0), 0);
        assert_eq!(apply64(Smin, 1, u64::MAX, 0), u64::MAX);
    }

    #[test]
    fn compare_swaps() {
        assert_eq!(apply32(CmpSwap, 4, 9, 4), 9);
        assert_eq!(apply32(CmpSwap, 4, 9, 5), 4);
        // As floats, −0 == +0, and NaN never equals.
        assert_eq!(apply32(FCmpSwap, 0x8000_0000, 7, 0), 7);
        assert_eq!(apply32(FCmpSwap, 0x7fc0_0000, 7, 0x7fc0_0000), 0x7fc0_0000);
        assert_eq!(
            apply32(Fmin, 2.0f32.to_bits(), 1.0f32.to_bits(), 0),
            1.0f32.to_bits()
        );
        assert_eq!(
            apply32(Fmax, f32::NAN.to_bits(), 1.0f32.to_bits(), 0),
            1.0f32.to_bits()
        );
    }
}
