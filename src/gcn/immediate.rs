//! Constants: the bits an inline constant stands for in an operand of a given
//! type, and how LLVM 19 prints inline constants and literals.
//!
//! Printing follows LLVM's `AMDGPUInstPrinter::printImmediate*` as measured by
//! `tools/sweep_operands.py` (each rule below reproduces the probe texts of one
//! operand type: inline 0.5 and 1/(2π), literals 0x3118, 0x12345678, 0x40000000,
//! 0x3800, 0x38003800):
//!
//! | type | integer-looking | float names | otherwise |
//! |---|---|---|---|
//! | B32, V2I16 | i32 in −16..64 | f32 | hex |
//! | F16 | low half as i16 in −16..64 | f16 of the low half | hex of the low half |
//! | I16 | i32 in −16..64 | f32 | hex of the low half |
//! | B64 | 0..64 | – | hex |
//! | F64 | 0 | f64 of literal << 32 | hex |
//! | V2F16 | i32 in −16..64 | f16, if ≤ 0xffff | hex |
//! | BF16 | low half as i16 in −16..64 | bf16 of the low half | hex |
//! | V2BF16 | i32 in −16..64 | bf16, if ≤ 0xffff | hex |
//!
//! 1/(2π) (code 248, and its bit patterns among the names) exists from gfx8
//! (LLVM `FeatureInv2PiInlineImm`).

use super::signature::Ty;
use crate::arch::Gen;

/// Inline float constants by source code: code, name, f32, f16, bf16 and f64 bits.
const FLOATS: [(u32, &str, u32, u16, u16, u64); 9] = [
    (
        240,
        "0.5",
        0x3f00_0000,
        0x3800,
        0x3f00,
        0x3fe0_0000_0000_0000,
    ),
    (
        241,
        "-0.5",
        0xbf00_0000,
        0xb800,
        0xbf00,
        0xbfe0_0000_0000_0000,
    ),
    (
        242,
        "1.0",
        0x3f80_0000,
        0x3c00,
        0x3f80,
        0x3ff0_0000_0000_0000,
    ),
    (
        243,
        "-1.0",
        0xbf80_0000,
        0xbc00,
        0xbf80,
        0xbff0_0000_0000_0000,
    ),
    (
        244,
        "2.0",
        0x4000_0000,
        0x4000,
        0x4000,
        0x4000_0000_0000_0000,
    ),
    (
        245,
        "-2.0",
        0xc000_0000,
        0xc000,
        0xc000,
        0xc000_0000_0000_0000,
    ),
    (
        246,
        "4.0",
        0x4080_0000,
        0x4400,
        0x4080,
        0x4010_0000_0000_0000,
    ),
    (
        247,
        "-4.0",
        0xc080_0000,
        0xc400,
        0xc080,
        0xc010_0000_0000_0000,
    ),
    (
        248,
        "0.15915494",
        0x3e22_f983,
        0x3118,
        0x3e22,
        0x3fc4_5f30_6dc9_c882,
    ),
];

/// 1/(2π) as LLVM prints it in a 64-bit operand.
const INV2PI_F64: &str = "0.15915494309189532";

/// True when the generation has the 1/(2π) inline constant (gfx8+).
pub fn has_inv2pi(gen: Gen) -> bool {
    gen >= Gen::Gfx8
}

fn row(code: u32) -> Option<&'static (u32, &'static str, u32, u16, u16, u64)> {
    FLOATS.iter().find(|r| r.0 == code)
}

/// The bits inline float constant `code` (240–248) stands for in an operand of
/// type `ty`: f32 bits for 32-bit operands, f16/bf16 bits for 16-bit ones (packed
/// operands: the low half), f64 bits for 64-bit ones.
pub fn inline_float_bits(code: u32, ty: Ty) -> Option<u64> {
    let &(_, _, f32b, f16b, bf16b, f64b) = row(code)?;
    Some(match ty {
        Ty::B32 | Ty::V2I16 => u64::from(f32b),
        Ty::F16 | Ty::I16 | Ty::V2F16 => u64::from(f16b),
        Ty::Bf16 | Ty::V2Bf16 => u64::from(bf16b),
        Ty::B64 | Ty::F64 => f64b,
    })
}

/// How LLVM prints inline float constant `code` in an operand of type `ty`.
pub fn inline_float_text(code: u32, ty: Ty) -> Option<String> {
    let &(c, name, _, f16b, _, _) = row(code)?;
    Some(match ty {
        Ty::I16 => format!("0x{f16b:x}"),
        Ty::B64 | Ty::F64 if c == 248 => INV2PI_F64.to_string(),
        _ => name.to_string(),
    })
}

fn small_int(v: i64) -> Option<String> {
    (-16..=64).contains(&v).then(|| v.to_string())
}

fn f32_name(v: u32, gen: Gen) -> Option<&'static str> {
    FLOATS
        .iter()
        .find(|r| r.2 == v && (r.0 != 248 || has_inv2pi(gen)))
        .map(|r| r.1)
}

fn f16_name(v: u16, gen: Gen) -> Option<&'static str> {
    FLOATS
        .iter()
        .find(|r| r.3 == v && (r.0 != 248 || has_inv2pi(gen)))
        .map(|r| r.1)
}

fn bf16_name(v: u16, gen: Gen) -> Option<&'static str> {
    FLOATS
        .iter()
        .find(|r| r.4 == v && (r.0 != 248 || has_inv2pi(gen)))
        .map(|r| r.1)
}

fn f64_name(v: u64, gen: Gen) -> Option<&'static str> {
    FLOATS
        .iter()
        .find(|r| r.5 == v && (r.0 != 248 || has_inv2pi(gen)))
        .map(|r| if r.0 == 248 { INV2PI_F64 } else { r.1 })
}

/// How LLVM prints a 32-bit literal `v` in an operand of type `ty` (module doc).
pub fn literal_text(v: u32, ty: Ty, gen: Gen) -> String {
    let lo = v as u16;
    let hex = || format!("0x{v:x}");
    let hex16 = || format!("0x{lo:x}");
    let s32 = i64::from(v as i32);
    let s16 = i64::from(lo as i16);
    match ty {
        Ty::B32 | Ty::V2I16 => small_int(s32)
            .or_else(|| f32_name(v, gen).map(str::to_string))
            .unwrap_or_else(hex),
        Ty::F16 => small_int(s16)
            .or_else(|| f16_name(lo, gen).map(str::to_string))
            .unwrap_or_else(hex16),
        Ty::I16 => small_int(s32)
            .or_else(|| f32_name(v, gen).map(str::to_string))
            .unwrap_or_else(hex16),
        Ty::B64 => {
            if v <= 64 {
                v.to_string()
            } else {
                hex()
            }
        }
        Ty::F64 => {
            if v == 0 {
                "0".to_string()
            } else if let Some(n) = f64_name(u64::from(v) << 32, gen) {
                n.to_string()
            } else if gen <= Gen::Gfx7 && v <= 64 {
                // No LLVM disassembler to follow on SI/CI, and llvm-mc reads
                // `0x5` in an f64 operand as the inline integer 5: spell the
                // double (whose low dword is 0) so the text reassembles to this
                // literal. (Larger hex values it takes as the high dword.)
                format!("{:e}", f64::from_bits(u64::from(v) << 32))
            } else {
                hex()
            }
        }
        Ty::V2F16 => small_int(s32)
            .or_else(|| {
                (v <= 0xffff)
                    .then(|| f16_name(lo, gen))
                    .flatten()
                    .map(str::to_string)
            })
            .unwrap_or_else(hex),
        Ty::Bf16 => small_int(s16)
            .or_else(|| bf16_name(lo, gen).map(str::to_string))
            .unwrap_or_else(hex),
        Ty::V2Bf16 => small_int(s32)
            .or_else(|| {
                (v <= 0xffff)
                    .then(|| bf16_name(lo, gen))
                    .flatten()
                    .map(str::to_string)
            })
            .unwrap_or_else(hex),
    }
}

/// The value a 32-bit literal gives an operand of type `ty`, as LLVM decodes
/// it: the high dword for f64, zero-extended otherwise.
pub fn literal_bits(v: u32, ty: Ty) -> u64 {
    match ty {
        Ty::F64 => u64::from(v) << 32,
        _ => u64::from(v),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The probe texts of tools/sweep_operands.py, per type (gfx10).
    #[test]
    fn probe_texts_per_type() {
        let probes = [0x3118, 0x1234_5678, 0x4000_0000, 0x3800, 0x3800_3800];
        let cases: &[(Ty, [&str; 5])] = &[
            (
                Ty::B32,
                ["0x3118", "0x12345678", "2.0", "0x3800", "0x38003800"],
            ),
            (Ty::F16, ["0.15915494", "0x5678", "0", "0.5", "0.5"]),
            (Ty::I16, ["0x3118", "0x5678", "2.0", "0x3800", "0x3800"]),
            (
                Ty::B64,
                ["0x3118", "0x12345678", "0x40000000", "0x3800", "0x38003800"],
            ),
            (
                Ty::F64,
                ["0x3118", "0x12345678", "2.0", "0x3800", "0x38003800"],
            ),
            (
                Ty::V2F16,
                [
                    "0.15915494",
                    "0x12345678",
                    "0x40000000",
                    "0.5",
                    "0x38003800",
                ],
            ),
            (
                Ty::V2Bf16,
                ["0x3118", "0x12345678", "0x40000000", "0x3800", "0x38003800"],
            ),
            (
                Ty::Bf16,
                ["0x3118", "0x12345678", "0", "0x3800", "0x38003800"],
            ),
        ];
        for (ty, want) in cases {
            for (p, w) in probes.iter().zip(want) {
                assert_eq!(literal_text(*p, *ty, Gen::Gfx10), *w, "{ty:?} {p:#x}");
            }
        }
        assert_eq!(inline_float_text(240, Ty::I16).unwrap(), "0x3800");
        assert_eq!(inline_float_text(248, Ty::F64).unwrap(), INV2PI_F64);
        assert_eq!(inline_float_bits(242, Ty::F16), Some(0x3c00));
    }
}
