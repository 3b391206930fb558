//! Shared ALU sites: one copy of a heavy float function per module instead
//! of one per instruction.
//!
//! Every f32, f16 and f64 operation of a whole program is a call into the
//! exact software arithmetic of `shaders/alu_f32.wgsl` & co., and Mesa
//! inlines every call: `kernels/math.toml`'s 230 f32 operations became
//! 2 MB of inlined code (an `f32op_fma` is 10 KB, an `f64op_add` 77 KB) that
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

use super::Whole;
use crate::gpu::translate::alu_call::{self, generic_float_callee, Pair};
use crate::ir::alu::{AluOp, Dst, Unit};
use crate::ir::Op;
use std::collections::BTreeMap;
use std::fmt::Write as _;

/// The library function an operation calls, when the operation may call it
/// through a shared site: a vector operation on one of the generic float
/// forms, without DPP (whose shuffled input is a lane exchange), packed
/// halves, mixed precision or a lane-mask result (a gather), and not half
/// of a dual issue.
fn shareable(op: &AluOp) -> Option<(String, bool)> {
    let plain = op.unit == Unit::Vector
        && op.dpp.is_none()
        && op.packed.is_none()
        && op.mix.is_none()
        && !matches!(op.bit_dst, Some(Dst::Mask(_) | Dst::Exec(_)));
    if plain {
        generic_float_callee(op.func)
    } else {
        None
    }
}

/// The shared functions of a module: those to call through sites, in site
/// order, with whether each takes 64-bit inputs.
#[derive(Default)]
pub(super) struct Sites {
    funcs: Vec<(String, bool)>,
    /// The next continuation case: after the program's ops, below the
    /// turn loop's flags.
    next_case: u32,
}

impl Sites {
    /// Chooses the shared functions of `ops` given the library text `lib`
    /// (where each function's inlined size is measured): none while every
    /// call inlined stays within `budget` bytes (`Options::share_alu_above`);
    /// else, largest total first, those called at least twice until the
    /// rest fits.
    pub(super) fn choose(ops: &[(usize, Op)], lib: &str, budget: u64) -> Self {
        let mut uses: BTreeMap<(String, bool), u64> = BTreeMap::new();
        for (_, op) in ops {
            if let Op::Alu(a) = op {
                if let Some(f) = shareable(a) {
                    *uses.entry(f).or_default() += 1;
                }
            }
        }
        let mut cost: Vec<((String, bool), u64, u64)> = uses
            .into_iter()
            .map(|(f, n)| {
                let bytes = crate::gpu::wgsl::function_inlined_bytes(lib, &f.0);
                (f, n, bytes)
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
        Sites {
            funcs,
            next_case: ops.len() as u32,
        }
    }

    /// The site an operation calls its function through, if it is shared.
    pub(super) fn site(&self, op: &AluOp) -> Option<u32> {
        let f = shareable(op)?;
        self.funcs.iter().position(|g| *g == f).map(|i| i as u32)
    }

    /// True when the module has a shared site (its turn loop evaluates
    /// them).
    pub(super) fn any(&self) -> bool {
        !self.funcs.is_empty()
    }

    /// `alu_shared`: the module's sites, each its function called once.
    pub(super) fn function(&self) -> String {
        let mut s = String::from(
            "\n// The module's shared ALU sites (src/gpu/translate/whole/shared.rs).\nfn alu_shared(site: u32, fam: u32, sub: u32, mode: u32, a: vec2<u32>, b: vec2<u32>, c: vec2<u32>, k: bool) -> vec3<u32> {\n    switch site {\n",
        );
        for (i, (f, wide)) in self.funcs.iter().enumerate() {
            let args = if *wide { "a, b, c" } else { "a.x, b.x, c.x" };
            writeln!(
                s,
                "        case {i}u: {{ return {f}(fam, sub, mode, {args}, k); }}"
            )
            .ok();
        }
        s.push_str("        default: { return vec3<u32>(0u); }\n    }\n}\n");
        s
    }
}

impl Whole<'_> {
    /// A vector operation through shared site `site`: the inputs of every
    /// lane and the site, the end of the `case`, then, in the case the loop
    /// resumes at, the result of each active lane written as
    /// `emit_vector_alu` writes it.
    pub(super) fn emit_shared_alu(&mut self, op: &AluOp, site: u32) {
        let sig = op.func.signature();
        let k_mask = op.bit_src.map(|b| self.mask(b));
        let mut x: [Pair; 3] = Default::default();
        for (i, t) in sig.inputs.iter().enumerate() {
            x[i] = match t {
                Some(t) => self.vector_input(op, i, *t),
                None => ("0u".into(), "0u".into()),
            };
        }
        let k = match &k_mask {
            Some((lo, hi)) => format!("mask_bit({lo}, {hi}, lane)"),
            None => "false".into(),
        };
        self.line(&format!(
            "alu_a = vec2<u32>({}, {});\nalu_b = vec2<u32>({}, {});\nalu_c = vec2<u32>({}, {});\nalu_k = {k};",
            x[0].0, x[0].1, x[1].0, x[1].1, x[2].0, x[2].1
        ));
        let cont = self.sites.next_case;
        self.sites.next_case += 1;
        self.line(&format!(
            "alu_fam = {};\nalu_sub = {}u;\nalu_site = {site}u;\ncont = {cont}u;",
            alu_call::fam(op.func.family),
            alu_call::sub_code(op.func.family)
        ));
        writeln!(self.e.body, "            }}\n            case {cont}u: {{").ok();
        self.line("{");
        self.line("if is_active(exec_lo, exec_hi, lane) {");
        self.line("    let r = alu_r;");
        self.emit_vector_result(op, &x, &k);
        self.line("}");
        self.line("}");
    }
}
