//! VINTRP: attribute interpolation from LDS
//! (reference/gcn-vintrp-clrx.md; docs/semantics.md "Interpolation").

use super::WaveState;
use crate::ir::InterpStep;

/// The primitive a quad interpolates: the number of set bits of NEWPRIMMASK
/// (M0[30:16]) below the quad's bit. Bit k set means a new primitive starts at
/// quad k + 1; quad 0 always starts primitive 0 (CLRX VINTRP page, worked example
/// 0b1010011 → lanes 0-3 prim 0, 4-7 prim 1, 8-19 prim 2, 20-27 prim 3, 28-63 prim 4).
pub fn primitive_of_quad(newprimmask: u32, quad: u32) -> u32 {
    let below = if quad >= 32 {
        u32::MAX
    } else {
        (1u32 << quad) - 1
    };
    (newprimmask & 0x7fff & below).count_ones()
}

/// Byte address in LDS of parameter `index` (0–11 of the 12 dwords: P0.x, P10.x,
/// P0.y, P10.y, P0.z, P10.z, P0.w, P10.w, P20.x … P20.w) of `attr` for the lane's
/// primitive: `M0[15:0] + 4 × (12 × (attr × numprim + prim) + index)`, with
/// `numprim = popcount(newprimmask) + 1` (CLRX VINTRP page, LDS layout).
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
/// denormals kept (an open question, docs/semantics.md).
pub fn interp_mad(a: f32, b: f32, c: f32) -> f32 {
    a + b * c
}

/// Executes one interpolation step for every active lane.
pub fn execute(w: &mut WaveState, step: InterpStep, vdst: u32, ij: u32, attr: u32, chan: u32) {
    let chan = chan & 3;
    let lanes: Vec<u32> = w.active_lanes().collect();
    for lane in lanes {
        let param = |w: &WaveState, index: u32| {
            f32::from_bits(w.lds_dword(param_address(w.m0, attr, lane, index)))
        };
        let v = match step {
            InterpStep::P1 => interp_mad(
                param(w, p0(chan)),
                f32::from_bits(w.vgpr(ij, lane)),
                param(w, p10(chan)),
            ),
            InterpStep::P2 => interp_mad(
                f32::from_bits(w.vgpr(vdst, lane)),
                f32::from_bits(w.vgpr(ij, lane)),
                param(w, p20(chan)),
            ),
            // v_interp_mov_f32 parameter select: 0 = P10, 1 = P20, 2 = P0.
            InterpStep::Mov(0) => param(w, p10(chan)),
            InterpStep::Mov(1) => param(w, p20(chan)),
            InterpStep::Mov(_) => param(w, p0(chan)),
        };
        w.set_vgpr(vdst, lane, v.to_bits());
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
}
