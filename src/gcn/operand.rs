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
        (first % align == 0 && first + count - 1 <= max_sgpr(arch)).then(|| spell("s", first))
    } else if (tb..=123).contains(&first) {
        let idx = first - tb;
        (idx % align == 0 && idx + count <= 16).then(|| spell("ttmp", idx))
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
