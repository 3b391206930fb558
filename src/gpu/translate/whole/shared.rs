//! Shared ALU sites: one copy of a heavy float function per module instead
//! of one per instruction.
//!
//! Every f32, f16 and f64 operation of a whole program is a call into the
//! exact software arithmetic of `shaders/alu_f32.wgsl` & co., and Mesa
//! inlines every call: `kernels/math.toml`'s 230 f32 operations became
//! 2 MB of inlined code (an f32 fma was 10 KB, an `f64op_add` 77 KB) that
//! lavapipe took about a minute to build. Where the calls of a module would
//! inline past `Options::share_alu_above` bytes (64 KiB unless set,
//! `--share-alu-above`), the functions with the most inlined
//! bytes among those called more than once are *shared*: an instruction
//! calling one stores its inputs (`alu_a`, `alu_b`, `alu_c`, `alu_k`, the
//! family and its `sub` code) and the site's number, and ends its `case`
//! with `cont`, the number of the case that resumes after it; the turn
//! loop, seeing `cont`, calls `alu_shared` — one `switch` over the module's
//! sites, each calling its function once — for every lane, and enters that
//! case without the barrier between blocks. The result, `alu_r`, is what
//! the call would have returned, so the values are the same bits; the price
//! is one more trip of the loop per such instruction.
//!
//! gfx11 VINTERP's exact fused multiply-add (`fma_bits`, about 9 KB inlined;
//! a RADV pixel shader interpolates with a dozen) shares the same way: its
//! three operands, modifiers applied, in `alu_a`, `alu_b`, `alu_c`, its
//! output modifier and write in the case after the site
//! (`interp_gfx11::emit_vinterp`).
//!
//! Typed buffer accesses whose format comes from the V# (MUBUF `_format`)
//! share the same way: a load's texel conversion (`typed_convert`, every
//! number format's `load_texel` path, once per component) and a store's
//! packing (`typed_pack`) run at a site, the lane's texel or values, format
//! and place carried in the same variables, and the writes in the case
//! after it (`Whole::emit_typed_result`).

use super::Whole;
use crate::gpu::translate::alu_call::{self, generic_float_callee, Pair};
use crate::gpu::translate::Emitter;
use crate::ir::alu::{AluOp, Dst, Packed, Unit};
use crate::ir::mem::{Access, VectorMem};
use crate::ir::Op;
use std::collections::BTreeMap;
use std::fmt::Write as _;

/// The site kind of a typed buffer access whose format comes from the V#
/// (MUBUF `_format`): its conversion is a run-time choice among every
/// format's, which a site can hold once.
fn typed_callee(m: &VectorMem) -> Option<Callee> {
    match m.access {
        Access::Typed {
            store,
            format: None,
            ..
        } => Some(if store {
            Callee::TypedStore
        } else {
            Callee::TypedLoad
        }),
        _ => None,
    }
}

/// The library function an operation calls, when the operation may call it
/// through a shared site: a vector operation on one of the generic float
/// forms, without DPP (whose shuffled input is a lane exchange), mixed
/// precision or a lane-mask result (a gather), and not half of a dual
/// issue. A packed operation calls it twice, a half at a time.
fn shareable(op: &AluOp) -> Option<(String, bool)> {
    let plain = op.unit == Unit::Vector
        && op.dpp.is_none()
        && op.mix.is_none()
        && (op.packed.is_none() || op.bit_src.is_none())
        && !matches!(op.bit_dst, Some(Dst::Mask(_) | Dst::Exec(_)));
    if plain {
        generic_float_callee(op.func)
    } else {
        None
    }
}

/// What an operation would call through a shared site, if it may.
fn callee(op: &Op) -> Option<Callee> {
    match op {
        Op::Alu(a) => shareable(a).map(|(f, wide)| Callee::Alu(f, wide)),
        Op::VectorMem(m) => typed_callee(m),
        Op::Vinterp(_) => Some(Callee::Fma),
        _ => None,
    }
}

/// The calls an operation makes of its shared function: two for a packed
/// operation (a half each), else one.
fn calls(op: &Op) -> u64 {
    match op {
        Op::Alu(a) if a.packed.is_some() => 2,
        _ => 1,
    }
}

/// What a shared site calls.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Callee {
    /// A float-library function, with whether it takes 64-bit inputs.
    Alu(String, bool),
    /// VINTERP's fused multiply-add of three f32 operands (`fma_bits`).
    Fma,
    /// A typed buffer load's conversion of a texel whose format comes from
    /// the V# (`typed_convert`: `load_texel` through `typed_layout`).
    TypedLoad,
    /// A typed buffer store's packing of its values by a format from the V#
    /// (`typed_pack`: `store_texel` through `typed_layout`).
    TypedStore,
}

/// `typed_convert` and `typed_pack` (declared in a module with a typed
/// site): the conversions `emit_typed` writes in place otherwise.
const TYPED_FNS: &str = "\n// A typed load's texel converted, a typed store's values packed, by a\n// run-time format (whole/typed.rs).\nfn typed_convert(raw: vec4<u32>, tf: u32) -> vec4<u32> {\n    let tl = typed_layout(tf & 0xffu);\n    return load_texel(raw, (tf >> 8u) & 0xffu, tl.packed, tl.count, tl.lo, tl.width);\n}\n\nfn typed_pack(rgba: vec4<u32>, tf: u32) -> vec4<u32> {\n    let tl = typed_layout(tf & 0xffu);\n    return store_texel(rgba, (tf >> 8u) & 0xffu, tl.packed, tl.count, tl.lo, tl.width);\n}\n";

/// How many times its bytes a typed access's conversion counts for. The
/// driver folds a float function's copy to the path its constant arguments
/// take before it builds it; a typed conversion dispatches on the format the
/// V# gives at run time, so every copy keeps every format's path. Sharing
/// `typed_buffer.toml`'s three such stores (56 KB of its 370 KB inlined,
/// under the default budget by bytes alone) took 0.3–0.5 s off lavapipe's
/// build of about 4 s.
const UNFOLDED: u64 = 8;

/// The shared functions of a module: those to call through sites, in site
/// order.
#[derive(Default)]
pub(super) struct Sites {
    funcs: Vec<Callee>,
    /// The next continuation case: after the program's ops, below the
    /// turn loop's flags.
    next_case: u32,
}

impl Sites {
    /// Chooses the shared functions of `ops` given the library text `lib`
    /// makes (where each function's inlined size is measured; built and
    /// parsed only when some function is called twice): none while every
    /// call inlined stays within `budget` bytes (`Options::share_alu_above`);
    /// else, largest total first, those called at least twice until the
    /// rest fits.
    pub(super) fn choose(ops: &[(usize, Op)], lib: impl FnOnce() -> String, budget: u64) -> Self {
        let mut uses: BTreeMap<Callee, u64> = BTreeMap::new();
        for (_, op) in ops {
            if let Some(c) = callee(op) {
                *uses.entry(c).or_default() += calls(op);
            }
        }
        let next_case = ops.len() as u32;
        if uses.values().all(|&n| n < 2) {
            // Nothing could be shared: no library to measure.
            return Sites {
                funcs: Vec::new(),
                next_case,
            };
        }
        let with_typed = format!("{}{TYPED_FNS}", lib());
        let names: Vec<&str> = uses
            .keys()
            .map(|f| match f {
                Callee::Alu(name, _) => name.as_str(),
                Callee::Fma => "fma_bits",
                Callee::TypedLoad => "typed_convert",
                Callee::TypedStore => "typed_pack",
            })
            .collect();
        let bytes = crate::gpu::wgsl::functions_inlined_bytes(&with_typed, &names);
        let mut cost: Vec<(Callee, u64, u64)> = uses
            .into_iter()
            .zip(bytes)
            .map(|((f, n), b)| match f {
                Callee::TypedLoad | Callee::TypedStore => (f, n, b * UNFOLDED),
                _ => (f, n, b),
            })
            .collect();
        let mut total: u64 = cost.iter().map(|(_, n, b)| n * b).sum();
        cost.sort_by_key(|(f, n, b)| (std::cmp::Reverse(n * b), f.clone()));
        let mut funcs = Vec::new();
        for (f, n, b) in cost {
            if total <= budget {
                break;
            }
            if n >= 2 {
                total -= (n - 1) * b;
                funcs.push(f);
            }
        }
        Sites { funcs, next_case }
    }

    /// The site of `c`, if it is shared.
    fn index(&self, c: &Callee) -> Option<u32> {
        self.funcs.iter().position(|g| g == c).map(|i| i as u32)
    }

    /// The trips of the turn loop an operation's shared sites add: one per
    /// call of a shared function, none for an operation that shares nothing.
    pub(super) fn trips(&self, op: &Op) -> u32 {
        match callee(op) {
            Some(c) if self.index(&c).is_some() => calls(op) as u32,
            _ => 0,
        }
    }

    /// The site an operation calls its function through, if it is shared.
    pub(super) fn site(&self, op: &AluOp) -> Option<u32> {
        let (f, wide) = shareable(op)?;
        self.index(&Callee::Alu(f, wide))
    }

    /// The site a typed access converts its texel or values through, if it
    /// is shared.
    pub(super) fn typed_site(&self, m: &VectorMem) -> Option<u32> {
        self.index(&typed_callee(m)?)
    }

    /// The site VINTERP's multiply-add goes through, if it is shared.
    pub(super) fn fma_site(&self) -> Option<u32> {
        self.index(&Callee::Fma)
    }

    /// The number of a new case to resume at after a site.
    pub(super) fn new_case(&mut self) -> u32 {
        let c = self.next_case;
        self.next_case += 1;
        c
    }

    /// True when the module has a shared site (its turn loop evaluates
    /// them).
    pub(super) fn any(&self) -> bool {
        !self.funcs.is_empty()
    }

    /// `alu_shared`: the module's sites, each its function called once, the
    /// result in the low dwords of a `vec4<u32>` (a typed access's site
    /// takes the texel or values in `a` and `b`, the format in `c.x`).
    pub(super) fn function(&self) -> String {
        let mut s = String::new();
        if self.funcs.contains(&Callee::TypedLoad) || self.funcs.contains(&Callee::TypedStore) {
            s.push_str(TYPED_FNS);
        }
        s.push_str(
            "\n// The module's shared ALU sites (src/gpu/translate/whole/shared.rs).\nfn alu_shared(site: u32, fam: u32, sub: u32, mode: u32, a: vec2<u32>, b: vec2<u32>, c: vec2<u32>, k: bool) -> vec4<u32> {\n    switch site {\n",
        );
        for (i, f) in self.funcs.iter().enumerate() {
            let call = match f {
                Callee::Alu(f, true) => format!("vec4<u32>({f}(fam, sub, mode, a, b, c, k), 0u)"),
                Callee::Alu(f, false) => {
                    format!("vec4<u32>({f}(fam, sub, mode, a.x, b.x, c.x, k), 0u)")
                }
                Callee::Fma => "vec4<u32>(fma_bits(a.x, b.x, c.x), 0u, 0u, 0u)".into(),
                Callee::TypedLoad => "typed_convert(vec4<u32>(a, b), c.x)".into(),
                Callee::TypedStore => "typed_pack(vec4<u32>(a, b), c.x)".into(),
            };
            writeln!(s, "        case {i}u: {{ return {call}; }}").ok();
        }
        s.push_str("        default: { return vec4<u32>(0u); }\n    }\n}\n");
        s
    }
}

/// Ends the `case` at a call of shared site `site`, the turn loop resuming
/// at case `cont` after the call, and opens that case.
pub(in crate::gpu::translate) fn split_at_site(e: &mut Emitter, site: u32, cont: u32) {
    e.line(&format!("alu_site = {site}u;\ncont = {cont}u;"));
    writeln!(e.body, "            }}\n            case {cont}u: {{").ok();
}

impl Whole<'_> {
    /// Ends the `case` at a call of shared site `site` (its inputs set) and
    /// opens the case the turn loop resumes at after the call.
    pub(super) fn resume_after_site(&mut self, site: u32) {
        let cont = self.sites.new_case();
        split_at_site(&mut self.e, site, cont);
    }

    /// Hands `op`'s inputs `x` and lane bit `k` (WGSL expressions), its
    /// family and `sub` code to shared site `site`, ends the `case` and
    /// opens the one the turn loop resumes at after the call.
    fn call_site(&mut self, op: &AluOp, x: &[Pair; 3], k: &str, site: u32) {
        self.line(&format!(
            "alu_a = vec2<u32>({}, {});\nalu_b = vec2<u32>({}, {});\nalu_c = vec2<u32>({}, {});\nalu_k = {k};",
            x[0].0, x[0].1, x[1].0, x[1].1, x[2].0, x[2].1
        ));
        self.line(&format!(
            "alu_fam = {};\nalu_sub = {}u;",
            alu_call::fam(op.func.family),
            alu_call::sub_code(op.func.family)
        ));
        self.resume_after_site(site);
    }

    /// A vector operation through shared site `site`: the inputs of every
    /// lane and the site, the end of the `case`, then, in the case the loop
    /// resumes at, the result of each active lane written as
    /// `emit_vector_alu` writes it.
    pub(super) fn emit_shared_alu(&mut self, op: &AluOp, site: u32) {
        if let Some(p) = op.packed {
            self.emit_shared_packed(op, p, site);
            return;
        }
        let k = self.lane_bit_of(op.bit_src);
        let x = self.vector_inputs(op);
        self.call_site(op, &x, &k, site);
        self.line("{");
        self.line("if lane_on {");
        self.line("    let r = alu_r.xyz;");
        self.emit_vector_result(op, &x, &k);
        self.line("}");
        self.line("}");
    }

    /// A packed operation through shared site `site`, a half at a time: the
    /// low half's inputs to the site, its result with the output modifiers
    /// kept in `alu_h` in the case after it, the high half's inputs to the
    /// site again, and in the case after that the two halves written as
    /// `emit_packed` writes them. Packed float operations read no lane mask.
    fn emit_shared_packed(&mut self, op: &AluOp, p: Packed, site: u32) {
        let Some(t) = op.func.signature().output else {
            return;
        };
        let [lo, hi] = self.packed_inputs(op, p);
        for (half, x) in [&lo, &hi].into_iter().enumerate() {
            self.call_site(op, x, "false", site);
            if half == 0 {
                self.line(&format!(
                    "alu_h = {};",
                    super::alu::output(op, t, x, "false", "alu_r.x")
                ));
            }
        }
        self.line("{");
        self.line("if lane_on {");
        let high = super::alu::output(op, t, &hi, "false", "alu_r.x");
        self.write_packed(op, "alu_h", &high);
        self.line("}");
        self.line("}");
    }
}
