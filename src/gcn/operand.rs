//! Register and operand spelling in LLVM's assembler syntax, shared by every class.

/// A VGPR tuple: `v5` for one register, `v[5:8]` for several.
pub fn vgpr_range(first: u32, count: u32) -> String {
    if count <= 1 {
        format!("v{first}")
    } else {
        format!("v[{}:{}]", first, first + count - 1)
    }
}

/// The highest SGPR number of a generation: s103 on gfx6/gfx7, s105 on gfx8+
/// (LLVM `SIRegisterInfo`; llvm-mc-19 accepts `s[100:103]` but not `s[104:107]`
/// as a 128-bit tuple on gfx8–gfx11).
pub fn max_sgpr(arch: &crate::arch::Arch) -> u32 {
    use crate::arch::Gen;
    if arch.gen <= Gen::Gfx7 {
        103
    } else {
        105
    }
}

/// The scalar-operand encoding of `ttmp0`: 112 on gfx6–gfx8, 108 on gfx9+
/// (LLVM `AMDGPUDisassembler`, `TTMP_VI_MIN` vs `TTMP_GFX9PLUS_MIN`; verified
/// with llvm-mc-19: srsrc field 28 is `ttmp[0:7]` on tonga, `ttmp[4:11]` on gfx900).
pub fn ttmp_base(arch: &crate::arch::Arch) -> u32 {
    use crate::arch::Gen;
    if arch.gen <= Gen::Gfx8 {
        112
    } else {
        108
    }
}

/// A scalar-register tuple of `count` registers starting at scalar-operand
/// encoding `first` (SGPR number, or the ttmp range), as LLVM's disassembler
/// spells it: `s[8:15]`, `ttmp[4:11]`, `s2` for one register. `None` when LLVM's
/// disassembler rejects it: an SGPR tuple past the last SGPR, a first register
/// outside the generation's ttmp encodings (gfx6–gfx8: 112–123, i.e. ttmp0–11;
/// gfx9+: 108–123), a ttmp tuple past ttmp15, or a tuple not aligned as LLVM's
/// register classes require (4 for 4 or more registers, 2 for pairs).
///
/// LLVM checks only the *first* ttmp against the generation: on gfx8,
/// `ttmp[8:15]` disassembles although ttmp12–15 do not exist there (its assembler
/// then rejects the text: "register not available on this GPU"; verified with
/// llvm-mc-19). [`ttmp_count`] gives the ttmps that do exist.
pub fn sgpr_tuple(first: u32, count: u32, arch: &crate::arch::Arch) -> Option<String> {
    let align = match count {
        0 => return None,
        1 => 1,
        2 => 2,
        _ => 4,
    };
    let spell = |prefix: &str, idx: u32| {
        if count == 1 {
            format!("{prefix}{idx}")
        } else {
            format!("{prefix}[{}:{}]", idx, idx + count - 1)
        }
    };
    let tb = ttmp_base(arch);
    if first <= max_sgpr(arch) {
        (first.is_multiple_of(align) && first + count - 1 <= max_sgpr(arch))
            .then(|| spell("s", first))
    } else if (tb..=123).contains(&first) {
        let idx = first - tb;
        (idx.is_multiple_of(align) && idx + count <= 16).then(|| spell("ttmp", idx))
    } else {
        None
    }
}

/// How many trap-temporary SGPRs exist: 12 on gfx6–gfx8 (ttmp0–11), 16 on gfx9+.
pub fn ttmp_count(arch: &crate::arch::Arch) -> u32 {
    use crate::arch::Gen;
    if arch.gen <= Gen::Gfx8 {
        12
    } else {
        16
    }
}

/// The 32-bit float inline constants (source codes 240–248) as LLVM prints
/// them, with their bit patterns (AMD ISA "inline constants"; verified with
/// llvm-mc-19 on `s_mov_b32`). 248 is 1/(2π), a gfx8+ constant.
pub const FLOAT_INLINE: [(u32, &str, u32); 9] = [
    (240, "0.5", 0x3f00_0000),
    (241, "-0.5", 0xbf00_0000),
    (242, "1.0", 0x3f80_0000),
    (243, "-1.0", 0xbf80_0000),
    (244, "2.0", 0x4000_0000),
    (245, "-2.0", 0xc000_0000),
    (246, "4.0", 0x4080_0000),
    (247, "-4.0", 0xc080_0000),
    (248, "0.15915494", 0x3e22_f983),
];

/// How LLVM prints a 32-bit literal of a 32-bit integer/bit operand: like the
/// inline constant it equals (`5`, `-16`, `0.5`), else `0x…`.
pub fn literal32_text(v: u32) -> String {
    let signed = v as i32;
    if (-16..=64).contains(&signed) {
        return signed.to_string();
    }
    match FLOAT_INLINE.iter().find(|&&(_, _, bits)| bits == v) {
        Some(&(_, name, _)) => name.to_string(),
        None => format!("0x{v:x}"),
    }
}

/// A 32-bit scalar source operand (SSRC, or a VOP `src0` below 256) as LLVM 19
/// prints it for a 32-bit integer/bit operand; `None` for codes that are not a
/// valid 32-bit scalar source of the generation. `literal` is the dword that
/// follows the instruction, for code 255.
///
/// Codes (AMD ISA "scalar operands"; checked with llvm-mc-19 by sweeping
/// `s_mov_b32 s0, <code>` on tonga, gfx900, gfx1030, gfx1100):
/// 102–105 are flat_scratch/xnack_mask on gfx8/gfx9 (flat_scratch 104/105 on
/// gfx7), SGPRs on gfx10+; 108–111 are tba/tma on gfx6–gfx8, ttmp0–3 on gfx9+;
/// m0 is 124 and null 125, swapped on gfx11.
pub fn scalar_src32(code: u32, arch: &crate::arch::Arch, literal: Option<u32>) -> Option<String> {
    use crate::arch::Gen;
    let gen = arch.gen;
    let name = |s: &str| Some(s.to_string());
    match code {
        0..=101 => Some(format!("s{code}")),
        102..=105 => match (gen, code) {
            (Gen::Gfx6, 102 | 103) | (Gen::Gfx7, 102 | 103) => Some(format!("s{code}")),
            (Gen::Gfx7, 104) => name("flat_scratch_lo"),
            (Gen::Gfx7, 105) => name("flat_scratch_hi"),
            (Gen::Gfx8 | Gen::Gfx9, _) => name(
                [
                    "flat_scratch_lo",
                    "flat_scratch_hi",
                    "xnack_mask_lo",
                    "xnack_mask_hi",
                ][(code - 102) as usize],
            ),
            (Gen::Gfx10 | Gen::Gfx11, _) => Some(format!("s{code}")),
            _ => None,
        },
        106 => name("vcc_lo"),
        107 => name("vcc_hi"),
        108..=123 => {
            let tb = ttmp_base(arch);
            if code >= tb {
                Some(format!("ttmp{}", code - tb))
            } else {
                name(["tba_lo", "tba_hi", "tma_lo", "tma_hi"][(code - 108) as usize])
            }
        }
        124 if gen == Gen::Gfx11 => name("null"),
        124 => name("m0"),
        125 if gen == Gen::Gfx11 => name("m0"),
        125 if gen >= Gen::Gfx8 => name("null"),
        126 => name("exec_lo"),
        127 => name("exec_hi"),
        128..=192 => Some((code - 128).to_string()),
        193..=208 => Some(format!("-{}", code - 192)),
        235..=239 if gen >= Gen::Gfx8 => name(
            [
                "src_shared_base",
                "src_shared_limit",
                "src_private_base",
                "src_private_limit",
                "src_pops_exiting_wave_id",
            ][(code - 235) as usize],
        ),
        240..=247 => FLOAT_INLINE
            .iter()
            .find(|&&(c, _, _)| c == code)
            .map(|&(_, n, _)| n.to_string()),
        248 if gen >= Gen::Gfx8 => name("0.15915494"),
        // src_vccz, src_execz, src_scc: every generation (llvm-mc-19
        // -mcpu=tahiti assembles `s_mov_b32 s0, src_scc` to code 253).
        251..=253 => name(["src_vccz", "src_execz", "src_scc"][(code - 251) as usize]),
        255 => literal.map(literal32_text),
        _ => None,
    }
}

/// A 32-bit scalar destination (SDST, 7 bits): the register codes of
/// [`scalar_src32`] below 128 (`null` included where it exists).
pub fn scalar_dst32(code: u32, arch: &crate::arch::Arch) -> Option<String> {
    if code < 128 {
        scalar_src32(code, arch, None)
    } else {
        None
    }
}

// ---------------------------------------------------------------------------
// Typed operands

use super::immediate;
use super::signature::{accept, Fld, Ty};
use crate::arch::Gen;

/// A named register or inline value that is not a numbered SGPR/VGPR/TTMP.
/// A 64-bit name (`Vcc`, `Exec`, …) is the pair of its 32-bit halves.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[allow(missing_docs)]
pub enum Special {
    VccLo,
    VccHi,
    Vcc,
    ExecLo,
    ExecHi,
    Exec,
    M0,
    Null,
    FlatScratchLo,
    FlatScratchHi,
    FlatScratch,
    XnackMaskLo,
    XnackMaskHi,
    XnackMask,
    TbaLo,
    TbaHi,
    Tba,
    TmaLo,
    TmaHi,
    Tma,
    /// `src_shared_base` (235): the LDS aperture base (64-bit in 64-bit operands).
    SharedBase,
    SharedLimit,
    PrivateBase,
    PrivateLimit,
    PopsExitingWaveId,
    /// `src_vccz` (251).
    Vccz,
    /// `src_execz` (252).
    Execz,
    /// `src_scc` (253).
    Scc,
    /// `src_lds_direct` (254).
    LdsDirect,
}

impl Special {
    /// LLVM's spelling.
    pub fn name(self) -> &'static str {
        use Special::*;
        match self {
            VccLo => "vcc_lo",
            VccHi => "vcc_hi",
            Vcc => "vcc",
            ExecLo => "exec_lo",
            ExecHi => "exec_hi",
            Exec => "exec",
            M0 => "m0",
            Null => "null",
            FlatScratchLo => "flat_scratch_lo",
            FlatScratchHi => "flat_scratch_hi",
            FlatScratch => "flat_scratch",
            XnackMaskLo => "xnack_mask_lo",
            XnackMaskHi => "xnack_mask_hi",
            XnackMask => "xnack_mask",
            TbaLo => "tba_lo",
            TbaHi => "tba_hi",
            Tba => "tba",
            TmaLo => "tma_lo",
            TmaHi => "tma_hi",
            Tma => "tma",
            SharedBase => "src_shared_base",
            SharedLimit => "src_shared_limit",
            PrivateBase => "src_private_base",
            PrivateLimit => "src_private_limit",
            PopsExitingWaveId => "src_pops_exiting_wave_id",
            Vccz => "src_vccz",
            Execz => "src_execz",
            Scc => "src_scc",
            LdsDirect => "src_lds_direct",
        }
    }
}

/// One operand of a decoded instruction, as the hardware reads or writes it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Operand {
    /// `count` SGPRs from `first`.
    Sgpr {
        /// First SGPR number.
        first: u8,
        /// Registers.
        count: u8,
    },
    /// `count` VGPRs from `first`.
    Vgpr {
        /// First VGPR number.
        first: u8,
        /// Registers.
        count: u8,
    },
    /// One 16-bit half of a VGPR (gfx11 true16 operands: `v5.l`, `v5.h`).
    VgprHalf {
        /// The VGPR.
        reg: u8,
        /// The high half.
        hi: bool,
    },
    /// `count` trap temporaries from `ttmp{first}`.
    Ttmp {
        /// First trap temporary.
        first: u8,
        /// Registers.
        count: u8,
    },
    /// A named register or inline value.
    Special(Special),
    /// An inline integer constant, −16..=64.
    Int(i8),
    /// An inline float constant by source code (240–248); its bits depend on the
    /// operand's type ([`Operand::constant_bits`]).
    Float(u16),
    /// A 32-bit literal that follows the instruction.
    Literal(u32),
}

impl Operand {
    /// Registers the operand spans (1 for a constant or a 32-bit name).
    pub fn count(&self) -> u8 {
        match *self {
            Operand::Sgpr { count, .. }
            | Operand::Vgpr { count, .. }
            | Operand::Ttmp { count, .. } => count,
            Operand::Special(
                Special::Vcc
                | Special::Exec
                | Special::FlatScratch
                | Special::XnackMask
                | Special::Tba
                | Special::Tma,
            ) => 2,
            _ => 1,
        }
    }

    /// The value of a constant operand in an operand of type `ty`, as LLVM
    /// decodes it (an integer sign-extended to 64 bits, a float constant as the
    /// type's bit pattern, a literal per [`immediate::literal_bits`]); `None` for
    /// registers.
    pub fn constant_bits(&self, ty: Ty) -> Option<u64> {
        match *self {
            Operand::Int(i) => Some(i64::from(i) as u64),
            Operand::Float(code) => immediate::inline_float_bits(u32::from(code), ty),
            Operand::Literal(v) => Some(immediate::literal_bits(v, ty)),
            _ => None,
        }
    }

    /// LLVM 19's spelling in an operand of type `ty`.
    pub fn text(&self, ty: Ty, gen: Gen) -> String {
        match *self {
            Operand::Sgpr { first, count } => tuple_text("s", first, count),
            Operand::Vgpr { first, count } => tuple_text("v", first, count),
            Operand::VgprHalf { reg, hi } => format!("v{reg}.{}", if hi { 'h' } else { 'l' }),
            Operand::Ttmp { first, count } => tuple_text("ttmp", first, count),
            Operand::Special(s) => s.name().to_string(),
            Operand::Int(i) => i.to_string(),
            Operand::Float(code) => {
                immediate::inline_float_text(u32::from(code), ty).unwrap_or_default()
            }
            Operand::Literal(v) => immediate::literal_text(v, ty, gen),
        }
    }

    /// True for a constant (inline or literal), which VOP3 prints as `neg(…)`
    /// rather than with a `-`.
    pub fn is_constant(&self) -> bool {
        matches!(
            self,
            Operand::Int(_) | Operand::Float(_) | Operand::Literal(_)
        )
    }
}

/// One typed operand of a decoded instruction: where it comes from, what it
/// is, and how constants in it are typed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TypedOperand {
    /// The encoding field (or `Vcc`/`Imm` for operands without one).
    pub field: Fld,
    /// The operand.
    pub operand: Operand,
    /// The type constants in it have (for registers: 32- or 64-bit by width).
    pub ty: Ty,
}

fn tuple_text(prefix: &str, first: u8, count: u8) -> String {
    if count <= 1 {
        format!("{prefix}{first}")
    } else {
        format!(
            "{prefix}[{first}:{}]",
            u32::from(first) + u32::from(count) - 1
        )
    }
}

/// The alignment LLVM's scalar register classes give a tuple of `count`
/// registers: 1, 2 for pairs, 4 for wider tuples.
fn tuple_align(count: u8) -> u32 {
    match count {
        0 | 1 => 1,
        2 => 2,
        _ => 4,
    }
}

/// Decodes a source/destination code (SALU 8-bit, VOP 9-bit, SDST 7-bit codes
/// are the same numbers) of an operand spanning `count` registers, accepting the
/// kinds of code in `accepts` ([`accept`]). `literal` is the dword that follows
/// the instruction. `Err` says why LLVM's disassembler rejects the code.
///
/// Register tuples follow LLVM's disassembler (checked by the differential
/// tests): SGPR and TTMP tuples are aligned down (pairs to even, wider tuples
/// to a multiple of 4) and every register must exist; VGPR tuples must end by
/// v255.
pub fn decode_code(
    code: u32,
    count: u8,
    accepts: u16,
    literal: Option<u32>,
    gen: Gen,
) -> Result<Operand, String> {
    use Special::*;
    let wide = count >= 2;
    let need = |bit: u16, op: Operand| -> Result<Operand, String> {
        if accepts & bit != 0 {
            Ok(op)
        } else {
            Err(format!("operand code {code} is not allowed here"))
        }
    };
    let pick = |lo: Special, pair: Special| -> Result<Operand, String> {
        match count {
            1 => Ok(Operand::Special(lo)),
            2 => Ok(Operand::Special(pair)),
            _ => Err(format!(
                "{} cannot start a {count}-register tuple",
                lo.name()
            )),
        }
    };
    let last_sgpr = match gen {
        Gen::Gfx6 | Gen::Gfx7 => 103,
        Gen::Gfx8 | Gen::Gfx9 => 101,
        _ => 105,
    };
    match code {
        256..=511 if accepts & accept::TRUE16 != 0 => Ok(Operand::VgprHalf {
            reg: ((code - 256) & 0x7f) as u8,
            hi: (code - 256) & 0x80 != 0,
        }),
        256..=511 => {
            let first = code - 256;
            if first + u32::from(count.max(1)) > 256 {
                return Err(format!("v{first} + {count} registers runs past v255"));
            }
            if first >= 128 && accepts & accept::VGPR_HI == 0 {
                return Err(format!("v{first}: this operand takes v0-v127 only"));
            }
            need(
                accept::VGPR,
                Operand::Vgpr {
                    first: first as u8,
                    count: count.max(1),
                },
            )
        }
        c if c <= last_sgpr => {
            // LLVM's disassembler aligns a tuple down to its register class
            // (pairs even, wider tuples to 4) and prints that, with a warning
            // only in its comment stream (`createSRegOperand`): `s[18:19]` for
            // code 19 of a 64-bit operand.
            let first = c & !(tuple_align(count) - 1);
            // Quads and wider tuples may end at s103 on every generation
            // (llvm-mc-19 decodes `s[100:103]` as an 128-bit operand on gfx8/gfx9,
            // where s102/s103 are flat_scratch as single registers or pairs).
            let last = if count >= 3 { 103 } else { last_sgpr };
            if first + u32::from(count.max(1)) - 1 > last {
                return Err(format!("s{c} cannot start a {count}-register tuple"));
            }
            need(
                accept::SGPR,
                Operand::Sgpr {
                    first: first as u8,
                    count: count.max(1),
                },
            )
        }
        102..=105 if matches!(gen, Gen::Gfx8 | Gen::Gfx9) => {
            let op = match (code, count) {
                (102, 1) => Operand::Special(FlatScratchLo),
                (103, 1) => Operand::Special(FlatScratchHi),
                (104, 1) => Operand::Special(XnackMaskLo),
                (105, 1) => Operand::Special(XnackMaskHi),
                (102, 2) => Operand::Special(FlatScratch),
                (104, 2) => Operand::Special(XnackMask),
                _ => {
                    return Err(format!(
                        "code {code} cannot start a {count}-register operand"
                    ))
                }
            };
            need(accept::FLAT_SCRATCH, op)
        }
        104 | 105 if gen == Gen::Gfx7 => {
            let op = match (code, count) {
                (104, 1) => Operand::Special(FlatScratchLo),
                (105, 1) => Operand::Special(FlatScratchHi),
                (104, 2) => Operand::Special(FlatScratch),
                _ => {
                    return Err(format!(
                        "code {code} cannot start a {count}-register operand"
                    ))
                }
            };
            need(accept::FLAT_SCRATCH, op)
        }
        106 => need(accept::VCC, pick(VccLo, Vcc)?),
        107 if !wide => need(accept::VCC, Operand::Special(VccHi)),
        108..=123 => {
            let tb = if gen <= Gen::Gfx8 { 112 } else { 108 };
            if code >= tb {
                // Aligned down like SGPR tuples.
                let idx = (code - tb) & !(tuple_align(count) - 1);
                if idx + u32::from(count.max(1)) > 16 {
                    return Err(format!("ttmp{idx} cannot start a {count}-register tuple"));
                }
                need(
                    accept::SGPR,
                    Operand::Ttmp {
                        first: idx as u8,
                        count: count.max(1),
                    },
                )
            } else {
                let op = match (code, count) {
                    (108, 1) => TbaLo,
                    (109, 1) => TbaHi,
                    (110, 1) => TmaLo,
                    (111, 1) => TmaHi,
                    (108, 2) => Tba,
                    (110, 2) => Tma,
                    _ => {
                        return Err(format!(
                            "code {code} cannot start a {count}-register operand"
                        ))
                    }
                };
                need(accept::SGPR, Operand::Special(op))
            }
        }
        124 | 125 => {
            let is_null = if gen == Gen::Gfx11 {
                code == 124
            } else {
                code == 125
            };
            if is_null {
                if gen <= Gen::Gfx7 {
                    return Err("gfx6/gfx7 have no null operand".into());
                }
                need(accept::NULL, Operand::Special(Null))
            } else if wide {
                Err("m0 is not a 64-bit operand".into())
            } else {
                need(accept::M0, Operand::Special(M0))
            }
        }
        126 => need(accept::EXEC, pick(ExecLo, Exec)?),
        127 if !wide => need(accept::EXEC, Operand::Special(ExecHi)),
        128..=192 => need(accept::CONST, Operand::Int((code - 128) as i8)),
        193..=208 => need(accept::CONST, Operand::Int(-((code - 192) as i8))),
        235..=239 if gen >= Gen::Gfx8 => {
            let s = [
                SharedBase,
                SharedLimit,
                PrivateBase,
                PrivateLimit,
                PopsExitingWaveId,
            ][(code - 235) as usize];
            need(accept::APERTURE, Operand::Special(s))
        }
        240..=247 => need(accept::CONST, Operand::Float(code as u16)),
        248 if immediate::has_inv2pi(gen) => need(accept::CONST, Operand::Float(248)),
        // src_vccz, src_execz, src_scc: every generation (llvm-mc-19
        // -mcpu=tahiti assembles `s_mov_b32 s0, src_scc` to code 253).
        251..=253 => {
            let s = [Vccz, Execz, Scc][(code - 251) as usize];
            need(accept::COND, Operand::Special(s))
        }
        254 => need(accept::LDS_DIRECT, Operand::Special(LdsDirect)),
        255 => match literal {
            Some(v) => need(accept::LITERAL, Operand::Literal(v)),
            None => Err("literal operand without a literal dword".into()),
        },
        _ => Err(format!("operand code {code} is not an operand of {gen:?}")),
    }
}
