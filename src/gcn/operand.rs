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
        251..=253 if gen >= Gen::Gfx8 => {
            name(["src_vccz", "src_execz", "src_scc"][(code - 251) as usize])
        }
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
