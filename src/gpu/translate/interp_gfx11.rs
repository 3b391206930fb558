//! gfx11 interpolation in WGSL: the translation of `cpu::interp_gfx11`.
//!
//! M0 is a scalar register, known when the module is built (translate.rs,
//! "Specialisation"), so the CPU's M0 rules are checked here and an M0 the CPU
//! refuses is refused by the translator with the same message. VINTERP's
//! implicit quad broadcast goes through workgroup memory, as the implicit
//! derivatives of image sampling do: every lane, active or not, publishes its
//! src0 and src2, with the barriers in uniform control flow. The multiply-add
//! is `fma_bits` (shaders/fma.wgsl), an integer-only exact fused
//! multiply-add: WGSL's `fma` is not fused on lavapipe (the one-ulp case of
//! assets/interp_gfx11.toml came back unfused), and the CPU's is.

use super::{err, Emitter, TranslateError};
use crate::ir::VinterpStep;
use crate::machine::lds::{check_param_m0, direct_address};

use super::alu_call::FMA;

/// Adds the exact fma and the quad-exchange array once.
fn ensure_library(e: &mut Emitter) {
    if e.decls.contains("var<workgroup> vi_quad:") {
        return;
    }
    e.decls.push('\n');
    if !e.fma_in_prelude {
        e.decls.push_str(FMA);
    }
    e.decls.push_str(
        "\n// src0 and src2 of every lane, for VINTERP's quad broadcast.\nvar<workgroup> vi_quad: array<vec2<u32>, WAVE_SIZE>;\n",
    );
}

/// `lds_param_load` (interp_gfx11::lds_param_load); `m0` is M0 at this point.
pub(super) fn emit_param_load(
    e: &mut Emitter,
    offset: usize,
    m0: u32,
    vdst: u32,
    attr: u32,
    chan: u32,
) -> Result<(), TranslateError> {
    check_param_m0(m0).map_err(|m| err(offset, m))?;
    emit_param_load_at(e, vdst, attr, chan);
    Ok(())
}

/// `lds_param_load` addressed by the WGSL variable `m0`, its M0 rule
/// already checked.
pub(super) fn emit_param_load_at(e: &mut Emitter, vdst: u32, attr: u32, chan: u32) {
    let Some(d) = e.v(vdst) else { return };
    e.line(&format!(
        "if quad_live(exec_lo, exec_hi, lane & ~3u) {{ {d} = select(0u, lds_dword(lds_base, gfx11_param_address(m0, {attr}u, {chan}u, lane / 4u, lane & 3u)), (lane & 3u) < 3u); }}"
    ));
}

/// `lds_direct_load` (interp_gfx11::lds_direct_load).
pub(super) fn emit_direct_load(
    e: &mut Emitter,
    offset: usize,
    m0: u32,
    vdst: u32,
) -> Result<(), TranslateError> {
    let addr = direct_address(m0).map_err(|m| err(offset, m))?;
    let Some(d) = e.v(vdst) else { return Ok(()) };
    e.line(&format!(
        "if quad_live(exec_lo, exec_hi, lane & ~3u) {{ {d} = lds_dword(lds_base, {addr}u); }}"
    ));
    Ok(())
}

/// One VINTERP step (interp_gfx11::vinterp). With `site` (a whole program's
/// shared site of `fma_bits` and the case to resume at,
/// `whole::shared`), the multiply-add's operands go to the site and the
/// output modifier and the write to the case after it.
pub(super) fn emit_vinterp(
    e: &mut Emitter,
    step: VinterpStep,
    vdst: u32,
    src: [u32; 3],
    (neg, clamp, op_sel): (u32, bool, u32),
    site: Option<(u32, u32)>,
) {
    ensure_library(e);
    let f16 = matches!(step, VinterpStep::P10F16F32 | VinterpStep::P2F16F32);
    let p10 = matches!(step, VinterpStep::P10F32 | VinterpStep::P10F16F32);
    let s0 = e.v_read(src[0]);
    let s1 = e.v_read(src[1]);
    let s2 = e.v_read(src[2]);
    e.line("{");
    e.line(&format!("vi_quad[lane] = vec2<u32>({s0}, {s2});"));
    e.line("workgroupBarrier();");
    let from = if p10 { 1 } else { 2 };
    e.line(&format!("let vi_p = vi_quad[(lane & ~3u) + {from}u].x;"));
    let addend_bits = if p10 {
        "vi_quad[lane & ~3u].y".to_string()
    } else {
        s2.clone()
    };
    e.line(&format!("let vi_c = {addend_bits};"));
    e.line("workgroupBarrier();");
    // f32 bits of an operand: an f16 half widened exactly, or the dword.
    let widen = |bits: &str, high: bool| {
        if f16 {
            format!("bitcast<u32>(half_of({bits}, {high}))")
        } else {
            bits.to_string()
        }
    };
    let param = widen("vi_p", op_sel & 1 != 0);
    let addend = if p10 {
        widen("vi_c", op_sel & 4 != 0)
    } else {
        "vi_c".to_string()
    };
    // Operands as bits: the exact fma (shaders/fma.wgsl fma_bits) never
    // passes them through a float operation that could flush a denormal.
    let operands = [
        format!("src_mod({param}, false, {})", neg & 1 != 0),
        format!("src_mod({s1}, false, {})", neg & 2 != 0),
        format!("src_mod({addend}, false, {})", neg & 4 != 0),
    ];
    let fused = match site {
        Some((site, cont)) => {
            for (var, x) in ["alu_a", "alu_b", "alu_c"].iter().zip(&operands) {
                e.line(&format!("{var} = vec2<u32>({x}, 0u);"));
            }
            e.line("}");
            crate::gpu::translate::whole::split_at_site(e, site, cont);
            e.line("{");
            "alu_r.x".to_string()
        }
        None => format!(
            "fma_bits({}, {}, {})",
            operands[0], operands[1], operands[2]
        ),
    };
    let value = format!("out_mod({fused}, 0u, {clamp})");
    if let Some(d) = e.v(vdst) {
        let bits = match (step, op_sel & 8 != 0) {
            (VinterpStep::P2F16F32, false) => format!("({d} & 0xffff0000u) | f32_to_f16({value})"),
            (VinterpStep::P2F16F32, true) => {
                format!("({d} & 0xffffu) | (f32_to_f16({value}) << 16u)")
            }
            _ => value,
        };
        e.line(&format!("if lane_on {{ {d} = {bits}; }}"));
    }
    e.line("}");
}
