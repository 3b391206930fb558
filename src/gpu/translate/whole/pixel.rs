//! Pixel-shader operations in a whole-program module: exports into the
//! draw's slots (`cpu::export`) and interpolation (`cpu::interp`,
//! `cpu::interp_gfx11`) with M0 read at run time, as the CPU reads it.

use super::Whole;
use crate::ir::export::Export;
use crate::ir::{Interp, Op, Reg};

impl Whole<'_> {
    /// `exp` (cpu::export::execute): each active lane's enabled dwords and
    /// their mask bits into its slot.
    pub(super) fn emit_export(&mut self, offset: usize, x: &Export) {
        let Some(base) = self.e.prog.exports else {
            let f = self.fault(
                offset,
                "`exp` to a colour or depth target runs only in a draw launch ([draw], docs/draw.md)".into(),
            );
            self.line(&format!("if lane_on {{ {f} }}"));
            return;
        };
        let fault = self.fault(offset, "internal: an export slot is outside memory".into());
        let values: Vec<(usize, String)> = x
            .dwords
            .iter()
            .enumerate()
            .filter_map(|(d, v)| v.map(|v| (d, self.e.v_read(u32::from(v)))))
            .collect();
        let bits: u32 = values.iter().map(|(d, _)| 1u32 << d).sum();
        self.line("if lane_on {");
        self.line(&format!(
            "    let xo = gmem_offset(export_slot(vec2<u32>({}u, {}u), first + k, lane, {}u), {}u);",
            base as u32,
            (base >> 32) as u32,
            x.target,
            crate::ir::export::SLOT_BYTES
        ));
        self.line(&format!("    if xo == NO_TEXEL {{ {fault} }} else {{"));
        self.line(&format!(
            "        gmem_put(xo, 4u, gmem_dword(xo) | {bits}u);"
        ));
        for (d, v) in values {
            self.line(&format!("        gmem_put(xo + {}u, 4u, {v});", 4 + 4 * d));
        }
        self.line("    }");
        self.line("}");
    }

    /// VINTRP and the VOP3 interps, gfx11's `lds_param_load` and VINTERP. M0 is a
    /// register here: the gfx11 M0 rules (machine::lds) are checked as the
    /// wave runs, with the CPU's words.
    pub(super) fn emit_pixel_op(&mut self, offset: usize, op: &Op) {
        match op {
            Op::Interp(i) => {
                let Interp {
                    step,
                    vdst,
                    ij,
                    attr,
                    chan,
                    mods,
                } = **i;
                self.e.emit_interp(step, vdst, ij, (attr, chan), &mods);
            }
            Op::LdsParamLoad { vdst, attr, chan } => {
                // machine::lds::check_param_m0, as the wave runs.
                let m0 = self.read(Reg::M0);
                let f = self.fault(
                    offset,
                    "lds_param_load: M0's lds_param_offset bits 6:0 must be zero (RDNA3 ISA)"
                        .into(),
                );
                self.line(&format!(
                    "if quad_live(exec_lo, exec_hi, lane & ~3u) && ({m0} & 0x7fu) != 0u {{ {f} }}"
                ));
                super::super::interp_gfx11::emit_param_load_at(&mut self.e, *vdst, *attr, *chan);
            }
            Op::Vinterp(v) => {
                // Through the module's shared fma site, if it has one.
                let site = self.sites.fma_site().map(|s| (s, self.sites.new_case()));
                super::super::interp_gfx11::emit_vinterp(
                    &mut self.e,
                    v.step,
                    v.vdst,
                    v.src,
                    (v.neg, v.clamp, v.op_sel),
                    site,
                )
            }
            _ => {}
        }
    }
}
