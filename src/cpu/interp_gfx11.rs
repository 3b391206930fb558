//! gfx11 (RDNA3) attribute interpolation: the LDSDIR loads `lds_param_load` and
//! `lds_direct_load`, and the VINTERP fused multiply-adds that read the loaded
//! parameters across the lanes of a quad (docs/semantics/interpolation.md, "gfx11
//! interpolation"; docs/errata.md IP1–IP4).
//!
//! Sources: AMD's RDNA3 ISA guide §16.13 (VINTERP pseudo-code and notes) and the
//! RDNA3.5 guide §12.2 "Pixel Parameter Interpolation" (LDSDIR fields, M0 layout,
//! LDS address, whole-quad EXEC); RDNA4 §16.14 states the lane order
//! `{P0, P10, P20, 0.0}` the RDNA3.5 text describes in words; Mesa ACO
//! (`emit_interp_instr_gfx11`: `v_interp_p10_f32 d, p, i, p` then
//! `v_interp_p2_f32 d, p, j, d`, op_sel 0x5 / 0x1 for the high f16 halves) shows
//! how a compiler feeds them.

use super::interp::{half_of, out_mod, src_mod};
use crate::ir::VinterpStep;
use crate::machine::lds::{check_param_m0, direct_address, param_address, LdsError};
use crate::machine::WaveState;
use crate::texture::convert::{canonical_nan_bits, f32_to_f16};

/// Lanes per quad.
const QUAD: u32 = 4;

/// The quads with at least one active lane: LDSDIR instructions "use EXEC per
/// quad (if any pixel is enabled in the quad, data is written to all 4
/// pixels/threads in the quad)" (RDNA3.5 ISA §12.2.1).
///
/// WGSL twin: `quad_live` (one quad's test, where the CPU iterates over the live quads) in
/// `shaders/interp.wgsl` (docs/gpu.md, "Twins").
fn live_quads(w: &WaveState) -> impl Iterator<Item = u32> {
    let exec = w.exec;
    (0..w.wave_size / QUAD).filter(move |q| (exec >> (q * QUAD)) & 0xf != 0)
}

/// `lds_param_load vdst, attrN.C`: lanes 0, 1, 2 of each live quad receive the
/// quad primitive's P0, P10, P20 dwords, lane 3 receives 0.0 (RDNA4 ISA §16.14
/// `{P0, P10, P20, 0.0}`; RDNA3.5 §12.2: "the 4th lane receives zero").
/// Addresses past the LDS read 0, as for VINTRP.
pub fn lds_param_load(w: &mut WaveState, vdst: u32, attr: u32, chan: u32) -> Result<(), LdsError> {
    check_param_m0(w.m0)?;
    let quads: Vec<u32> = live_quads(w).collect();
    for q in quads {
        for k in 0..QUAD {
            let v = if k < 3 {
                w.lds_dword(param_address(w.m0, attr, chan, q, k))
            } else {
                0
            };
            w.set_vgpr(vdst, q * QUAD + k, v);
        }
    }
    Ok(())
}

/// `lds_direct_load vdst`: the dword at [`direct_address`] into every lane of
/// every live quad (RDNA3.5 ISA §12.2: "broadcasts the data to a VGPR across all
/// lanes", EXEC per quad).
pub fn lds_direct_load(w: &mut WaveState, vdst: u32) -> Result<(), LdsError> {
    let v = w.lds_dword(direct_address(w.m0)?);
    let quads: Vec<u32> = live_quads(w).collect();
    for q in quads {
        for k in 0..QUAD {
            w.set_vgpr(vdst, q * QUAD + k, v);
        }
    }
    Ok(())
}

/// The operands of one VINTERP step for one lane, before the arithmetic.
struct Operands {
    /// The parameter (src0 of lane quad + 1 or + 2), its f16 half widened.
    param: f32,
    /// The barycentric (src1 of the lane itself).
    ij: f32,
    /// The addend: src2 of the quad's lane 0 (p10) or of the lane (p2).
    addend: f32,
}

/// The implicit quad broadcast of RDNA3 ISA §16.13: src0 is read from lane
/// `quad + 1` (p10: DPP8 {1,1,1,1,5,5,5,5}) or `quad + 2` (p2: DPP8
/// {2,2,2,2,6,6,6,6}), and p10's src2 from lane `quad + 0` (DPP8
/// {0,0,0,0,4,4,4,4}). The pseudo-code's `S0[lane.i % 4 + 1]` would cross into
/// the next quad; the DPP8 selects are followed (docs/errata.md IP1). The
/// source lanes are read whatever their EXEC bit: lds_param_load fills whole
/// quads precisely so that they can be.
fn operands(
    w: &WaveState,
    step: VinterpStep,
    src: [u32; 3],
    neg: u32,
    op_sel: u32,
    lane: u32,
) -> Operands {
    let quad = lane & !(QUAD - 1);
    let f16 = matches!(step, VinterpStep::P10F16F32 | VinterpStep::P2F16F32);
    let p10 = matches!(step, VinterpStep::P10F32 | VinterpStep::P10F16F32);
    let from = quad + if p10 { 1 } else { 2 };
    let raw0 = w.vgpr(src[0], from);
    let param = if f16 {
        half_of(raw0, op_sel & 1 != 0)
    } else {
        f32::from_bits(raw0)
    };
    let addend = if p10 {
        let raw2 = w.vgpr(src[2], quad);
        if f16 {
            half_of(raw2, op_sel & 4 != 0)
        } else {
            f32::from_bits(raw2)
        }
    } else {
        f32::from_bits(w.vgpr(src[2], lane))
    };
    Operands {
        param: src_mod(param, false, neg & 1 != 0),
        ij: src_mod(f32::from_bits(w.vgpr(src[1], lane)), false, neg & 2 != 0),
        addend: src_mod(addend, false, neg & 4 != 0),
    }
}

/// One VINTERP step for every active lane.
///
/// Arithmetic (RDNA3 ISA §16.13): `param × ij + addend` as one fused
/// multiply-add rounded once to f32 (`f32::mul_add`; "Performs a V_FMA_F32
/// operation", and §12.2 calls all V_INTERP_* "VALU FMA instructions" — the
/// f16 forms included, docs/errata.md IP3), f16 parameters widened exactly.
/// A NaN result is [`CANONICAL_NAN`](crate::texture::convert::CANONICAL_NAN) (which NaN the hardware
/// returns is not public, and the host's `mul_add` and the GPU would otherwise
/// pick different payloads: docs/errata.md IP3); CLAMP then limits the f32 result to
/// [0, 1] ([`out_mod`]). `v_interp_p2_f16_f32`
/// then rounds that f32 to f16 (RNE, the default mode) and writes it into the
/// low half, or with OP_SEL bit 3 the high half, keeping the other half.
/// All operands are read before any lane is written (vdst may be a source).
pub fn vinterp(
    w: &mut WaveState,
    step: VinterpStep,
    vdst: u32,
    src: [u32; 3],
    neg: u32,
    clamp: bool,
    op_sel: u32,
) {
    let results: Vec<(u32, u32)> = w
        .active_lanes()
        .map(|lane| {
            let o = operands(w, step, src, neg, op_sel, lane);
            let v = f32::from_bits(canonical_nan_bits(o.param.mul_add(o.ij, o.addend)));
            let v = out_mod(v, 0, clamp);
            let bits = if step == VinterpStep::P2F16F32 {
                let h = u32::from(f32_to_f16(v));
                let old = w.vgpr(vdst, lane);
                if op_sel & 8 != 0 {
                    (old & 0xffff) | h << 16
                } else {
                    (old & 0xffff_0000) | h
                }
            } else {
                v.to_bits()
            };
            (lane, bits)
        })
        .collect();
    for (lane, bits) in results {
        w.set_vgpr(vdst, lane, bits);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn addresses_are_channel_major() {
        // Two primitives (mask 0b1), attribute 1 starts at dword 24; P10.z is
        // dword 4 + 2 = 6 of the primitive, P20.w dword 11.
        let m0 = 1 << 16 | 0x80;
        assert_eq!(param_address(m0, 1, 2, 0, 1), 0x80 + 4 * (24 + 6));
        assert_eq!(param_address(m0, 1, 3, 1, 2), 0x80 + 4 * (36 + 11));
        // Quads 1.. belong to primitive 1.
        assert_eq!(param_address(m0, 0, 0, 7, 0), 0x80 + 4 * 12);
    }

    #[test]
    fn m0_rules() {
        assert!(check_param_m0(0x0003_0080).is_ok());
        assert!(check_param_m0(0x0003_0004).is_err());
        assert_eq!(direct_address(0x0002_0010), Ok(0x10));
        assert!(direct_address(0x0002_0012).is_err());
        assert!(direct_address(0x0000_0010).is_err());
        assert!(direct_address(0x0003_0010).is_err());
    }

    #[test]
    fn fused_differs_from_unfused() {
        // (1 + 2^-23) × (1 − 2^-23) = 1 − 2^-46: unfused it rounds to 1.0 and
        // 1.0 − 1.0 = 0; fused the −2^-46 survives.
        let a = f32::from_bits(0x3f80_0001);
        let b = f32::from_bits(0x3f7f_fffe);
        assert_eq!(a * b - 1.0, 0.0);
        assert_eq!(a.mul_add(b, -1.0), -(2f32.powi(-46)));
    }
}
