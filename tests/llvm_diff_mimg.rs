//! Differential test of the MIMG decoder against LLVM 19 (`llvm-mc-19`).
//!
//! For each arch (gfx6 … gfx11, with gfx8.1 = gfx810 and gfx10.3 = gfx1030) it
//! draws random MIMG encodings with a fixed seed (`GCNRUN_SEED`; count per arch and
//! mode `GCNRUN_DIFF_SAMPLES`):
//! - mode A: a valid opcode of the generation with random fields (the bits LLVM
//!   ignores left clear, the fields an op fixes usually — not always — at their
//!   fixed value);
//! - mode B: fully random bits under the MIMG selector, random NSA dwords included.
//!
//! A second test runs every opcode on every processor gcnrun accepts (gfx8+),
//! where per-processor features differ within a generation (it found gfx1013's
//! msaa_load and BVH ops refused).
//!
//! gfx8+: gcn-run's text, validity and length must equal llvm-mc-19 `-disassemble`,
//! with one documented deviation (docs/errata.md, "atomic data width"): for an
//! atomic whose hardware data width (dmask + tfe) LLVM's assembler accepts but its
//! disassembler does not print, gcnrun prints the full width. Each such case must
//! differ from LLVM only in vdata, LLVM's text must be rejected by LLVM's
//! assembler, and gcnrun's must reassemble to the input.
//! Every arch: each instruction gcn-run calls valid must reassemble with
//! llvm-mc-19 to the input bytes. gfx6/gfx7 have no LLVM disassembler, so there
//! "valid" means exactly that.
//!
//! Round trips that cannot be byte-exact because of LLVM itself are counted, not
//! hidden, in two classes:
//! - `ignored`: the input sets bits that LLVM decodes but never prints (unused
//!   bits, gfx10 bit 14, NSA padding bytes and unused NSA address bytes; see
//!   `Mimg::ignored_bits`): the reassembly equals the input with those bits
//!   cleared (`Mimg::canonical_words`);
//! - `llvm_text_rejected` (gfx8+ only): LLVM's own disassembly (equal to ours)
//!   is rejected by LLVM's assembler — LLVM's disassembler keeps its default
//!   operand widths when no machine instruction fits (e.g. samples whose dim needs an address count with no register
//!   class, vdata tuples past v255, xnack_mask/tba register names).

mod common;

use common::llvm::{Dis as Llvm, LlvmMc};
use gcnrun::gcn::{self, mimg, mimg_ops, Kind};
use gcnrun::{Arch, Gen};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

const ARCHS: [&str; 8] = [
    "tahiti", "bonaire", "tonga", "gfx810", "gfx900", "gfx1010", "gfx1030", "gfx1100",
];

fn env_u64(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|v| {
            let v = v.trim();
            v.strip_prefix("0x")
                .map(|h| u64::from_str_radix(h, 16).ok())
                .unwrap_or_else(|| v.parse().ok())
        })
        .unwrap_or(default)
}

/// Bits that LLVM ignores (measured by toggling bits under llvm-mc-19); mode A
/// leaves them clear so that its round trips are exact.
fn ignored_mask(gen: Gen) -> u64 {
    match gen {
        Gen::Gfx10 => (1 << 6) | (1 << 14) | (0xf << 58),
        Gen::Gfx11 => (1 << 1) | (0x3 << 5) | (0x7 << 55) | (1 << 63),
        _ => 0xfe | (0x1f << 58),
    }
}

fn set(q: &mut u64, lo: u32, n: u32, v: u64) {
    let m = ((1u64 << n) - 1) << lo;
    *q = (*q & !m) | ((v << lo) & m);
}

/// Mode A: a valid opcode with random fields.
fn draw_valid_op(rng: &mut ChaCha8Rng, arch: &Arch) -> Vec<u32> {
    let gen = arch.gen;
    let ops: Vec<&mimg_ops::MimgOp> = mimg_ops::OPS
        .iter()
        .filter(|o| o.opcode(gen).is_some())
        .collect();
    let op = ops[rng.gen_range(0..ops.len())];
    let opc = u64::from(op.opcode(gen).unwrap());
    let mut q: u64 = rng.gen::<u64>() & !ignored_mask(gen);
    set(&mut q, 26, 6, 0b111100);
    // Field positions per research/encodings.md.
    let (ssamp_lo, d16_bit) = match gen {
        Gen::Gfx11 => (58, 17),
        _ => (53, 63),
    };
    match gen {
        Gen::Gfx11 => set(&mut q, 18, 8, opc),
        Gen::Gfx10 => {
            set(&mut q, 18, 7, opc & 0x7f);
            set(&mut q, 0, 1, opc >> 7);
        }
        _ => {
            set(&mut q, 18, 7, opc);
            set(&mut q, 0, 1, 0);
        }
    }
    if rng.gen_bool(0.9) {
        set(&mut q, 32, 8, rng.gen_range(0..240));
        set(&mut q, 40, 8, rng.gen_range(0..240));
    }
    if rng.gen_bool(0.85) {
        set(&mut q, 48, 5, rng.gen_range(0..25));
        set(&mut q, ssamp_lo, 5, rng.gen_range(0..26));
    }
    if !op.has_sampler() && rng.gen_bool(0.85) {
        set(&mut q, ssamp_lo, 5, 0);
    }
    if (!op.has_d16() || gen <= Gen::Gfx7) && rng.gen_bool(0.85) {
        set(&mut q, d16_bit, 1, 0);
    }
    if rng.gen_bool(0.3) {
        // Common case: few modifiers.
        let keep = match gen {
            Gen::Gfx11 => !((0x7u64 << 12) | (0x7 << 15) | (0x3 << 53)),
            Gen::Gfx10 => !((1u64 << 7) | (0x1f << 12) | (1 << 25) | (0x3 << 62)),
            _ => !((0x3fu64 << 12) | (1 << 25) | (1 << 63)),
        };
        q &= keep;
    }
    let nsa_words = match gen {
        Gen::Gfx10 => {
            let n = if rng.gen_bool(0.5) {
                0
            } else {
                rng.gen_range(1..=3)
            };
            set(&mut q, 1, 2, n);
            n
        }
        Gen::Gfx11 => {
            let n = u64::from(rng.gen_bool(0.5));
            set(&mut q, 0, 1, n);
            n
        }
        _ => 0,
    };
    if op.kind == mimg_ops::BaseKind::Bvh && rng.gen_bool(0.8) {
        // LLVM's fixed bvh fields: dmask 0xf, unorm, r128, no other modifiers, dim 0.
        match gen {
            Gen::Gfx11 => {
                q &= !((0x7u64 << 2) | (0x7 << 12) | (1 << 14) | (1 << 17) | (0x3 << 53));
                q |= (1 << 7) | (0xf << 8) | (1 << 15);
            }
            _ => {
                q &= !((0x7u64 << 3) | (1 << 7) | (1 << 13) | (0x3 << 16) | (1 << 25) | (1 << 63));
                q |= (0xf << 8) | (1 << 12) | (1 << 15);
            }
        }
        set(&mut q, ssamp_lo, 5, 0);
    }
    let mut words = vec![q as u32, (q >> 32) as u32];
    for _ in 0..nsa_words {
        words.push(rng.gen::<u32>() & 0x7f7f_7f7f);
    }
    words
}

/// Mode B: random bits under the MIMG selector, with the NSA dwords the first
/// dword asks for.
fn draw_random(rng: &mut ChaCha8Rng, arch: &Arch) -> Vec<u32> {
    let w0 = (rng.gen::<u32>() & 0x03ff_ffff) | (0b111100 << 26);
    let len = mimg::length_dwords(w0, arch);
    let mut words = vec![w0];
    for _ in 1..len {
        words.push(rng.gen());
    }
    words
}

fn bytes_of(words: &[u32]) -> Vec<u8> {
    words.iter().flat_map(|w| w.to_le_bytes()).collect()
}

fn hex(words: &[u32]) -> String {
    bytes_of(words).iter().map(|b| format!("{b:02x}")).collect()
}

#[derive(Default, Debug)]
struct Counts {
    samples: usize,
    agree_valid: usize,
    agree_invalid: usize,
    disagree: usize,
    rt_exact: usize,
    rt_ignored: usize,
    rt_llvm_text_rejected: usize,
    rt_fail: usize,
    ours_valid: usize,
    /// Documented deviation: atomics whose data width gcnrun prints as the
    /// hardware writes it (dmask + tfe) where LLVM prints a narrower default.
    atomic_width: usize,
}

/// True when two texts differ only in the first operand (vdata) of an atomic.
fn differs_only_in_vdata(ours: &str, llvm: &str) -> bool {
    let split = |t: &str| {
        let (mn, rest) = t.split_once(' ')?;
        let (_, tail) = rest.split_once(", ")?;
        Some((mn.to_string(), tail.to_string()))
    };
    ours.starts_with("image_atomic_")
        && ours != llvm
        && split(ours).is_some()
        && split(ours) == split(llvm)
}

#[test]
fn mimg_random_encodings_agree_with_llvm() {
    let Some(mc) = LlvmMc::find("llvm_diff_mimg") else {
        return;
    };
    let seed = env_u64("GCNRUN_SEED", 0x6763_6e72_756e);
    let per_mode = env_u64("GCNRUN_DIFF_SAMPLES", 300) as usize;
    eprintln!("llvm_diff_mimg: seed {seed:#x}, {per_mode} samples per arch and mode");
    let mut failures: Vec<String> = Vec::new();
    let mut total_fail = 0usize;
    // Why LLVM's assembler rejects LLVM's own disassembly (all archs together).
    let mut rejected_why: std::collections::BTreeMap<String, usize> = Default::default();
    for (ai, name) in ARCHS.iter().enumerate() {
        let arch = Arch::parse(name).unwrap();
        for mode in ["A", "B"] {
            let mut rng =
                ChaCha8Rng::seed_from_u64(seed ^ ((ai as u64) << 8) ^ u64::from(mode == "B"));
            let groups: Vec<Vec<u32>> = (0..per_mode)
                .map(|_| {
                    if mode == "A" {
                        draw_valid_op(&mut rng, &arch)
                    } else {
                        draw_random(&mut rng, &arch)
                    }
                })
                .collect();
            let has_disasm = arch.gen >= Gen::Gfx8;
            let theirs = if has_disasm {
                let bytes: Vec<Vec<u8>> = groups.iter().map(|g| bytes_of(g)).collect();
                mc.disassemble(arch.mcpu, &bytes)
            } else {
                Vec::new()
            };
            let mut c = Counts {
                samples: groups.len(),
                ..Counts::default()
            };
            let mut to_asm: Vec<(usize, String, Vec<u32>, Vec<u32>)> = Vec::new();
            let mut deviations: Vec<(String, Vec<u32>)> = Vec::new();
            for (i, g) in groups.iter().enumerate() {
                let inst = gcn::decode::decode_one(g, 0, &arch).expect("whole instruction given");
                let ours = match &inst.kind {
                    Kind::Invalid { .. } => None,
                    // llvm-mc prints the *re-encoded* instruction, so the length to
                    // compare is that of our canonical (re-encodable) form; the bytes
                    // consumed follow from the NSA field in both decoders.
                    Kind::Mimg(m) => {
                        let canon = m.canonical_words(g);
                        Some((m.text(), canon.len() * 4, canon))
                    }
                    other => panic!("{name} {}: not MIMG: {other:?}", hex(g)),
                };
                if has_disasm {
                    let agree = match (&ours, &theirs[i]) {
                        (None, Llvm::Invalid) => {
                            c.agree_invalid += 1;
                            true
                        }
                        (Some((t, l, _)), Llvm::Ok { text, len }) if t == text && l == len => {
                            c.agree_valid += 1;
                            true
                        }
                        // docs/errata.md "atomic data width": accepted only if LLVM's
                        // assembler rejects LLVM's text and ours reassembles (below).
                        (Some((t, l, _)), Llvm::Ok { text, len })
                            if l == len && differs_only_in_vdata(t, text) =>
                        {
                            c.atomic_width += 1;
                            deviations.push((text.clone(), g.clone()));
                            true
                        }
                        _ => false,
                    };
                    if !agree {
                        c.disagree += 1;
                        let why = match &inst.kind {
                            Kind::Invalid { reason } => format!("invalid: {reason}"),
                            _ => format!("{:?}", ours.as_ref().map(|o| (&o.0, o.1))),
                        };
                        failures.push(format!(
                            "{name} mode {mode} {}: ours {why}; llvm {:?}",
                            hex(g),
                            theirs[i]
                        ));
                    }
                }
                if let Some((text, _, canon)) = ours {
                    c.ours_valid += 1;
                    to_asm.push((i, text, g.clone(), canon));
                }
            }
            // Each atomic-width deviation must be one where LLVM's own text is
            // rejected by LLVM's assembler (ours is checked with the others below).
            let dev_lines: Vec<String> = deviations.iter().map(|d| d.0.clone()).collect();
            let mut dev_errors: std::collections::HashMap<Vec<u32>, String> = Default::default();
            for ((text, g), res) in deviations.iter().zip(mc.assemble(arch.mcpu, &dev_lines)) {
                match res {
                    Err(e) => {
                        dev_errors.insert(g.clone(), e);
                    }
                    Ok(bytes) => {
                        c.disagree += 1;
                        failures.push(format!(
                        "{name} mode {mode} {}: LLVM's `{text}` assembles (to {}), so gcnrun's wider vdata is not justified",
                        hex(g),
                        bytes.iter().map(|x| format!("{x:02x}")).collect::<String>()
                    ));
                    }
                }
            }
            let lines: Vec<String> = to_asm.iter().map(|t| t.1.clone()).collect();
            let results = mc.assemble(arch.mcpu, &lines);
            for ((i, text, input, canon), res) in to_asm.iter().zip(results) {
                let llvm_same_text =
                    has_disasm && matches!(&theirs[*i], Llvm::Ok { text: t, .. } if t == text);
                match res {
                    Ok(bytes) if bytes == bytes_of(input) => c.rt_exact += 1,
                    Ok(bytes) if bytes == bytes_of(canon) => c.rt_ignored += 1,
                    // LLVM's text is rejected too, for the same reason (e.g. a
                    // register the target lacks): an LLVM limit, not a deviation.
                    Err(e) if llvm_same_text || dev_errors.get(input) == Some(&e) => {
                        c.rt_llvm_text_rejected += 1;
                        *rejected_why.entry(e).or_insert(0usize) += 1;
                    }
                    other => {
                        c.rt_fail += 1;
                        failures.push(format!(
                            "{name} mode {mode} {} `{text}` reassembles to {:?}",
                            hex(input),
                            other.map(|b| b.iter().map(|x| format!("{x:02x}")).collect::<String>())
                        ));
                    }
                }
            }
            eprintln!(
                "{name:8} mode {mode}: {} samples; LLVM agreement: {} ({} valid + {} invalid), {} atomic-width deviations, {} disagree{}; \
                 round trip of {} valid: {} exact, {} ignored-bits, {} llvm-text-rejected, {} FAIL",
                c.samples,
                c.agree_valid + c.agree_invalid,
                c.agree_valid,
                c.agree_invalid,
                c.atomic_width,
                c.disagree,
                if has_disasm { "" } else { " (no LLVM disassembler)" },
                c.ours_valid,
                c.rt_exact,
                c.rt_ignored,
                c.rt_llvm_text_rejected,
                c.rt_fail
            );
            total_fail += c.disagree + c.rt_fail;
        }
    }
    eprintln!("llvm-text-rejected, by llvm-mc-19 assembler message:");
    for (why, n) in &rejected_why {
        eprintln!("  {n:6}  {why}");
    }
    let limit = env_u64("GCNRUN_DIFF_SHOW", 8) as usize;
    let mut shown = std::collections::HashMap::new();
    for f in &failures {
        let key: String = f.split(' ').take(3).collect::<Vec<_>>().join(" ");
        let n = shown.entry(key).or_insert(0usize);
        *n += 1;
        if *n <= limit {
            eprintln!("  {f}");
        }
    }
    assert_eq!(
        total_fail, 0,
        "{total_fail} MIMG encodings disagree with LLVM"
    );
}

/// `image_msaa_load` and the BVH ops (LLVM's `HasGFX10_AEncoding`) decode on
/// exactly the gfx10 processors whose llvm-mc-19 assembles them: gfx10.3 and
/// gfx1013, not gfx1010-1012. gfx1030's bytes stand in where LLVM refuses.
#[test]
fn gfx10_a_encoding_ops_decode_where_llvm_assembles_them() {
    let Some(mc) = LlvmMc::find("gfx10_a_encoding_ops_decode_where_llvm_assembles_them") else {
        return;
    };
    let lines: Vec<String> = [
        "image_msaa_load v[1:4], v[5:7], s[8:15] dmask:0xf dim:SQ_RSRC_IMG_2D_MSAA",
        "image_bvh_intersect_ray v[4:7], v[9:19], s[4:7]",
        "image_bvh64_intersect_ray v[4:7], v[9:20], s[4:7]",
    ]
    .map(String::from)
    .to_vec();
    let reference: Vec<Vec<u8>> = mc
        .assemble("gfx1030", &lines)
        .into_iter()
        .map(|r| r.expect("gfx1030 assembles every line"))
        .collect();
    let gfx10: Vec<&str> = Arch::known_names()
        .into_iter()
        .filter(|n| n.starts_with("gfx10") && n.len() == 7)
        .collect();
    assert!(gfx10.contains(&"gfx1013") && gfx10.len() >= 9, "{gfx10:?}");
    let mut with = Vec::new();
    for name in &gfx10 {
        let arch = Arch::parse(name).unwrap();
        for ((line, bytes), llvm) in lines.iter().zip(&reference).zip(mc.assemble(name, &lines)) {
            let ours = gcn::decode_stream(bytes, &arch)
                .ok()
                .and_then(|v| v.first().and_then(|i| i.mnemonic().map(str::to_string)));
            let mnemonic = line.split_whitespace().next().unwrap();
            match llvm {
                Ok(b) => {
                    assert_eq!(&b, bytes, "{name}: `{line}` encodes as on gfx1030");
                    assert_eq!(ours.as_deref(), Some(mnemonic), "{name}: `{line}`");
                    with.push(*name);
                }
                Err(_) => assert_eq!(ours, None, "{name} decodes `{line}`, LLVM refuses it"),
            }
        }
    }
    with.dedup();
    assert!(
        with.contains(&"gfx1013") && !with.contains(&"gfx1010"),
        "{with:?}"
    );
}

/// Every processor gcnrun accepts (not only the eight of the random test), with
/// the LLVM disassembler (gfx8+): two random encodings of every opcode its
/// generation has decode to llvm-mc-19's text and validity for that processor.
/// Per-processor features (gfx8.0's unpacked D16, gfx1013's GFX10_AEncoding,
/// the gfx10.3 additions) are what this catches that the per-generation test
/// cannot. The atomic data-width deviation is accepted here as there (the
/// random test checks that LLVM's own text for it does not assemble).
#[test]
fn every_processor_agrees_with_llvm_on_every_opcode() {
    let Some(mc) = LlvmMc::find("every_processor_agrees_with_llvm_on_every_opcode") else {
        return;
    };
    let procs: Vec<Arch> = Arch::known_names()
        .into_iter()
        .filter_map(|n| Arch::parse(n).filter(|a| a.mcpu == n && a.gen >= Gen::Gfx8))
        .collect();
    assert!(procs.len() >= 30, "{} processors", procs.len());
    let mut failures = Vec::new();
    let mut compared = 0usize;
    for (pi, arch) in procs.iter().enumerate() {
        let mut rng = ChaCha8Rng::seed_from_u64(0x7072_6f63 ^ pi as u64);
        let ops = mimg_ops::OPS
            .iter()
            .filter(|o| o.opcode(arch.gen).is_some())
            .count();
        let groups: Vec<Vec<u32>> = (0..2 * ops)
            .map(|_| draw_valid_op(&mut rng, arch))
            .collect();
        let bytes: Vec<Vec<u8>> = groups.iter().map(|g| bytes_of(g)).collect();
        for (g, theirs) in groups.iter().zip(mc.disassemble(arch.mcpu, &bytes)) {
            let inst = gcn::decode::decode_one(g, 0, arch).expect("whole instruction given");
            let ours = match &inst.kind {
                Kind::Mimg(m) => Some((m.text(), m.canonical_words(g).len() * 4)),
                _ => None,
            };
            compared += 1;
            let agree = match (&ours, &theirs) {
                (None, Llvm::Invalid) => true,
                (Some((t, l)), Llvm::Ok { text, len }) => {
                    l == len && (t == text || differs_only_in_vdata(t, text))
                }
                _ => false,
            };
            if !agree {
                failures.push(format!(
                    "{} {}: ours {ours:?}; llvm {theirs:?}",
                    arch.mcpu,
                    hex(g)
                ));
            }
        }
    }
    eprintln!("{} processors, {compared} encodings compared", procs.len());
    assert!(
        failures.is_empty(),
        "{} of {compared} differ:\n{}",
        failures.len(),
        failures[..failures.len().min(20)].join("\n")
    );
}
