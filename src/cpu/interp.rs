//! VINTRP: attribute interpolation from LDS
//! (reference/gcn-vintrp-clrx.md; docs/semantics/interpolation.md).

use crate::ir::{InterpMods, InterpStep};
use crate::machine::lds::primitive_of_quad;
use crate::machine::WaveState;
use crate::texture::convert::{f16_to_f32, f32_to_f16};

/// Byte address in LDS of parameter `index` (0–11 of the 12 dwords: P0.x, P10.x,
/// P0.y, P10.y, P0.z, P10.z, P0.w, P10.w, P20.x … P20.w) of `attr` for the lane's
/// primitive: `M0[15:0] + 4 × (12 × (attr × numprim + prim) + index)`, with
/// `numprim = popcount(newprimmask) + 1` (CLRX VINTRP page, LDS layout).
///
/// WGSL twin: `param_address` (gfx6–gfx10 (VINTRP) order) in `shaders/interp.wgsl`
/// (docs/gpu.md, "Twins").
pub fn param_address(m0: u32, attr: u32, lane: u32, index: u32) -> u64 {
    let mask = (m0 >> 16) & 0x7fff;
    let numprim = u64::from(mask.count_ones() + 1);
    let prim = u64::from(primitive_of_quad(mask, lane / 4));
    u64::from(m0 & 0xffff) + 4 * (12 * (u64::from(attr) * numprim + prim) + u64::from(index))
}

/// Parameter index of P0, P10 and P20 for channel `chan`.
fn p0(chan: u32) -> u32 {
    2 * chan
}
fn p10(chan: u32) -> u32 {
    2 * chan + 1
}
fn p20(chan: u32) -> u32 {
    8 + chan
}

/// `a + b × c` with the product rounded before the add — GCN's interpolation is
/// a multiply-add of the `v_mad_f32` kind (unfused); IEEE single precision,
/// denormals kept (an open question, docs/semantics/interpolation.md).
///
/// WGSL twin: `interp_mad` in `shaders/interp.wgsl` (docs/gpu.md, "Twins").
pub fn interp_mad(a: f32, b: f32, c: f32) -> f32 {
    a + b * c
}

/// A VOP3 source modifier: `|x|` when `abs`, then negated when `neg` (the VOP3
/// order: absolute value first).
///
/// WGSL twin: `src_mod` in `shaders/interp.wgsl` (docs/gpu.md, "Twins").
pub fn src_mod(x: f32, abs: bool, neg: bool) -> f32 {
    let x = if abs { x.abs() } else { x };
    if neg {
        -x
    } else {
        x
    }
}

/// VOP3 output modifiers: OMOD scales (1 → ×2, 2 → ×4, 3 → ÷2; exact but for
/// overflow and denormals), then CLAMP limits to [0, 1] with NaN and −0 → +0
/// (GCN's clamp, the DX10 rule).
///
/// WGSL twin: `out_mod` in `shaders/interp.wgsl` (docs/gpu.md, "Twins").
pub fn out_mod(x: f32, omod: u32, clamp: bool) -> f32 {
    let x = match omod & 3 {
        1 => x * 2.0,
        2 => x * 4.0,
        3 => x * 0.5,
        _ => x,
    };
    if !clamp {
        x
    } else if x > 1.0 {
        1.0
    } else if x > 0.0 {
        x
    } else {
        0.0
    }
}

/// The f16 parameter in the low (or, with `high`, the high) half of a dword,
/// exactly as f32 (the f16 interps' "attr_word" selects the half; AMD GCN3/Vega
/// ISA, V_INTERP_P1LL_F16 … V_INTERP_P2_F16).
///
/// WGSL twin: `half_of` in `shaders/interp.wgsl` (docs/gpu.md, "Twins").
pub fn half_of(dword: u32, high: bool) -> f32 {
    f16_to_f32((dword >> if high { 16 } else { 0 }) as u16)
}

/// Executes one interpolation step for every active lane.
///
/// f16 forms (AMD GCN3/Vega ISA text): P1LL `D.f32 = P10.f16 × S0.f32 +
/// P0.f16`; P1LV `D.f32 = P10.f16 × S0.f32 + (S2 >> 16·high).f16`; P2
/// `D.f16 = P20.f16 × S0.f32 + S2.f32`, "written to the 16 LSBs of the
/// destination" — the high 16 bits are kept (a reading of that sentence). The
/// f16 parameters widen exactly, the arithmetic is [`interp_mad`]'s in f32, and
/// P2 rounds the f32 result to f16 (RNE) after the output modifiers.
pub fn execute(
    w: &mut WaveState,
    step: InterpStep,
    vdst: u32,
    ij: u32,
    attr: u32,
    chan: u32,
    mods: &InterpMods,
) {
    let chan = chan & 3;
    let lanes = w.active_lanes();
    for lane in lanes {
        let dword = |w: &WaveState, index: u32| w.lds_dword(param_address(w.m0, attr, lane, index));
        let param = |w: &WaveState, index: u32| f32::from_bits(dword(w, index));
        let hparam = |w: &WaveState, index: u32| half_of(dword(w, index), mods.high);
        let s0 = src_mod(
            f32::from_bits(w.vgpr(ij, lane)),
            mods.abs & 2 != 0,
            mods.neg & 2 != 0,
        );
        let s2 = w.vgpr(mods.vsrc2, lane);
        let s2_mod = |x: f32| src_mod(x, mods.abs & 4 != 0, mods.neg & 4 != 0);
        let v = match step {
            InterpStep::P1 => interp_mad(param(w, p0(chan)), s0, param(w, p10(chan))),
            InterpStep::P2 => {
                interp_mad(f32::from_bits(w.vgpr(vdst, lane)), s0, param(w, p20(chan)))
            }
            // v_interp_mov_f32 parameter select: 0 = P10, 1 = P20, 2 = P0.
            InterpStep::Mov(0) => param(w, p10(chan)),
            InterpStep::Mov(1) => param(w, p20(chan)),
            InterpStep::Mov(_) => param(w, p0(chan)),
            InterpStep::P1llF16 => interp_mad(hparam(w, p0(chan)), s0, hparam(w, p10(chan))),
            InterpStep::P1lvF16 => {
                interp_mad(s2_mod(half_of(s2, mods.high)), s0, hparam(w, p10(chan)))
            }
            InterpStep::P2F16 => interp_mad(s2_mod(f32::from_bits(s2)), s0, hparam(w, p20(chan))),
        };
        let v = out_mod(v, mods.omod, mods.clamp);
        let bits = if step == InterpStep::P2F16 {
            (w.vgpr(vdst, lane) & 0xffff_0000) | u32::from(f32_to_f16(v))
        } else {
            v.to_bits()
        };
        w.set_vgpr(vdst, lane, bits);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clrx_newprimmask_example() {
        // CLRX: newprimmask 0b1010011.
        let m = 0b1010011;
        let prims: Vec<u32> = (0..16).map(|q| primitive_of_quad(m, q)).collect();
        assert_eq!(prims, [0, 1, 2, 2, 2, 3, 3, 4, 4, 4, 4, 4, 4, 4, 4, 4]);
        // Lanes 12–15 are quad 3 → primitive 2, lanes 28–63 → primitive 4.
        assert_eq!(primitive_of_quad(m, 15 / 4), 2);
        assert_eq!(primitive_of_quad(m, 63 / 4), 4);
    }

    #[test]
    fn edge_masks() {
        assert!((0..16).all(|q| primitive_of_quad(0, q) == 0));
        // All 15 bits: quad q starts primitive q.
        assert!((0..16).all(|q| primitive_of_quad(0x7fff, q) == q));
    }

    #[test]
    fn lds_addresses() {
        // CLRX's layout table for mask 0b1010011 (5 primitives): attribute 1,
        // primitive 0 starts at byte 0xf0 (= 12 × 5 × 4); P20.y is dword 9.
        let m0 = 0b1010011 << 16;
        assert_eq!(param_address(m0, 1, 0, 0), 0xf0);
        assert_eq!(param_address(m0, 1, 0, 9), 0xf0 + 36);
        // Lane 20 is quad 5 → primitive 3; M0[15:0] = 0x100 is added.
        assert_eq!(param_address(m0 | 0x100, 0, 20, 0), 0x100 + 3 * 48);
    }

    #[test]
    fn modifiers() {
        assert_eq!(src_mod(-2.0, true, false), 2.0);
        assert_eq!(src_mod(-2.0, true, true), -2.0);
        assert_eq!(src_mod(3.0, false, true), -3.0);
        assert_eq!(out_mod(0.75, 1, false), 1.5);
        assert_eq!(out_mod(0.75, 1, true), 1.0);
        assert_eq!(out_mod(3.0, 3, false), 1.5);
        assert_eq!(out_mod(-0.0, 0, true).to_bits(), 0);
        assert_eq!(out_mod(f32::NAN, 0, true), 0.0);
        assert_eq!(out_mod(0.25, 2, true), 1.0);
    }

    #[test]
    fn halves() {
        // 0x3c00 = 1.0 (low), 0xc000 = −2.0 (high).
        assert_eq!(half_of(0xc000_3c00, false), 1.0);
        assert_eq!(half_of(0xc000_3c00, true), -2.0);
    }
}
