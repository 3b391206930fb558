//! Memory, LDS and image operations of a whole-program module (the WGSL
//! side of `cpu::memops`; images through the straight-line translation's
//! emitter, specialised on predicted descriptors).

use super::{err, Whole};
use crate::gpu::translate::TranslateError;
use crate::ir::mem::{Access, Addr, Ds, DsKind, ScalarLoad, VectorMem, Width, LDS_APERTURE};
use crate::ir::Reg;

/// The generation as the `gen` argument of the `buf_*` WGSL functions.
fn gen_number(gen: crate::arch::Gen) -> u32 {
    use crate::arch::Gen::*;
    match gen {
        Gfx6 => 6,
        Gfx7 => 7,
        Gfx8 => 8,
        Gfx9 => 9,
        Gfx10 => 10,
        Gfx11 => 11,
    }
}

impl Whole<'_> {
    /// A returning atomic's value before the operation (`old`) into `vdst`
    /// (and `vdst + 1` when 64-bit): cpu::memops' `put_returned`.
    fn emit_returned(&mut self, vdst: u32, wide: bool) {
        for k in 0..if wide { 2 } else { 1 } {
            if let Some(p) = self.e.v(vdst + k) {
                let half = if k == 0 { "x" } else { "y" };
                self.line(&format!("    {p} = old.{half};"));
            }
        }
    }

    /// A 32-bit value (VGPR `r`) or a 64-bit one (`r`, `r + 1`) as WGSL
    /// halves (`cpu::memops::lane_value`); `None` reads as 0.
    fn lane_value(&mut self, r: Option<u32>, wide: bool) -> (String, String) {
        match r {
            None => ("0u".to_string(), "0u".to_string()),
            Some(r) => (
                self.e.v_read(r),
                if wide {
                    self.e.v_read(r + 1)
                } else {
                    "0u".into()
                },
            ),
        }
    }

    /// Opens the per-lane part of a vector memory access: every active
    /// lane at once, or for an atomic lane by lane in lane order (the CPU's
    /// order decides what returns and, for floats, the sums).
    fn open_lanes(&mut self, atomic: bool) {
        if atomic {
            self.line("for (var turn = 0u; turn < WAVE_SIZE; turn = turn + 1u) {");
            self.line("if lane == turn && lane_on {");
        } else {
            self.line("if lane_on {");
        }
    }

    /// Closes what [`Whole::open_lanes`] opened; a store or atomic is made
    /// visible to the next operation.
    fn close_lanes(&mut self, access: &Access) {
        self.line("}");
        if let Access::Atomic { .. } = access {
            self.line("storageBarrier();");
            self.line("}");
        }
        if !matches!(access, Access::Load(_)) {
            self.line("storageBarrier();");
        }
    }

    /// This lane's 64-bit address of a vector access (`cpu::memops::lane_address`).
    pub(super) fn address(&mut self, addr: &Addr) -> String {
        let off = |o: i32| {
            format!(
                "vec2<u32>({}u, {}u)",
                o as u32,
                if o < 0 { u32::MAX } else { 0 }
            )
        };
        match *addr {
            Addr::Flat { vaddr, offset } => {
                let lo = self.e.v_read(vaddr);
                let hi = self.e.v_read(vaddr + 1);
                format!("u64_add(vec2<u32>({lo}, {hi}), {})", off(offset))
            }
            Addr::Global {
                saddr,
                vaddr,
                offset,
            } => {
                let base = match saddr {
                    Some(s) => {
                        let lo = self.read(Reg::Sgpr(s));
                        let hi = self.read(Reg::Sgpr(s + 1));
                        let v = self.e.v_read(vaddr);
                        format!("u64_add(vec2<u32>({lo}, {hi}), vec2<u32>({v}, 0u))")
                    }
                    None => {
                        let lo = self.e.v_read(vaddr);
                        let hi = self.e.v_read(vaddr + 1);
                        format!("vec2<u32>({lo}, {hi})")
                    }
                };
                format!("u64_add({base}, {})", off(offset))
            }
            // Buffers: emit_buffer_mem; scratch is refused before emission
            // (refusal).
            Addr::Buffer { .. } | Addr::Scratch { .. } => "vec2<u32>(0u)".into(),
        }
    }

    /// A MUBUF load, store or atomic through its V# (`cpu::memops`'
    /// `buffer_vector`): the V# read from SGPRs and checked at run time
    /// (`buf_refusal`), each dword of a load or store range-checked on its
    /// own (`buf_in_range`), an atomic as a whole.
    fn emit_buffer_mem(&mut self, offset: usize, m: &VectorMem) {
        let Addr::Buffer {
            srsrc,
            vaddr,
            idxen,
            offen,
            addr64,
            soffset,
            offset: imm,
        } = m.addr
        else {
            return;
        };
        let fault = self.fault(
            offset,
            "a V# gcnrun does not run (Vsharp::refusal: a swizzled or ADD_TID_ENABLE form it has no rule for), or an access outside the launch's memory (a fault)".into(),
        );
        let gen = gen_number(self.e.prog.arch.gen);
        let w: Vec<String> = (0..4).map(|i| self.read(Reg::Sgpr(srsrc + i))).collect();
        let soff = self.src(soffset);
        let typed_site = self.sites.typed_site(m);
        if typed_site.is_some() {
            // Lanes that fault or are inactive write nothing after the site.
            self.line("alu_ok = false;");
        }
        self.open_lanes(matches!(m.access, Access::Atomic { .. }));
        self.line(&format!(
            "    if buf_refusal({gen}u, {}, {}, {idxen}) != 0u {{ {fault} }} else {{",
            w[1], w[3]
        ));
        if addr64 {
            let lo = self.e.v_read(vaddr);
            let hi = self.e.v_read(vaddr + 1);
            self.line(&format!(
                "    let ba = u64_add(u64_add(u64_add(vec2<u32>({}, {} & 0xffffu), vec2<u32>({lo}, {hi})), vec2<u32>({imm}u, 0u)), vec2<u32>({soff}, 0u));",
                w[0], w[1]
            ));
        } else {
            let idx = if idxen {
                self.e.v_read(vaddr)
            } else {
                "0u".into()
            };
            let voff = if offen {
                self.e.v_read(vaddr + u32::from(idxen))
            } else {
                "0u".into()
            };
            self.line(&format!(
                "    let idx = buf_index({}, {idxen}, {idx}, lane);",
                w[3]
            ));
            self.line(&format!("    let bo = {imm}u + {voff};"));
            self.line(&format!(
                "    let ba = buf_address({gen}u, {}, {}, {}, idx, bo, {soff});",
                w[0], w[1], w[3]
            ));
        }
        // Element k of `size` bytes, `rel` bytes in: its range check and
        // memory offset; a fault when in range but outside the memory.
        let element = |s: &mut Self, k: u32, rel: u32, size: u32| {
            let check = if addr64 {
                "true".to_string()
            } else {
                format!(
                    "buf_in_range({gen}u, {}, {}, {}, {idxen}, idx, bo, {soff}, {rel}u, {size}u)",
                    w[1], w[2], w[3]
                )
            };
            s.line(&format!("    let in{k} = {check};"));
            s.line(&format!(
                "    let off{k} = select(0u, gmem_offset(u64_add(ba, vec2<u32>({rel}u, 0u)), {size}u), in{k});"
            ));
            s.line(&format!("    if in{k} && off{k} == NO_TEXEL {{ {fault} }}"));
        };
        match m.access {
            Access::Typed { .. } => {
                let check = (!addr64).then_some((idxen, soff.as_str()));
                self.emit_typed(&fault, &w, gen, check, m);
            }
            Access::Load(wd) => {
                let size = wd.bytes().min(4);
                for i in 0..wd.dwords() {
                    element(self, i, 4 * i, size);
                }
                for i in 0..wd.dwords() {
                    let get = if matches!(wd, Width::Dwords(_)) {
                        format!("select(0u, gmem_dword(off{i}), in{i})")
                    } else {
                        format!(
                            "widen_load({}u, select(0u, gmem_bytes(off0, {size}u), in0), {})",
                            width_code(wd),
                            self.e.v_read(m.vdst)
                        )
                    };
                    self.line(&format!("    let d{i} = {get};"));
                }
                for i in 0..wd.dwords() {
                    if let Some(d) = self.e.v(m.vdst + i) {
                        self.line(&format!("    {d} = d{i};"));
                    }
                }
            }
            Access::Store(wd) => {
                let (count, shift) = store_bytes(wd);
                let size = wd.bytes().min(4);
                for i in 0..wd.dwords() {
                    element(self, i, 4 * i, size);
                    let v = self.e.v_read(m.vdata + i);
                    let (n, val) = if matches!(wd, Width::Dwords(_)) {
                        (4, v)
                    } else {
                        (count, format!("({v} >> {shift}u)"))
                    };
                    self.line(&format!(
                        "    if in{i} && off{i} != NO_TEXEL {{ gmem_put(off{i}, {n}u, {val}); }}"
                    ));
                }
            }
            Access::Atomic { op, wide, returns } => {
                let size = if wide { 8 } else { 4 };
                element(self, 0, 0, size);
                let slots = if wide { 2 } else { 1 };
                let (d0, d1) = self.lane_value(Some(m.vdata), wide);
                let (c0, c1) = self.lane_value(Some(m.vdata + slots), wide);
                self.line("    var old = vec2<u32>(0u);");
                self.line("    if in0 && off0 != NO_TEXEL {");
                self.line("        old.x = gmem_dword(off0);");
                if wide {
                    self.line("        old.y = gmem_dword(off0 + 4u);");
                }
                self.line(&apply(op as u32, wide, (&d0, &d1), (&c0, &c1)));
                self.line("        gmem_put(off0, 4u, nv.x);");
                if wide {
                    self.line("        gmem_put(off0 + 4u, 4u, nv.y);");
                }
                self.line("    }");
                if returns {
                    self.emit_returned(m.vdst, wide);
                }
            }
        }
        self.line("    }");
        self.close_lanes(&m.access);
        if let Some(site) = typed_site {
            self.resume_after_site(site);
            self.emit_typed_result(m);
        }
    }

    /// A gfx11 `scratch_*` load or store (`cpu::memops`' `scratch_vector`):
    /// each byte at `scratch_address` of the lane's private offset; past the
    /// kernel's private bytes, a fault.
    fn emit_scratch_mem(&mut self, offset: usize, m: &VectorMem) {
        let Addr::Scratch {
            vaddr,
            saddr,
            offset: imm,
        } = m.addr
        else {
            return;
        };
        let (width, store) = match m.access {
            Access::Load(w) => (w, false),
            Access::Store(w) => (w, true),
            // Refused by the lowering; typed accesses are buffers only.
            Access::Atomic { .. } | Access::Typed { .. } => return,
        };
        let fault = self.fault(
            offset,
            "a private access past the kernel's private bytes per work-item, or outside the launch's memory (a fault)".into(),
        );
        let sc = self.e.prog.scratch;
        let n = width.bytes();
        let v = vaddr.map_or("0u".to_string(), |r| self.e.v_read(r));
        let sg = saddr.map_or("0u".to_string(), |r| self.read(Reg::Sgpr(r)));
        self.open_lanes(false);
        self.line(&format!("    let po = {v} + {sg} + {}u;", imm as u32));
        // po + n ≤ per_lane, without wrapping.
        self.line(&format!(
            "    if {n}u > {pl}u || po > {pl}u - {n}u {{ {fault} }} else {{",
            pl = sc.per_lane
        ));
        let base = format!(
            "vec2<u32>({}u, {}u)",
            sc.base as u32,
            (sc.base >> 32) as u32
        );
        for k in 0..n {
            self.line(&format!(
                "    let so{k} = gmem_offset(scratch_address({base}, {}u, first + k, lane, po + {k}u), 1u);",
                sc.per_wave as u32
            ));
            self.line(&format!("    if so{k} == NO_TEXEL {{ {fault} }}"));
        }
        if store {
            for k in 0..n {
                let reg = m.vdata + k / 4;
                let val = self.e.v_read(reg);
                let shift = 8 * (k % 4);
                let shift = if matches!(width, Width::Dwords(_)) {
                    shift
                } else {
                    // A short store sends the low bytes, or the high half
                    // for the `_d16_hi` forms (store_bytes' shift).
                    store_bytes(width).1 + shift
                };
                self.line(&format!(
                    "    if so{k} != NO_TEXEL {{ gmem_put(so{k}, 1u, ({val} >> {shift}u) & 0xffu); }}"
                ));
            }
        } else {
            let byte = |k: u32| format!("select(0u, gmem_bytes(so{k}, 1u), so{k} != NO_TEXEL)");
            for i in 0..width.dwords() {
                let parts: Vec<String> = (0..n.min(4))
                    .map(|b| format!("({} << {}u)", byte(4 * i + b), 8 * b))
                    .collect();
                self.line(&format!("    let d{i} = {};", parts.join(" | ")));
            }
            if matches!(width, Width::Dwords(_)) {
                for i in 0..width.dwords() {
                    if let Some(d) = self.e.v(m.vdst + i) {
                        self.line(&format!("    {d} = d{i};"));
                    }
                }
            } else {
                let old = self.e.v_read(m.vdst);
                if let Some(d) = self.e.v(m.vdst) {
                    self.line(&format!(
                        "    {d} = widen_load({}u, d0, {old});",
                        width_code(width)
                    ));
                }
            }
        }
        self.line("    }");
        self.close_lanes(&m.access);
    }

    /// A vector load, store or atomic (`cpu::memops::vector`).
    pub(super) fn emit_vector_mem(&mut self, offset: usize, m: &VectorMem) {
        match m.addr {
            Addr::Buffer { .. } => return self.emit_buffer_mem(offset, m),
            Addr::Scratch { .. } => return self.emit_scratch_mem(offset, m),
            _ => {}
        }
        let flat = matches!(m.addr, Addr::Flat { .. });
        let fault = self.fault(
            offset,
            "an access outside the launch's memory (a fault)".into(),
        );
        let addr = self.address(&m.addr);
        let bytes = match m.access {
            Access::Load(w) | Access::Store(w) => w.bytes(),
            // Buffers only (emit_buffer_mem).
            Access::Typed { .. } => return,
            Access::Atomic { wide, .. } => {
                if wide {
                    8
                } else {
                    4
                }
            }
        };
        self.open_lanes(matches!(m.access, Access::Atomic { .. }));
        self.line(&format!("    let a = {addr};"));
        if flat {
            self.line(&format!("    let in_lds = a.y == {LDS_APERTURE}u;"));
        } else {
            self.line("    let in_lds = false;");
        }
        self.line(&format!(
            "    let off = select(gmem_offset(a, {bytes}u), 0u, in_lds);"
        ));
        self.line(&format!(
            "    let lds_in = in_lds && lds_ok(a.x, 0u, {bytes}u);"
        ));
        self.line(&format!(
            "    if !in_lds && off == NO_TEXEL {{ {fault} }} else {{"
        ));
        match m.access {
            Access::Load(w) => {
                let n = w.dwords();
                for i in 0..n {
                    let get = if matches!(w, Width::Dwords(_)) {
                        format!(
                            "select(select(0u, lds_get(lds_base, a.x + {}u), lds_in), gmem_dword(off + {}u), !in_lds)",
                            4 * i,
                            4 * i
                        )
                    } else {
                        format!(
                            "widen_load({}u, select(select(0u, lds_get(lds_base, a.x), lds_in), gmem_bytes(off, {}u), !in_lds), {})",
                            width_code(w),
                            w.bytes(),
                            self.e.v_read(m.vdst)
                        )
                    };
                    self.line(&format!("        let d{i} = {get};"));
                }
                for i in 0..n {
                    if let Some(d) = self.e.v(m.vdst + i) {
                        self.line(&format!("        {d} = d{i};"));
                    }
                }
            }
            Access::Store(w) => {
                let (count, shift) = store_bytes(w);
                for i in 0..w.dwords() {
                    let v = self.e.v_read(m.vdata + i);
                    let (n, val) = if matches!(w, Width::Dwords(_)) {
                        (4, v)
                    } else {
                        (count, format!("({v} >> {shift}u)"))
                    };
                    self.line(&format!(
                        "        if in_lds {{ if lds_in {{ lds_put(lds_base, a.x + {}u, {n}u, {val}); }} }} else {{ gmem_put(off + {}u, {n}u, {val}); }}",
                        4 * i,
                        4 * i
                    ));
                }
            }
            Access::Atomic { op, wide, returns } => {
                let slots = if wide { 2 } else { 1 };
                let (d0, d1) = self.lane_value(Some(m.vdata), wide);
                let (c0, c1) = self.lane_value(Some(m.vdata + slots), wide);
                let code = op as u32;
                self.line("        var old = vec2<u32>(0u);");
                self.line(
                    "        if in_lds { if lds_in { old = vec2<u32>(lds_get(lds_base, a.x), 0u);",
                );
                if wide {
                    self.line("            old.y = lds_get(lds_base, a.x + 4u);");
                }
                self.line("        } } else { old = vec2<u32>(gmem_dword(off), 0u);");
                if wide {
                    self.line("            old.y = gmem_dword(off + 4u);");
                }
                self.line("        }");
                self.line(&apply(code, wide, (&d0, &d1), (&c0, &c1)));
                self.line("        if in_lds { if lds_in { lds_put(lds_base, a.x, 4u, nv.x);");
                if wide {
                    self.line("            lds_put(lds_base, a.x + 4u, 4u, nv.y);");
                }
                self.line("        } } else { gmem_put(off, 4u, nv.x);");
                if wide {
                    self.line("            gmem_put(off + 4u, 4u, nv.y);");
                }
                self.line("        }");
                if returns {
                    self.emit_returned(m.vdst, wide);
                }
            }
            Access::Typed { .. } => {}
        }
        self.line("    }");
        self.close_lanes(&m.access);
    }

    /// `s_buffer_load_dword*` (`cpu::memops::scalar_load`): each dword past
    /// the V#'s bound (`buf_scalar_bound`) reads 0.
    fn emit_scalar_buffer_load(&mut self, offset: usize, l: &ScalarLoad) {
        let fault = self.fault(
            offset,
            "a V# gcnrun does not run (Vsharp::refusal: a swizzled or ADD_TID_ENABLE form it has no rule for), or a scalar load outside the launch's memory (a fault)".into(),
        );
        let gen = gen_number(self.e.prog.arch.gen);
        let w: Vec<String> = (0..4).map(|i| self.read(Reg::Sgpr(l.sbase + i))).collect();
        let off = self.src(l.offset);
        self.line("{");
        self.line(&format!(
            "let rel = ({off} + {}u) & 0xfffffffcu;",
            l.imm as u32
        ));
        self.line(&format!(
            "let bound = buf_scalar_bound({}, {});",
            w[1], w[2]
        ));
        self.line(&format!(
            "let sb = vec2<u32>({}, {} & 0xffffu);",
            w[0], w[1]
        ));
        self.line(&format!(
            "let refused = buf_refusal({gen}u, {}, {}, false) != 0u;",
            w[1], w[3]
        ));
        self.line(&format!("if refused {{ {fault} }}"));
        for i in 0..l.dwords {
            self.line(&format!(
                "let at{i} = u64_add(vec2<u32>(rel, 0u), vec2<u32>({}u, 0u));",
                4 * i
            ));
            self.line(&format!(
                "let in{i} = !refused && !u64_lt(bound, u64_add(at{i}, vec2<u32>(4u, 0u)));"
            ));
            self.line(&format!(
                "let so{i} = select(0u, gmem_offset(u64_add(sb, at{i}), 4u), in{i});"
            ));
            self.line(&format!("if in{i} && so{i} == NO_TEXEL {{ {fault} }}"));
            self.line(&format!(
                "let d{i} = select(0u, gmem_dword_uniform(so{i}, lane), in{i} && so{i} != NO_TEXEL);"
            ));
        }
        for i in 0..l.dwords {
            self.write(Reg::Sgpr(l.sdst + i), &format!("d{i}"));
        }
        self.line("}");
    }

    /// `s_load_dword*` (`cpu::memops::scalar_load`).
    pub(super) fn emit_scalar_load(&mut self, offset: usize, l: &ScalarLoad) {
        if l.buffer {
            return self.emit_scalar_buffer_load(offset, l);
        }
        let fault = self.fault(
            offset,
            "a scalar load outside the launch's memory (a fault)".into(),
        );
        let lo = self.read(Reg::Sgpr(l.sbase));
        let hi = self.read(Reg::Sgpr(l.sbase + 1));
        let off = self.src(l.offset);
        let imm = l.imm;
        let sx = if imm < 0 { u32::MAX } else { 0 };
        self.line("{");
        self.line(&format!(
            "let sa = u64_add(u64_add(vec2<u32>({lo}, {hi} & 0xffffu), vec2<u32>({off}, 0u)), vec2<u32>({}u, {sx}u));",
            imm as u32
        ));
        self.line(&format!(
            "let so = gmem_offset(vec2<u32>(sa.x & 0xfffffffcu, sa.y), {}u);",
            4 * l.dwords
        ));
        self.line(&format!("if so == NO_TEXEL {{ {fault} }} else {{"));
        for i in 0..l.dwords {
            self.line(&format!(
                "    let d{i} = gmem_dword_uniform(so + {}u, lane);",
                4 * i
            ));
        }
        for i in 0..l.dwords {
            self.write(Reg::Sgpr(l.sdst + i), &format!("d{i}"));
        }
        self.line("}");
        self.line("}");
    }

    /// An LDS operation (`cpu::memops::ds`).
    pub(super) fn emit_ds(&mut self, d: &Ds) {
        let addr = self.e.v_read(d.addr);
        match d.kind {
            DsKind::Read(w) | DsKind::Write(w) => {
                let is_read = matches!(d.kind, DsKind::Read(_));
                self.line("if lane_on {");
                self.line(&format!("    let a = {addr} + {}u;", d.offset0));
                self.line(&format!(
                    "    let ok = lds_ok({addr}, {}u, {}u);",
                    d.offset0,
                    w.bytes()
                ));
                if is_read {
                    for i in 0..w.dwords() {
                        let get = if matches!(w, Width::Dwords(_)) {
                            format!("select(0u, lds_get(lds_base, a + {}u), ok)", 4 * i)
                        } else {
                            format!(
                                "widen_load({}u, select(0u, lds_get(lds_base, a), ok), {})",
                                width_code(w),
                                self.e.v_read(d.vdst)
                            )
                        };
                        self.line(&format!("    let d{i} = {get};"));
                    }
                    for i in 0..w.dwords() {
                        if let Some(p) = self.e.v(d.vdst + i) {
                            self.line(&format!("    {p} = d{i};"));
                        }
                    }
                } else {
                    let (count, shift) = store_bytes(w);
                    self.line("    if ok {");
                    for i in 0..w.dwords() {
                        let v = self.e.v_read(d.data0 + i);
                        let (n, val) = if matches!(w, Width::Dwords(_)) {
                            (4, v)
                        } else {
                            (count, format!("({v} >> {shift}u)"))
                        };
                        self.line(&format!(
                            "        lds_put(lds_base, a + {}u, {n}u, {val});",
                            4 * i
                        ));
                    }
                    self.line("    }");
                }
                self.line("}");
                if !is_read {
                    self.line("storageBarrier();");
                }
            }
            DsKind::Read2 { dwords, st64 } | DsKind::Write2 { dwords, st64 } => {
                let is_read = matches!(d.kind, DsKind::Read2 { .. });
                let unit = 4 * u32::from(dwords) * if st64 { 64 } else { 1 };
                let bytes = 4 * u32::from(dwords);
                self.line("if lane_on {");
                let mut loads = Vec::new();
                for (k, off) in [d.offset0, d.offset1].into_iter().enumerate() {
                    let extra = off * unit;
                    self.line(&format!(
                        "    let ok{k} = lds_ok({addr}, {extra}u, {bytes}u);"
                    ));
                    for j in 0..u32::from(dwords) {
                        if is_read {
                            self.line(&format!(
                                "    let d{k}{j} = select(0u, lds_get(lds_base, {addr} + {}u), ok{k});",
                                extra + 4 * j
                            ));
                            loads.push((
                                d.vdst + k as u32 * u32::from(dwords) + j,
                                format!("d{k}{j}"),
                            ));
                        } else {
                            let src = if k == 0 { d.data0 } else { d.data1 };
                            let v = self.e.v_read(src + j);
                            self.line(&format!(
                                "    if ok{k} {{ lds_put(lds_base, {addr} + {}u, 4u, {v}); }}",
                                extra + 4 * j
                            ));
                        }
                    }
                }
                for (reg, val) in loads {
                    if let Some(p) = self.e.v(reg) {
                        self.line(&format!("    {p} = {val};"));
                    }
                }
                self.line("}");
                if !is_read {
                    self.line("storageBarrier();");
                }
            }
            DsKind::Atomic { op, wide, returns } => {
                use crate::ir::atomic::AtomicOp;
                let cmpswap = matches!(op, AtomicOp::CmpSwap | AtomicOp::FCmpSwap);
                let (data, cmp) = if cmpswap {
                    (d.data1, Some(d.data0))
                } else {
                    (d.data0, None)
                };
                let (d0, d1) = self.lane_value(Some(data), wide);
                let (c0, c1) = self.lane_value(cmp, wide);
                let bytes = if wide { 8 } else { 4 };
                let code = op as u32;
                self.open_lanes(true);
                self.line(&format!("    let a = {addr} + {}u;", d.offset0));
                self.line(&format!(
                    "    let ok = lds_ok({addr}, {}u, {bytes}u);",
                    d.offset0
                ));
                self.line("    var old = vec2<u32>(0u);");
                self.line("    if ok { old.x = lds_get(lds_base, a);");
                if wide {
                    self.line("        old.y = lds_get(lds_base, a + 4u);");
                }
                self.line("    }");
                self.line(&apply(code, wide, (&d0, &d1), (&c0, &c1)));
                self.line("    if ok { lds_put(lds_base, a, 4u, nv.x);");
                if wide {
                    self.line("        lds_put(lds_base, a + 4u, 4u, nv.y);");
                }
                self.line("    }");
                if returns {
                    self.emit_returned(d.vdst, wide);
                }
                self.line("}");
                self.line("storageBarrier();");
                self.line("}");
            }
            DsKind::Bpermute => {
                let data = self.e.v_read(d.data0);
                self.line("{");
                self.line(&format!(
                    "let src_lane = (({addr} + {}u) / 4u) % WAVE_SIZE;",
                    d.offset0
                ));
                self.line(&format!(
                    "let got = xl_value(select(0u, {data}, lane_on), lane, src_lane, xvc % 2u);"
                ));
                self.line("xvc = xvc + 1u;");
                if let Some(p) = self.e.v(d.vdst) {
                    self.line(&format!("if lane_on {{ {p} = got; }}"));
                }
                self.line("}");
            }
            // Pull from the swizzle's source lane (cpu::memops::ds).
            DsKind::Swizzle => {
                let data = addr.clone();
                self.line("{");
                self.line(&format!(
                    "let src_lane = swizzle_source({}u, lane) % WAVE_SIZE;",
                    d.offset0
                ));
                self.line(&format!(
                    "let got = xl_value(select(0u, {data}, lane_on), lane, src_lane, xvc % 2u);"
                ));
                self.line("xvc = xvc + 1u;");
                if let Some(p) = self.e.v(d.vdst) {
                    self.line(&format!("if lane_on {{ {p} = got; }}"));
                }
                self.line("}");
            }
            // Push: every lane finds the highest active lane that sends to
            // it (xl_pusher), then pulls that lane's data (cpu::memops::ds).
            DsKind::Permute => {
                let data = self.e.v_read(d.data0);
                self.line("{");
                self.line(&format!(
                    "let to = select(NO_LANE, (({addr} + {}u) / 4u) % WAVE_SIZE, lane_on);",
                    d.offset0
                ));
                self.line("let sender = xl_pusher(to, lane, xvc % 2u);");
                self.line("xvc = xvc + 1u;");
                self.line(&format!(
                    "let got = xl_value({data}, lane, select(sender, 0u, sender == NO_LANE), xvc % 2u);"
                ));
                self.line("xvc = xvc + 1u;");
                if let Some(p) = self.e.v(d.vdst) {
                    self.line(&format!(
                        "if lane_on {{ {p} = select(got, 0u, sender == NO_LANE); }}"
                    ));
                }
                self.line("}");
            }
        }
    }

    /// An image instruction whose descriptors come from registers the program
    /// computes: the module specialises on the T# (and S#) the launch's first
    /// wave holds when the CPU reference reaches the instruction
    /// ([`Predict`]), as the straight-line translation specialises on
    /// constant descriptors, and checks every wave's registers against them
    /// where it runs: a wave that holds other descriptors there faults, so
    /// the run fails instead of using the wrong ones.
    pub(super) fn emit_image(
        &mut self,
        offset: usize,
        m: &crate::ir::image::ImageOp,
    ) -> Result<(), TranslateError> {
        let not = |why: &str| {
            err(
                offset,
                format!("GPU backend: the image instruction's descriptors could not be predicted ({why}): not translated"),
            )
        };
        let predict = self
            .predict
            .ok_or_else(|| not("no prediction was given to the translation"))?;
        let w = predict(self.index).ok_or_else(|| not("the CPU reference did not reach it"))?;
        let tsharp = crate::texture::resource::read_tsharp(m, &w, &self.e.prog.arch)
            .map_err(|e| not(&e.to_string()))?;
        self.e.ssharp = std::array::from_fn(|i| w.sgpr(m.ssamp + i as u32));
        self.e.tsharp_words = crate::texture::sample::status::tsharp_words(m, |n| w.sgpr(n));
        // The guard: every dword the specialisation read.
        let mut regs: Vec<u32> = (0..8).map(|k| m.srsrc + k).collect();
        if crate::gpu::translate::sample::is_sampler(m) {
            regs.extend((0..4).map(|k| m.ssamp + k));
        }
        let mut checks = Vec::new();
        for n in regs {
            if n < crate::machine::state::SGPRS {
                let v = self.read(Reg::Sgpr(n));
                checks.push(format!("{v} != {}u", w.sgpr(n)));
            }
        }
        let fault = self.fault(
            offset,
            "GPU backend: the image instruction's descriptors differ from those the translation specialised on (the launch's first wave's, as the CPU reference computes them): not translated".into(),
        );
        self.line(&format!("if {} {{ {fault} }}", checks.join(" || ")));
        self.e.emit_image(offset, m, tsharp)
    }
}

/// The code `widen_load` (shaders/program.wgsl) takes for a short load.
fn width_code(w: Width) -> u32 {
    match w {
        Width::U8 => 0,
        Width::I8 => 1,
        Width::U16 => 2,
        Width::I16 => 3,
        Width::D16U8 => 4,
        Width::D16I8 => 5,
        Width::D16B16 => 6,
        Width::D16HiU8 => 7,
        Width::D16HiI8 => 8,
        Width::D16HiB16 => 9,
        Width::Dwords(_) => 10,
    }
}

/// Bytes a short store writes and the shift of its data
/// (`cpu::memops::narrow`).
fn store_bytes(w: Width) -> (u32, u32) {
    match w {
        Width::U8 | Width::I8 | Width::D16U8 | Width::D16I8 => (1, 0),
        Width::D16HiU8 | Width::D16HiI8 => (1, 16),
        Width::U16 | Width::I16 | Width::D16B16 => (2, 0),
        Width::D16HiB16 => (2, 16),
        Width::Dwords(_) => (4, 0),
    }
}

/// The line that applies atomic `code` (`ir::atomic::AtomicOp`'s
/// discriminant) to `old` with the data and compare values: cpu::memops'
/// `read_modify`, through `apply32`/`apply64` (shaders/atomic.wgsl).
fn apply(code: u32, wide: bool, (d0, d1): (&str, &str), (c0, c1): (&str, &str)) -> String {
    if wide {
        format!("    let nv = apply64({code}u, old, vec2<u32>({d0}, {d1}), vec2<u32>({c0}, {c1}));")
    } else {
        format!("    let nv = vec2<u32>(apply32({code}u, old.x, {d0}, {c0}), 0u);")
    }
}
