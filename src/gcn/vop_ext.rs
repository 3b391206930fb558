//! The extension dwords of vector ALU instructions: DPP16, DPP8 and SDWA —
//! their fields, LLVM 19's spelling, and the values LLVM rejects.
//!
//! DPP16 (LLVM `printDPPCtrl` and friends): `dpp_ctrl` 8:0, `fi` 10 (gfx10+),
//! `bound_ctrl` 11, `bank_mask` 19:16, `row_mask` 23:20 of the DPP bits below
//! the source byte (the caller passes the dword's bits from bit 8). DPP8: eight
//! 3-bit lane selects. SDWA: `dst_sel` 2:0, `dst_unused` 4:3, `src0_sel` 10:8,
//! `src1_sel` 18:16 (of the dword's bits from bit 8).

use crate::arch::Gen;

/// The `dpp_ctrl` text, or why LLVM rejects the value on `gen` (it prints a
/// `/* … */` comment instead of a control).
pub fn dpp_ctrl_text(ctrl: u32, gen: Gen) -> Result<String, String> {
    let g10 = gen >= Gen::Gfx10;
    let n = ctrl & 0xf;
    Ok(match ctrl {
        0x000..=0x0ff => format!(
            "quad_perm:[{},{},{},{}]",
            ctrl & 3,
            (ctrl >> 2) & 3,
            (ctrl >> 4) & 3,
            (ctrl >> 6) & 3
        ),
        0x101..=0x10f => format!("row_shl:{n}"),
        0x111..=0x11f => format!("row_shr:{n}"),
        0x121..=0x12f => format!("row_ror:{n}"),
        0x130 if !g10 => "wave_shl:1".into(),
        0x134 if !g10 => "wave_rol:1".into(),
        0x138 if !g10 => "wave_shr:1".into(),
        0x13c if !g10 => "wave_ror:1".into(),
        0x140 => "row_mirror".into(),
        0x141 => "row_half_mirror".into(),
        0x142 if !g10 => "row_bcast:15".into(),
        0x143 if !g10 => "row_bcast:31".into(),
        0x150..=0x15f if g10 => format!("row_share:{n}"),
        0x160..=0x16f if g10 => format!("row_xmask:{n}"),
        _ => {
            return Err(format!(
                "dpp_ctrl {ctrl:#x} is not a DPP control of {gen:?}"
            ))
        }
    })
}

/// The DPP16 suffix from the DPP bits (bit 0 = `dpp_ctrl` bit 0): control,
/// `row_mask`, `bank_mask`, then `bound_ctrl:1` and `fi:1` when set.
pub fn dpp16_suffix(d: u32, gen: Gen) -> Result<String, String> {
    let mut s = dpp_ctrl_text(d & 0x1ff, gen)?;
    s.push_str(&format!(
        " row_mask:0x{:x} bank_mask:0x{:x}",
        (d >> 20) & 0xf,
        (d >> 16) & 0xf
    ));
    if d >> 11 & 1 == 1 {
        s.push_str(" bound_ctrl:1");
    }
    if d >> 10 & 1 == 1 && gen >= Gen::Gfx10 {
        s.push_str(" fi:1");
    }
    Ok(s)
}

/// `dpp8:[…]` from the 24 selector bits; `fi:1` with the fetch-inactive
/// selector (SRC0 0xEA).
pub fn dpp8_suffix(sel: u32, fi: bool) -> String {
    let lanes: Vec<String> = (0..8).map(|i| ((sel >> (3 * i)) & 7).to_string()).collect();
    let mut s = format!("dpp8:[{}]", lanes.join(","));
    if fi {
        s.push_str(" fi:1");
    }
    s
}

/// SDWA operand selects.
pub const SDWA_SEL: [&str; 7] = [
    "BYTE_0", "BYTE_1", "BYTE_2", "BYTE_3", "WORD_0", "WORD_1", "DWORD",
];
/// SDWA `dst_unused` values.
pub const SDWA_UNUSED: [&str; 3] = ["UNUSED_PAD", "UNUSED_SEXT", "UNUSED_PRESERVE"];

/// A select's name; 7 is no select (llvm-objdump-19 crashes on it, so gcnrun
/// calls the words invalid).
pub fn sdwa_sel(v: u32) -> Result<&'static str, String> {
    SDWA_SEL
        .get(v as usize)
        .copied()
        .ok_or_else(|| format!("SDWA select {v} does not exist"))
}

/// A `dst_unused` name. 3 names nothing; llvm-objdump-19 prints it as
/// `UNUSED_PAD` (and re-encodes 0), so gcnrun does too.
pub fn sdwa_unused(v: u32) -> &'static str {
    SDWA_UNUSED
        .get(v as usize)
        .copied()
        .unwrap_or(SDWA_UNUSED[0])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn controls_per_generation() {
        assert_eq!(
            dpp_ctrl_text(0xe4, Gen::Gfx9).unwrap(),
            "quad_perm:[0,1,2,3]"
        );
        assert_eq!(dpp_ctrl_text(0x142, Gen::Gfx9).unwrap(), "row_bcast:15");
        assert!(dpp_ctrl_text(0x142, Gen::Gfx10).is_err());
        assert_eq!(dpp_ctrl_text(0x151, Gen::Gfx10).unwrap(), "row_share:1");
        assert!(dpp_ctrl_text(0x100, Gen::Gfx11).is_err());
        assert_eq!(dpp8_suffix(0xfac688, true), "dpp8:[0,1,2,3,4,5,6,7] fi:1");
        assert!(sdwa_sel(7).is_err());
        assert_eq!(sdwa_unused(3), "UNUSED_PAD");
    }
}
