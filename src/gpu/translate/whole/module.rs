//! The text of a whole-program module: the library, the blocks in a
//! `switch`, and the loop that runs the waves of a workgroup in turn.

use super::*;
use crate::gpu::translate::{DEVICE_LOOP_FAULT, FAULT_WORD, LANE_ON_UPDATE};

impl Whole<'_> {
    /// The module: the library, the blocks in a `switch`, and the turn loop.
    pub(super) fn finish(self) -> (String, Vec<u32>) {
        let e = self.e;
        let ws = e.wave_size;
        let mut vgprs = vec![0u32; e.vslots.len()];
        for (&n, &k) in &e.vslots {
            vgprs[k] = n;
        }
        let mut sgprs = vec![0u32; e.sslots.len()];
        for (&n, &k) in &e.sslots {
            sgprs[k] = n;
        }
        let nv = vgprs.len().max(1);
        let ns = sgprs.len().max(1);
        let state_words = HEADER_WORDS + vgprs.len() as u32 * ws;
        let mut out = library(e.prog, e.mem, (ws, e.lds_bytes), state_words);
        out.push_str(&e.decls);
        let sharing = self.sites.any();
        if sharing {
            out.push_str(&self.sites.function());
        }
        let room = e.room.min(u64::from(u32::MAX));
        let _ = room;
        writeln!(
            out,
            "\n@compute @workgroup_size({ws})\nfn main(@builtin(workgroup_id) wg: vec3<u32>, @builtin(local_invocation_index) lane: u32) {{"
        )
        .ok();
        out.push_str(
            "    let first = params.wave_base + wg.x + wg.y * params.groups_x;
    if first >= params.wave_count { return; }
    if lane == 0u { wg_u = st[first * STATE_WORDS + GROUP_WORD]; }
    let count = workgroupUniformLoad(&wg_u);
    if count == 0u { return; }
    let lds_base = first * params.lds_stride;
    _ = trace[0];
    _ = atomicLoad(&lds[0]);
    _ = atomicLoad(&mem[0]);
    var xmc = 0u;
    var xvc = 0u;
",
        );
        writeln!(
            out,
            "    var s: array<u32, {ns}>;\n    var v: array<u32, {nv}>;"
        )
        .ok();
        // The lane bits of masks not yet gathered (lanemask.rs).
        for k in 0..self.lazy.slots {
            writeln!(out, "    var lm{k} = false;").ok();
        }
        writeln!(
            out,
            "    var m0 = 0u;\n    var exec_lo = 0u;\n    var exec_hi = 0u;\n    var {LANE_ON_UPDATE}\n    var vcc_lo = 0u;\n    var vcc_hi = 0u;\n    var scc = 0u;\n    var mode = 0u;\n    var steps_jumped = 0u;",
        )
        .ok();
        if sharing {
            // A shared site's inputs and result, and the case that resumes
            // after it (0: none pending; shared.rs).
            out.push_str("    var alu_a = vec2<u32>(0u);\n    var alu_b = vec2<u32>(0u);\n    var alu_c = vec2<u32>(0u);\n    var alu_k = false;\n    var alu_fam = 0u;\n    var alu_sub = 0u;\n    var alu_site = 0u;\n    var alu_r = vec4<u32>(0u);\n    var alu_h = 0u;\n    var alu_ok = false;\n    var cont = 0u;\n");
        }
        let max_block = self.max_block_cost;
        writeln!(
            out,
            "    // Loop iterations run (ITER_BUDGET; the largest block costs {max_block}).\n    var spent = 0u;"
        )
        .ok();
        // A workgroup whose turn was suspended stalls the dispatches after it
        // (trace[0]), which run again, in order, with it.
        out.push_str("    if lane == 0u { wg_u = trace[0]; }\n    if workgroupUniformLoad(&wg_u) != 0u { return; }\n");
        out.push_str("    if lane == 0u { wg_u = st[first * STATE_WORDS + RESUME_WORD]; }\n    var start = workgroupUniformLoad(&wg_u);\n    var suspended = false;\n");
        out.push_str("    loop {\n        spent = spent + 1u + 2u * count;\n        for (var k = start; k < count; k = k + 1u) {\n            let sb = (first + k) * STATE_WORDS;\n            if lane == 0u { wg_u = st[sb + STATUS_WORD]; }\n            if workgroupUniformLoad(&wg_u) == 1u { continue; }\n");
        for (k, n) in sgprs.iter().enumerate() {
            writeln!(out, "            s[{k}] = st[sb + {n}u];").ok();
        }
        for (k, _) in vgprs.iter().enumerate() {
            let word = HEADER_WORDS + k as u32 * ws;
            writeln!(out, "            v[{k}] = st[sb + {word}u + lane];").ok();
        }
        let m0 = crate::gpu::translate::M0_WORD;
        writeln!(out, "            m0 = st[sb + {m0}u];\n            exec_lo = st[sb + {}u];\n            exec_hi = st[sb + {}u];\n            {LANE_ON_UPDATE}\n            vcc_lo = st[sb + {}u];\n            vcc_hi = st[sb + {}u];", m0 + 1, m0 + 2, m0 + 3, m0 + 4).ok();
        out.push_str("            scc = st[sb + SCC_WORD];\n            mode = st[sb + MODE_WORD];\n            steps_jumped = st[sb + STEPS_WORD];\n            if lane == 0u { wg_u = st[sb + PC_WORD]; }\n            var pc = workgroupUniformLoad(&wg_u);\n");
        out.push_str("            loop {\n            if pc >= STOP { break; }\n            var next = ENDED;\n            switch pc {\n");
        out.push_str(&e.body);
        out.push_str("            default: { next = ENDED; }\n            }\n");
        if sharing {
            // A case that ended at a shared site: its call for every lane,
            // then the case after it, within the block (no barrier).
            out.push_str("            if cont != 0u {\n                alu_r = alu_shared(alu_site, alu_fam, alu_sub, mode, alu_a, alu_b, alu_c, alu_k);\n                pc = cont;\n                cont = 0u;\n                continue;\n            }\n");
        }
        writeln!(out, "            // Every lane's fault recorded before lane 0 looks.\n            workgroupBarrier();\n            if lane == 0u {{\n                var n = select(next, FAULTED, atomicLoad(&wg_fault) != 0u);\n                if n < STOP && spent + {max_block}u + 1u + 2u * count > ITER_BUDGET {{ n = SUSPEND | n; }}\n                wg_u = n;\n            }}\n            pc = workgroupUniformLoad(&wg_u);\n            }}").ok();
        // Write back.
        out.push_str(
            "            let paused = pc >= SUSPEND && pc < ENDED;\n            if lane == 0u {\n",
        );
        for (k, n) in sgprs.iter().enumerate() {
            writeln!(out, "                st[sb + {n}u] = s[{k}];").ok();
        }
        writeln!(out, "                st[sb + {m0}u] = m0;\n                st[sb + {}u] = exec_lo;\n                st[sb + {}u] = exec_hi;\n                st[sb + {}u] = vcc_lo;\n                st[sb + {}u] = vcc_hi;", m0 + 1, m0 + 2, m0 + 3, m0 + 4).ok();
        out.push_str("                st[sb + SCC_WORD] = scc;\n                st[sb + MODE_WORD] = mode;\n                st[sb + STEPS_WORD] = steps_jumped;\n                st[sb + PC_WORD] = pc & 0x1fffffffu;\n                st[sb + STATUS_WORD] = select(select(0u, 1u, pc >= ENDED), SUSPENDED, paused);\n                if paused {\n                    st[first * STATE_WORDS + RESUME_WORD] = k;\n                    trace[0] = 1u;\n                }\n                let f = atomicLoad(&wg_fault);\n                if f != 0u {\n                    st[sb + FAULT_WORD] = 0xffffffffu - f;\n                    atomicStore(&wg_fault, 0u);\n                }\n            }\n");
        for (k, _) in vgprs.iter().enumerate() {
            let word = HEADER_WORDS + k as u32 * ws;
            writeln!(out, "            st[sb + {word}u + lane] = v[{k}];").ok();
        }
        out.push_str("            storageBarrier();\n            if paused { suspended = true; break; }\n        }\n        if suspended { break; }\n        start = 0u;\n        // Another round while a wave has not ended.\n        if lane == 0u {\n            var left = 0u;\n            for (var j = 0u; j < count; j = j + 1u) {\n                if st[(first + j) * STATE_WORDS + STATUS_WORD] != 1u { left = 1u; }\n            }\n            wg_u = left;\n        }\n        if workgroupUniformLoad(&wg_u) == 0u { break; }\n    }\n    if !suspended && lane == 0u { st[first * STATE_WORDS + RESUME_WORD] = 0u; }\n");
        // The canary: a loop of two trips the compiler cannot count. A device
        // that stops loops after a number of iterations in all (llvmpipe) has
        // run none of it when it stopped the program's own loops early; the
        // wave's result is then wrong and the run must fail, not report it.
        out.push_str("    var canary = 0u;\n    for (var i = 0u; i < params.opaque_zero + 2u; i = i + 1u) { canary = canary + 1u; }\n    if canary != 2u && lane == 0u { st[first * STATE_WORDS + FAULT_WORD] = DEVICE_LOOP_FAULT; }\n}\n");
        (out, vgprs)
    }
}

/// A whole-program module that writes memory made speculative
/// (`shaders/speculate.wgsl`): the table's binding and the recording
/// `spec_touch` in place of the empty one, and the workgroup's name set at
/// the start of `main`.
pub(super) fn speculative(module: &str) -> String {
    let spec = crate::gpu::wgsl::SPECULATE.replace(
        "SPEC_BINDING",
        &crate::gpu::translate::SPEC_BINDING.to_string(),
    );
    module
        .replacen(crate::gpu::wgsl::NO_SPECULATION, &spec, 1)
        .replacen(
            FIRST_LINE,
            &format!("{FIRST_LINE}    spec_id = first + 1u;\n"),
            1,
        )
}

/// The line of `main` after which a workgroup knows its first wave.
const FIRST_LINE: &str = "    if first >= params.wave_count { return; }\n";

/// The declarations and library of a whole-program module: the straight-line
/// modules' prelude (bindings, constants, the image library) with LDS made a
/// read-write atomic binding, then what only whole programs use.
fn prelude(mem: &Memory, lds_bytes: u32, ws: u32, state_words: u32) -> String {
    let base =
        crate::gpu::translate::wgsl::prelude(mem.bytes.len() as u64, lds_bytes, ws, state_words);
    let mut s = base
        .replace(
            "@group(0) @binding(2) var<storage, read> lds: array<u32>;",
            "@group(0) @binding(2) var<storage, read_write> lds: array<atomic<u32>>;",
        )
        // memory.wgsl's lds_dword reads the binding as plain words.
        .replace("return lds[w];", "return atomicLoad(&lds[w]);")
        .replace(
            "return (lds[w] >> s) | (lds[w + 1u] << (32u - s));",
            "return (atomicLoad(&lds[w]) >> s) | (atomicLoad(&lds[w + 1u]) << (32u - s));",
        );
    s = s.replace(
        "// Generated by gcnrun (src/gpu/translate.rs) from a decoded program.",
        "// Generated by gcnrun (src/gpu/translate/whole/) from a decoded program.",
    );
    writeln!(
        s,
        "\nconst MEM_BASE_LO: u32 = {}u;\nconst MEM_BASE_HI: u32 = {}u;",
        mem.base as u32,
        (mem.base >> 32) as u32
    )
    .ok();
    writeln!(
        s,
        "const SCC_WORD: u32 = {SCC_WORD}u;\nconst MODE_WORD: u32 = {MODE_WORD}u;\nconst PC_WORD: u32 = {PC_WORD}u;\nconst STATUS_WORD: u32 = {STATUS_WORD}u;\nconst GROUP_WORD: u32 = {GROUP_WORD}u;\nconst STEPS_WORD: u32 = {STEPS_WORD}u;\nconst RESUME_WORD: u32 = {RESUME_WORD}u;\nconst SUSPENDED: u32 = {SUSPENDED}u;\nconst SUSPEND: u32 = {SUSPEND}u;\nconst ITER_BUDGET: u32 = {ITER_BUDGET}u;\nconst FAULT_WORD: u32 = {FAULT_WORD}u;\nconst DEVICE_LOOP_FAULT: u32 = {DEVICE_LOOP_FAULT}u;\nconst STOP: u32 = {STOP}u;\nconst ENDED: u32 = {ENDED}u;\nconst FAULTED: u32 = {FAULTED}u;"
    )
    .ok();
    s.push_str(&crate::gpu::translate::alu_call::family_consts());
    use crate::gpu::translate::alu_call::{ALU_F16, ALU_F32, ALU_F64, ALU_INT, FMA};
    for lib in [FMA, ALU_INT, ALU_F32, ALU_F16, ALU_F64, PROGRAM] {
        s.push('\n');
        s.push_str(lib);
    }
    s
}

/// The library text a module of `prog` holds before its own declarations:
/// the prelude, and the transcendental and typed-format functions where the
/// program uses them. [`Whole::finish`] starts the module with it, and
/// [`super::shared::Sites`] measures in it what a call of each function
/// costs (with any `state_words`).
pub(super) fn library(
    prog: &Program,
    mem: &Memory,
    (ws, lds_bytes): (u32, u32),
    state_words: u32,
) -> String {
    let mut out = prelude(mem, lds_bytes, ws, state_words);
    if uses_transcendentals(prog) {
        out.push_str(&crate::ir::fixed::wgsl_consts());
        out.push_str(ALU_TRANS);
    }
    if super::typed::uses_vsharp_formats(prog) {
        out.push_str(&super::typed::wgsl_tables());
    }
    out
}

/// True when a program computes `v_exp_f32`, `v_log_f32`, `v_sin_f32` or
/// `v_cos_f32`: its module includes `shaders/alu_trans.wgsl` (the others do
/// not pay for it).
fn uses_transcendentals(prog: &Program) -> bool {
    let f = |a: &AluOp| {
        matches!(
            a.func.family,
            Family::Exp | Family::Log | Family::Sin | Family::Cos
        )
    };
    prog.ops.iter().any(|(_, op)| match op {
        Op::Alu(a) => f(a),
        Op::Dual(p) => p.iter().any(f),
        _ => false,
    })
}

/// `shaders/alu_trans.wgsl`.
const ALU_TRANS: &str = include_str!("../../../../shaders/alu_trans.wgsl");
/// `shaders/program.wgsl`.
const PROGRAM: &str = include_str!("../../../../shaders/program.wgsl");
