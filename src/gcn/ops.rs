//! Opcode → mnemonic lookups over the generated per-generation tables
//! ([`super::ops_tables`], produced by `tools/sweep_opcodes.py` from llvm-mc-19),
//! and the few opcode facts that change an instruction's length.

use super::ops_tables::{self as t, OpTable};
use super::Encoding;
use crate::arch::Gen;

/// The mnemonic table of a class on a generation, where gcnrun has one.
///
/// `None` means "no table for this class" (SMRD exists only on gfx6/gfx7, SMEM
/// only on gfx8+, VOP3P only on gfx9+); an opcode missing from a table that
/// exists is one LLVM does not decode.
pub fn table(gen: Gen, enc: Encoding) -> Option<OpTable> {
    use Encoding as E;
    use Gen::*;
    Some(match (gen, enc) {
        (Gfx6, E::Sop1) => t::GFX6_SOP1,
        (Gfx6, E::Sop2) => t::GFX6_SOP2,
        (Gfx6, E::Sopk) => t::GFX6_SOPK,
        (Gfx6, E::Sopc) => t::GFX6_SOPC,
        (Gfx6, E::Sopp) => t::GFX6_SOPP,
        (Gfx6, E::Smrd) => t::GFX6_SMRD,
        (Gfx6, E::Vop1) => t::GFX6_VOP1,
        (Gfx6, E::Vop2) => t::GFX6_VOP2,
        (Gfx6, E::Vopc) => t::GFX6_VOPC,
        (Gfx6, E::Vop3) => t::GFX6_VOP3,
        (Gfx6, E::Ds) => t::GFX6_DS,
        (Gfx6, E::Mubuf) => t::GFX6_MUBUF,
        (Gfx6, E::Mtbuf) => t::GFX6_MTBUF,
        (Gfx7, E::Sop1) => t::GFX7_SOP1,
        (Gfx7, E::Sop2) => t::GFX7_SOP2,
        (Gfx7, E::Sopk) => t::GFX7_SOPK,
        (Gfx7, E::Sopc) => t::GFX7_SOPC,
        (Gfx7, E::Sopp) => t::GFX7_SOPP,
        (Gfx7, E::Smrd) => t::GFX7_SMRD,
        (Gfx7, E::Vop1) => t::GFX7_VOP1,
        (Gfx7, E::Vop2) => t::GFX7_VOP2,
        (Gfx7, E::Vopc) => t::GFX7_VOPC,
        (Gfx7, E::Vop3) => t::GFX7_VOP3,
        (Gfx7, E::Ds) => t::GFX7_DS,
        (Gfx7, E::Mubuf) => t::GFX7_MUBUF,
        (Gfx7, E::Mtbuf) => t::GFX7_MTBUF,
        (Gfx7, E::Flat) => t::GFX7_FLAT,
        (Gfx8, E::Sop1) => t::GFX8_SOP1,
        (Gfx8, E::Sop2) => t::GFX8_SOP2,
        (Gfx8, E::Sopk) => t::GFX8_SOPK,
        (Gfx8, E::Sopc) => t::GFX8_SOPC,
        (Gfx8, E::Sopp) => t::GFX8_SOPP,
        (Gfx8, E::Smem) => t::GFX8_SMEM,
        (Gfx8, E::Vop1) => t::GFX8_VOP1,
        (Gfx8, E::Vop2) => t::GFX8_VOP2,
        (Gfx8, E::Vopc) => t::GFX8_VOPC,
        (Gfx8, E::Vop3) => t::GFX8_VOP3,
        (Gfx8, E::Ds) => t::GFX8_DS,
        (Gfx8, E::Mubuf) => t::GFX8_MUBUF,
        (Gfx8, E::Mtbuf) => t::GFX8_MTBUF,
        (Gfx8, E::Flat) => t::GFX8_FLAT,
        (Gfx9, E::Sop1) => t::GFX9_SOP1,
        (Gfx9, E::Sop2) => t::GFX9_SOP2,
        (Gfx9, E::Sopk) => t::GFX9_SOPK,
        (Gfx9, E::Sopc) => t::GFX9_SOPC,
        (Gfx9, E::Sopp) => t::GFX9_SOPP,
        (Gfx9, E::Smem) => t::GFX9_SMEM,
        (Gfx9, E::Vop1) => t::GFX9_VOP1,
        (Gfx9, E::Vop2) => t::GFX9_VOP2,
        (Gfx9, E::Vopc) => t::GFX9_VOPC,
        (Gfx9, E::Vop3) => t::GFX9_VOP3,
        (Gfx9, E::Vop3p) => t::GFX9_VOP3P,
        (Gfx9, E::Ds) => t::GFX9_DS,
        (Gfx9, E::Mubuf) => t::GFX9_MUBUF,
        (Gfx9, E::Mtbuf) => t::GFX9_MTBUF,
        (Gfx9, E::Flat) => t::GFX9_FLAT,
        (Gfx10, E::Sop1) => t::GFX10_SOP1,
        (Gfx10, E::Sop2) => t::GFX10_SOP2,
        (Gfx10, E::Sopk) => t::GFX10_SOPK,
        (Gfx10, E::Sopc) => t::GFX10_SOPC,
        (Gfx10, E::Sopp) => t::GFX10_SOPP,
        (Gfx10, E::Smem) => t::GFX10_SMEM,
        (Gfx10, E::Vop1) => t::GFX10_VOP1,
        (Gfx10, E::Vop2) => t::GFX10_VOP2,
        (Gfx10, E::Vopc) => t::GFX10_VOPC,
        (Gfx10, E::Vop3) => t::GFX10_VOP3,
        (Gfx10, E::Vop3p) => t::GFX10_VOP3P,
        (Gfx10, E::Ds) => t::GFX10_DS,
        (Gfx10, E::Mubuf) => t::GFX10_MUBUF,
        (Gfx10, E::Mtbuf) => t::GFX10_MTBUF,
        (Gfx10, E::Flat) => t::GFX10_FLAT,
        (Gfx11, E::Sop1) => t::GFX11_SOP1,
        (Gfx11, E::Sop2) => t::GFX11_SOP2,
        (Gfx11, E::Sopk) => t::GFX11_SOPK,
        (Gfx11, E::Sopc) => t::GFX11_SOPC,
        (Gfx11, E::Sopp) => t::GFX11_SOPP,
        (Gfx11, E::Smem) => t::GFX11_SMEM,
        (Gfx11, E::Vop1) => t::GFX11_VOP1,
        (Gfx11, E::Vop2) => t::GFX11_VOP2,
        (Gfx11, E::Vopc) => t::GFX11_VOPC,
        (Gfx11, E::Vop3) => t::GFX11_VOP3,
        (Gfx11, E::Vop3p) => t::GFX11_VOP3P,
        (Gfx11, E::Ds) => t::GFX11_DS,
        (Gfx11, E::Mubuf) => t::GFX11_MUBUF,
        (Gfx11, E::Mtbuf) => t::GFX11_MTBUF,
        (Gfx11, E::Flat) => t::GFX11_FLAT,
        _ => return None,
    })
}

/// Looks `key` up in a sorted table.
pub fn lookup(table: OpTable, key: u32) -> Option<&'static str> {
    let key = u16::try_from(key).ok()?;
    table
        .binary_search_by_key(&key, |&(k, _)| k)
        .ok()
        .and_then(|i| table.get(i))
        .map(|&(_, name)| name)
}

/// The mnemonic of opcode `key` of class `enc` on `gen`, where the table has it.
pub fn name(gen: Gen, enc: Encoding, key: u32) -> Option<&'static str> {
    table(gen, enc).and_then(|t| lookup(t, key))
}

/// The SOPK opcode of `s_setreg_imm32_b32`, the one SOPK that is followed by a
/// 32-bit literal (swept with llvm-mc-19: 0x15 on gfx6/7/10, 0x14 on gfx8/9,
/// 0x13 on gfx11).
pub fn sopk_setreg_imm32(gen: Gen) -> u32 {
    let ops: &[u16] = match gen {
        Gen::Gfx6 => t::GFX6_SOPK_LITERAL,
        Gen::Gfx7 => t::GFX7_SOPK_LITERAL,
        Gen::Gfx8 => t::GFX8_SOPK_LITERAL,
        Gen::Gfx9 => t::GFX9_SOPK_LITERAL,
        Gen::Gfx10 => t::GFX10_SOPK_LITERAL,
        Gen::Gfx11 => t::GFX11_SOPK_LITERAL,
    };
    ops.first().map_or(u32::MAX, |&op| u32::from(op))
}

/// True for SOP1 opcodes whose SSRC0 field is not a source operand, so that
/// 255 there is no literal: `s_getpc_b64` (no source) and gfx11
/// `s_sendmsg_rtn_b32/b64` (SSRC0 holds the message id). Found by
/// tests/llvm_diff_stream.rs: llvm-mc-19 decodes these 4 bytes long.
pub fn sop1_src_is_not_operand(gen: Gen, op: u32) -> bool {
    matches!(
        name(gen, Encoding::Sop1, op),
        Some("s_getpc_b64" | "s_sendmsg_rtn_b32" | "s_sendmsg_rtn_b64")
    )
}

/// True for SOPC opcodes whose SSRC1 is an immediate (`s_set_gpr_idx_on`'s mode).
pub fn sopc_src1_is_imm(gen: Gen, op: u32) -> bool {
    name(gen, Encoding::Sopc, op) == Some("s_set_gpr_idx_on")
}

/// True for the VOP2 opcodes that always carry a 32-bit literal: v_madmk/madak
/// (f32, and f16 on gfx8/9) and v_fmamk/fmaak (gfx10+), per the sweep.
pub fn vop2_has_literal(gen: Gen, op: u32) -> bool {
    let ops: &[u16] = match gen {
        Gen::Gfx6 => t::GFX6_VOP2_LITERAL,
        Gen::Gfx7 => t::GFX7_VOP2_LITERAL,
        Gen::Gfx8 => t::GFX8_VOP2_LITERAL,
        Gen::Gfx9 => t::GFX9_VOP2_LITERAL,
        Gen::Gfx10 => t::GFX10_VOP2_LITERAL,
        Gen::Gfx11 => t::GFX11_VOP2_LITERAL,
    };
    ops.iter().any(|&o| u32::from(o) == op)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tables_are_sorted_and_unique() {
        use Gen::*;
        for gen in [Gfx6, Gfx7, Gfx8, Gfx9, Gfx10, Gfx11] {
            for enc in [
                Encoding::Sop1,
                Encoding::Sop2,
                Encoding::Sopk,
                Encoding::Sopc,
                Encoding::Sopp,
                Encoding::Smrd,
                Encoding::Smem,
                Encoding::Vop1,
                Encoding::Vop2,
                Encoding::Vopc,
                Encoding::Vop3,
                Encoding::Vop3p,
                Encoding::Ds,
                Encoding::Mubuf,
                Encoding::Mtbuf,
                Encoding::Flat,
            ] {
                if let Some(t) = table(gen, enc) {
                    assert!(t.windows(2).all(|w| w[0].0 < w[1].0), "{gen:?} {enc}");
                }
            }
        }
    }

    #[test]
    fn lookups_agree_with_the_isa_manuals() {
        // s_endpgm is SOPP 1 on gfx6–gfx10 and 0x30 on gfx11 (AMD ISA manuals).
        assert_eq!(name(Gen::Gfx6, Encoding::Sopp, 1), Some("s_endpgm"));
        assert_eq!(name(Gen::Gfx11, Encoding::Sopp, 0x30), Some("s_endpgm"));
        assert_eq!(name(Gen::Gfx9, Encoding::Vop1, 1), Some("v_mov_b32_e32"));
        assert_eq!(name(Gen::Gfx9, Encoding::Vop1, 0x1_0000), None);
        assert_eq!(sopk_setreg_imm32(Gen::Gfx8), 0x14);
        assert!(vop2_has_literal(Gen::Gfx6, 0x20));
    }
}
