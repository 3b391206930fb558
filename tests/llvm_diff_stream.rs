//! Differential test against the LLVM 19 disassembler (`llvm-mc-19`).
//!
//! (a) `interp_and_sopp_match_llvm`: random fields under the valid opcodes of the
//!     interpolation encodings (VINTRP, VOP3 interps, VINTERP, LDSDIR) and of
//!     SOPP, on gfx8/gfx9/gfx10/gfx11: gcn-run's text and validity must equal
//!     LLVM's. Then, on every generation (gfx6/gfx7 too, which LLVM can only
//!     assemble), gcn-run's text must reassemble to the same bytes.
//! (b) `random_words_length_matches_llvm`: random first dwords of every encoding
//!     class, followed by random dwords: wherever LLVM decodes the first
//!     instruction, gcn-run must decode it too, with the same length. Where
//!     LLVM rejects words that gcn-run accepts, the cases are counted and shown.
//!     Finally every instruction LLVM decoded is replayed as one mixed stream per
//!     generation, which gcn-run must walk with exactly llvm-objdump's boundaries.
//!
//! The seed is fixed (ChaCha8, override with `GCNRUN_SEED`); `GCNRUN_DIFF_SAMPLES`
//! sets the number of samples per generation and part (default 3000).
//!
//! LLVM prints some operands it cannot spell instead of rejecting the words
//! (`invalid_param_3`, an SGPR where a VGPR is required with an "Invalid
//! register" comment, `/* invalid instid value */` in `s_delay_alu`): this test
//! treats texts with such a comment as LLVM rejecting the words, except for the
//! `s_delay_alu` spelling, which gcn-run reproduces.

mod common;

use common::llvm::Tally;

use common::llvm::{collapse_ws, LlvmMc};
use common::objdump::{llvm_disassemble, objdump_listing, Llvm};
use gcnrun::gcn::decode::decode_one;
use gcnrun::gcn::{ops, Encoding, Inst};
use gcnrun::{Arch, Gen};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::collections::BTreeMap;

/// The generations LLVM 19 disassembles, by the processor used for each.
const DISASM_GENS: [&str; 4] = ["tonga", "gfx900", "gfx1030", "gfx1100"];
/// Every generation, for the reassembly check.
const ALL_GENS: [&str; 6] = ["tahiti", "bonaire", "tonga", "gfx900", "gfx1030", "gfx1100"];

fn seed() -> u64 {
    common::env_number("GCNRUN_SEED", 0x6763_6e72_756e)
}

fn samples() -> usize {
    common::env_number("GCNRUN_DIFF_SAMPLES", 3000)
}

fn decode(words: &[u32], arch: &Arch) -> Inst {
    decode_one(words, 0, arch).expect("samples carry enough trailing dwords")
}

// ---------------------------------------------------------------------------
// Generators

/// Picks a random opcode from a generated table.
fn table_op(rng: &mut ChaCha8Rng, gen: Gen, enc: Encoding) -> Option<u32> {
    let t = ops::table(gen, enc)?;
    if t.is_empty() {
        return None;
    }
    Some(u32::from(t[rng.gen_range(0..t.len())].0))
}

/// Sometimes flips one random bit outside the class selector, to probe validity.
fn maybe_flip(rng: &mut ChaCha8Rng, words: &mut [u32], selector_bits: u32) {
    if rng.gen_bool(0.1) {
        let i = rng.gen_range(0..words.len());
        let limit = if i == 0 { 32 - selector_bits } else { 32 };
        words[i] ^= 1 << rng.gen_range(0..limit);
    }
}

fn vgpr_src(rng: &mut ChaCha8Rng) -> u32 {
    256 + rng.gen_range(0..256)
}

/// One random interp or SOPP instruction (plus two trailing dwords) for `gen`.
///
/// `canonical` keeps to encodings whose LLVM text LLVM's assembler accepts back:
/// no flipped bits, and attributes 0–32 (llvm-mc-19 prints `attr63.w` but its
/// assembler rejects attributes above 32: "out of bounds interpolation
/// attribute number").
fn gen_interp_or_sopp(rng: &mut ChaCha8Rng, gen: Gen, canonical: bool) -> (String, Vec<u32>) {
    let attr_max = if canonical { 33 } else { 64 };
    let kinds: &[&str] = match gen {
        Gen::Gfx6 | Gen::Gfx7 => &["SOPP", "VINTRP", "SALU"],
        Gen::Gfx8 | Gen::Gfx9 | Gen::Gfx10 => &["SOPP", "VINTRP", "VOP3", "SALU"],
        Gen::Gfx11 => &["SOPP", "VINTERP", "LDSDIR", "SALU"],
    };
    let kind = kinds[rng.gen_range(0..kinds.len())];
    let mut w: Vec<u32> = match kind {
        "SALU" => {
            // SOP1/SOP2/SOPC with real opcodes and register/constant/literal
            // sources: checks the operand spelling gcn-run prints in full.
            // For reassembly, avoid what llvm-mc-19 prints on gfx8/gfx9 but does
            // not assemble back: `null` (125) and xnack_mask (104/105).
            let avoid = |c: u32| {
                canonical && matches!(gen, Gen::Gfx8 | Gen::Gfx9) && matches!(c, 104 | 105 | 125)
            };
            let reg = |rng: &mut ChaCha8Rng| loop {
                let c = rng.gen_range(0..128);
                if !avoid(c) {
                    break c;
                }
            };
            let src = |rng: &mut ChaCha8Rng| match rng.gen_range(0..4) {
                0 => reg(rng),
                1 => rng.gen_range(128..209),
                2 => rng.gen_range(240..249),
                _ => 255,
            };
            let (a, b, d) = (src(rng), src(rng), reg(rng));
            let w = match rng.gen_range(0..3) {
                0 => {
                    let op = table_op(rng, gen, Encoding::Sop1).unwrap_or(0);
                    0xbe80_0000 | d << 16 | op << 8 | a
                }
                1 => {
                    let mut op = table_op(rng, gen, Encoding::Sop2).unwrap_or(0);
                    // Likewise s_cbranch_g_fork with constant sources.
                    while canonical
                        && ops::name(gen, Encoding::Sop2, op) == Some("s_cbranch_g_fork")
                    {
                        op = table_op(rng, gen, Encoding::Sop2).unwrap_or(0);
                    }
                    0x8000_0000 | op << 23 | d << 16 | b << 8 | a
                }
                _ => {
                    let mut op = table_op(rng, gen, Encoding::Sopc).unwrap_or(0);
                    // LLVM prints s_set_gpr_idx_on modes above 15 but its
                    // assembler rejects them (tests/llvm_diff_classes.rs counts
                    // such texts): keep the reassembled texts to ones it takes.
                    while canonical
                        && ops::name(gen, Encoding::Sopc, op) == Some("s_set_gpr_idx_on")
                    {
                        op = table_op(rng, gen, Encoding::Sopc).unwrap_or(0);
                    }
                    0xbf00_0000 | op << 16 | b << 8 | a
                }
            };
            vec![w, rng.gen()]
        }
        "SOPP" => {
            let op = table_op(rng, gen, Encoding::Sopp).unwrap_or(0);
            let mut simm = match rng.gen_range(0..4) {
                0 => 0,
                1 => rng.gen_range(0..0x80),
                2 => rng.gen_range(0..0x400),
                _ => rng.gen_range(0..0x10000),
            };
            if canonical {
                // LLVM prints these values but its assembler rejects the text:
                // s_set_gpr_idx_mode above 15, s_delay_alu with an invalid field.
                let name = ops::name(gen, Encoding::Sopp, op).unwrap_or("");
                if name == "s_set_gpr_idx_mode" {
                    simm &= 0xf;
                } else if name == "s_delay_alu" {
                    simm =
                        rng.gen_range(0..12) | rng.gen_range(0..6) << 4 | rng.gen_range(0..12) << 7;
                }
            }
            vec![0xbf80_0000 | op << 16 | simm]
        }
        "VINTRP" => {
            let prefix = if matches!(gen, Gen::Gfx8 | Gen::Gfx9) {
                0b110101
            } else {
                0b110010
            };
            let op = rng.gen_range(0..3u32);
            let vsrc = if op == 2 {
                rng.gen_range(0..3)
            } else {
                rng.gen_range(0..256)
            };
            vec![
                prefix << 26
                    | rng.gen_range(0..256) << 18
                    | op << 16
                    | rng.gen_range(0..attr_max) << 10
                    | rng.gen_range(0..4) << 8
                    | vsrc,
            ]
        }
        "VOP3" => {
            let ops: &[u32] = match gen {
                Gen::Gfx8 => &[0x270, 0x271, 0x272, 0x274, 0x275, 0x276],
                Gen::Gfx9 => &[0x270, 0x271, 0x272, 0x274, 0x275, 0x276, 0x277],
                _ => &[0x200, 0x201, 0x202, 0x342, 0x343, 0x35a],
            };
            let op = ops[rng.gen_range(0..ops.len())];
            let is_mov = op & 0xf == 2 && op < 0x300;
            let f16 = !matches!(op & 0xff, 0x70 | 0x71 | 0x72 | 0x00 | 0x01 | 0x02);
            let src2 = matches!(op, 0x275 | 0x276 | 0x277 | 0x343 | 0x35a);
            let prefix = if gen == Gen::Gfx10 {
                0xd400_0000
            } else {
                0xd000_0000
            };
            let high = if f16 { rng.gen_range(0..2) } else { 0 };
            let s0 = high << 8 | rng.gen_range(0..4) << 6 | rng.gen_range(0..attr_max);
            let s1 = if is_mov {
                rng.gen_range(0..3)
            } else {
                vgpr_src(rng)
            };
            let s2 = if src2 { vgpr_src(rng) } else { 0 };
            let mods = if is_mov {
                0
            } else if src2 {
                6
            } else {
                2
            };
            let abs = rng.gen_range(0..8u32) & mods;
            let neg = rng.gen_range(0..8u32) & mods;
            vec![
                prefix | op << 16 | rng.gen_range(0..2) << 15 | abs << 8 | rng.gen_range(0..256),
                neg << 29 | rng.gen_range(0..4) << 27 | s2 << 18 | s1 << 9 | s0,
            ]
        }
        "VINTERP" => {
            let op = rng.gen_range(0..6u32);
            let op_sel = if op >= 2 { rng.gen_range(0..16) } else { 0 };
            vec![
                0xcd00_0000
                    | op << 16
                    | rng.gen_range(0..2) << 15
                    | op_sel << 11
                    | rng.gen_range(0..8) << 8
                    | rng.gen_range(0..256),
                rng.gen_range(0..8) << 29
                    | vgpr_src(rng) << 18
                    | vgpr_src(rng) << 9
                    | vgpr_src(rng),
            ]
        }
        _ => {
            let op = rng.gen_range(0..2u32);
            let attr = if op == 0 {
                rng.gen_range(0..attr_max) << 10 | rng.gen_range(0..4) << 8
            } else {
                0
            };
            vec![0xce00_0000 | op << 20 | rng.gen_range(0..16) << 16 | attr | rng.gen_range(0..256)]
        }
    };
    if !canonical {
        let selector = if kind == "VOP3" { 6 } else { 9 };
        maybe_flip(rng, &mut w, selector);
    }
    w.push(rng.gen());
    w.push(rng.gen());
    (kind.to_string(), w)
}

/// The class selectors of a generation: (class name, prefix, prefix width).
fn class_selectors(gen: Gen) -> Vec<(&'static str, u32, u32)> {
    let mut v = vec![
        ("SOP1", 0x17d, 9),
        ("SOPC", 0x17e, 9),
        ("SOPP", 0x17f, 9),
        ("SOPK", 0b1011, 4),
        ("SOP2", 0b10, 2),
        ("VOP1", 0x3f, 7),
        ("VOPC", 0x3e, 7),
        ("VOP2", 0, 1),
        ("DS", 0b110110, 6),
        ("MUBUF", 0b111000, 6),
        ("MTBUF", 0b111010, 6),
        ("MIMG", 0b111100, 6),
        ("FLAT", 0b110111, 6),
    ];
    match gen {
        Gen::Gfx8 | Gen::Gfx9 => {
            v.extend([
                ("SMEM", 0b110000, 6),
                ("EXP", 0b110001, 6),
                ("VOP3", 0b110100, 6),
            ]);
            v.push(("VINTRP", 0b110101, 6));
            if gen == Gen::Gfx9 {
                v.push(("VOP3P", 0x1a7, 9));
            }
        }
        Gen::Gfx10 => v.extend([
            ("SMEM", 0b111101, 6),
            ("EXP", 0b111110, 6),
            ("VOP3", 0b110101, 6),
            ("VOP3P", 0x198, 9),
            ("VINTRP", 0b110010, 6),
        ]),
        _ => v.extend([
            ("SMEM", 0b111101, 6),
            ("EXP", 0b111110, 6),
            ("VOP3", 0b110101, 6),
            ("VOP3P", 0xcc, 8),
            ("VOPD", 0b110010, 6),
            ("VINTERP", 0xcd, 8),
            ("LDSDIR", 0xce, 8),
        ]),
    }
    v
}

/// Source-operand codes that change an instruction's length or form.
const SPECIAL_SRC: [u32; 6] = [255, 0xf9, 0xfa, 0xe9, 0xea, 0x101];

/// `w0` with its opcode field set to `op` (the table key of [`ops::table`]).
fn with_opcode(enc: Encoding, gen: Gen, w0: u32, op: u32) -> u32 {
    let field = |shift: u32, bits: u32| {
        (w0 & !(((1 << bits) - 1) << shift)) | (op & ((1 << bits) - 1)) << shift
    };
    match enc {
        Encoding::Vop1 => field(9, 8),
        Encoding::Vop2 => field(25, 6),
        Encoding::Vopc => field(17, 8),
        Encoding::Vop3 => field(16, 10),
        Encoding::Vop3p => field(16, 7),
        Encoding::Sop1 => field(8, 8),
        Encoding::Sopc | Encoding::Sopp => field(16, 7),
        Encoding::Smem => field(18, 8),
        Encoding::Ds if matches!(gen, Gen::Gfx8 | Gen::Gfx9) => field(17, 8),
        Encoding::Ds => field(18, 8),
        Encoding::Mubuf if gen == Gen::Gfx11 => field(18, 8),
        Encoding::Mubuf => field(18, 7),
        Encoding::Flat => {
            let seg_shift = if gen == Gen::Gfx11 { 16 } else { 14 };
            let w = (w0 & !(0x7f << 18)) | (op & 0x7f) << 18;
            if gen >= Gen::Gfx9 {
                (w & !(3 << seg_shift)) | ((op >> 8) & 3) << seg_shift
            } else {
                w
            }
        }
        _ => w0,
    }
}

/// A random first dword of class `sel` (biased towards real opcodes and the
/// length-changing source codes), followed by three random dwords.
fn gen_class_words(rng: &mut ChaCha8Rng, gen: Gen, arch: &Arch, sel: (&str, u32, u32)) -> Vec<u32> {
    let (name, prefix, width) = sel;
    loop {
        let low_mask = (1u64 << (32 - width)) as u32 - 1;
        let mut w0 = prefix << (32 - width) | (rng.gen::<u32>() & low_mask);
        let mut w1: u32 = rng.gen();
        let enc = gcnrun::gcn::encoding::classify(&[w0], arch);
        if enc.name() != name && !(name == "FLAT" && enc == Encoding::Unknown) {
            continue; // e.g. a SOP2 draw that is really SOPK
        }
        // Put a real opcode in place most of the time.
        if rng.gen_bool(0.7) {
            if let Some(op) = table_op(rng, gen, enc) {
                w0 = with_opcode(enc, gen, w0, op);
            }
        }
        if rng.gen_bool(0.4) {
            let s = SPECIAL_SRC[rng.gen_range(0..SPECIAL_SRC.len())];
            match name {
                "VOP1" | "VOP2" | "VOPC" | "VOPD" => w0 = (w0 & !0x1ff) | s,
                "SOP1" | "SOP2" | "SOPC" => w0 = (w0 & !0xff) | (s & 0xff),
                _ => {}
            }
        }
        match name {
            "VOP3" | "VOP3P" if rng.gen_bool(0.8) => {
                // Structured sources: LLVM wants the fields an opcode does not use
                // to be zero, and most modifiers clear.
                let nsrc = rng.gen_range(0..=3);
                w1 = 0;
                for i in 0..nsrc {
                    let src = match rng.gen_range(0..5) {
                        0 => SPECIAL_SRC[rng.gen_range(0..SPECIAL_SRC.len())],
                        1 => rng.gen_range(0..106),
                        2 => rng.gen_range(128..209),
                        _ => vgpr_src(rng),
                    };
                    w1 |= src << (9 * i);
                }
                w0 &= !(0x7f << 8);
            }
            "DS" | "MUBUF" | "MTBUF" | "FLAT" | "SMEM" => {
                // Zero some operand bytes of dword 1 (unused operands must be 0).
                for byte in 0..4 {
                    if rng.gen_bool(0.4) {
                        w1 &= !(0xff << (8 * byte));
                    }
                }
            }
            _ => {}
        }
        return vec![w0, w1, rng.gen(), rng.gen(), rng.gen()];
    }
}

// ---------------------------------------------------------------------------

fn print_tallies(title: &str, t: &BTreeMap<String, Tally>) -> usize {
    let mut bad = 0;
    eprintln!("{title}:");
    for (k, v) in t {
        let pct = 100.0 * v.agree as f64 / v.total.max(1) as f64;
        eprintln!(
            "  {k:<18} {:>6} of {:>6} agree ({pct:.2}%)",
            v.agree, v.total
        );
        for f in v.failures.iter().take(8) {
            eprintln!("      {f}");
        }
        bad += v.failures.len();
    }
    bad
}

fn hexwords(w: &[u32]) -> String {
    w.iter()
        .map(|x| format!("{x:08x}"))
        .collect::<Vec<_>>()
        .join(" ")
}

#[test]
fn interp_and_sopp_match_llvm() {
    let Some(mc) = LlvmMc::find("interp_and_sopp_match_llvm") else {
        return;
    };
    let mut rng = ChaCha8Rng::seed_from_u64(seed());
    let n = samples();
    let mut text_tally: BTreeMap<String, Tally> = BTreeMap::new();
    for mcpu in DISASM_GENS {
        let arch = Arch::parse(mcpu).expect("arch");
        let cases: Vec<(String, Vec<u32>)> = (0..n)
            .map(|_| gen_interp_or_sopp(&mut rng, arch.gen, false))
            .collect();
        let words: Vec<Vec<u32>> = cases.iter().map(|(_, w)| w.clone()).collect();
        let llvm = llvm_disassemble(mcpu, &words);
        for ((kind, w), l) in cases.iter().zip(llvm) {
            let inst = decode(w, &arch);
            let ours = if inst.is_invalid() {
                Llvm::Invalid
            } else {
                Llvm::Ok {
                    text: collapse_ws(&inst.text()),
                    len: inst.len_bytes(),
                }
            };
            // A flipped bit can leave the interp/SOPP opcodes: for other
            // instructions (printed as `.long`) compare only validity and length,
            // and only where LLVM decodes them.
            let other = matches!(inst.kind, gcnrun::gcn::Kind::Other(_));
            let key = format!("{} {kind}", arch.gen.name());
            if l == Llvm::Crash {
                continue; // llvm-objdump-19 crashed: nothing to compare with
            }
            let ok = match (&ours, &l) {
                (Llvm::Ok { len: a, .. }, Llvm::Ok { len: b, .. }) if other => a == b,
                (Llvm::Ok { .. }, Llvm::Invalid) if other => true,
                _ => ours == l,
            };
            text_tally.entry(key).or_default().add(ok, || {
                format!(
                    "{}: llvm {l:?} ours {ours:?}",
                    hexwords(&w[..inst.words.len().max(1)])
                )
            });
        }
    }
    let bad_text = print_tallies("text and validity vs llvm-mc-19", &text_tally);

    // Reassembly of gcn-run's text, on every generation.
    let mut asm_tally: BTreeMap<String, Tally> = BTreeMap::new();
    let mut canonicalised = 0;
    for mcpu in ALL_GENS {
        let arch = Arch::parse(mcpu).expect("arch");
        let mut items = Vec::new();
        while items.len() < n / 2 {
            let (kind, w) = gen_interp_or_sopp(&mut rng, arch.gen, true);
            let inst = decode(&w, &arch);
            // Only texts gcn-run spells in full (not `.long` data) can reassemble.
            if !inst.is_invalid() && !inst.text().starts_with(".long") {
                items.push((kind, inst));
            }
        }
        let lines: Vec<String> = items.iter().map(|(_, i)| i.text()).collect();
        let results = mc.assemble(mcpu, &lines);
        for ((kind, inst), res) in items.iter().zip(results) {
            let want: Vec<u8> = inst.words.iter().flat_map(|w| w.to_le_bytes()).collect();
            let ok = match &res {
                Ok(bytes) if *bytes == want => true,
                Ok(bytes) => {
                    // Bits LLVM ignores (sendmsg bit 7, unused waitcnt bits) do not
                    // survive; the reassembled words must still print the same text.
                    let again = gcnrun::gcn::decode_stream(bytes, &arch)
                        .ok()
                        .and_then(|v| v.first().map(|i| i.text()));
                    let same = again.as_deref() == Some(inst.text().as_str());
                    canonicalised += usize::from(same);
                    same
                }
                Err(_) => false,
            };
            let key = format!("{} {kind}", arch.gen.name());
            asm_tally
                .entry(key)
                .or_default()
                .add(ok, || format!("{} `{}`: {res:?}", inst.hex(), inst.text()));
        }
    }
    let bad_asm = print_tallies("reassembly of gcn-run text with llvm-mc-19", &asm_tally);
    eprintln!(
        "  ({canonicalised} reassembled to other bytes with the same text: bits LLVM ignores)"
    );
    assert_eq!(bad_text, 0, "text/validity disagreements with LLVM");
    assert_eq!(bad_asm, 0, "texts that do not reassemble");
}

/// Decodes `words` as one stream with gcn-run and with llvm-objdump-19 and
/// checks that both find the same instruction boundaries (no desynchronisation
/// in a mixed stream). Returns the number of instructions compared.
fn check_stream(mcpu: &str, arch: &Arch, words: &[u32]) -> usize {
    if words.is_empty() {
        return 0;
    }
    let Some(llvm) = objdump_listing(mcpu, words) else {
        eprintln!("{mcpu}: llvm-objdump-19 crashed on the mixed stream; not compared");
        return 0;
    };
    let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
    let ours = gcnrun::gcn::decode_stream(&bytes, arch).expect("whole instructions");
    let ours: Vec<(usize, usize)> = ours.iter().map(|i| (i.offset, i.len_bytes())).collect();
    let theirs: Vec<(usize, usize)> = llvm.iter().map(|(&o, (_, n))| (o, *n)).collect();
    let first_diff = ours.iter().zip(&theirs).position(|(a, b)| a != b);
    if let Some(i) = first_diff {
        let off = ours.get(i).map_or(0, |o| o.0);
        let at = words.get(off / 4..(off / 4 + 3).min(words.len()));
        panic!(
            "{mcpu}: stream desynchronised at instruction {i} (offset {off}, words {at:08x?}): \
             ours {:?}, llvm {:?}",
            ours.get(i),
            llvm.get(&off)
        );
    }
    assert_eq!(ours.len(), theirs.len(), "{mcpu}: instruction count");
    ours.len()
}

#[test]
fn random_words_length_matches_llvm() {
    if LlvmMc::find("random_words_length_matches_llvm").is_none() {
        return;
    }
    let mut rng = ChaCha8Rng::seed_from_u64(seed() ^ 0x5a5a);
    let n = samples();
    let mut len_tally: BTreeMap<String, Tally> = BTreeMap::new();
    let mut extra_valid: BTreeMap<String, Tally> = BTreeMap::new();
    let mut crashes = Vec::new();
    let mut stream_checked = 0;
    let mut text_tally: BTreeMap<String, Tally> = BTreeMap::new();
    for mcpu in DISASM_GENS {
        let arch = Arch::parse(mcpu).expect("arch");
        let sels = class_selectors(arch.gen);
        let cases: Vec<(&str, Vec<u32>)> = (0..n)
            .map(|i| {
                let sel = sels[i % sels.len()];
                (sel.0, gen_class_words(&mut rng, arch.gen, &arch, sel))
            })
            .collect();
        let words: Vec<Vec<u32>> = cases.iter().map(|(_, w)| w.clone()).collect();
        let llvm = llvm_disassemble(mcpu, &words);
        // Every instruction LLVM decoded, replayed below as one mixed stream.
        let mut stream: Vec<u32> = Vec::new();
        for ((class, w), l) in cases.iter().zip(llvm) {
            let inst = decode(w, &arch);
            if let Llvm::Ok { len, .. } = &l {
                stream.extend(&w[..len / 4]);
            }
            let key = format!("{} {class}", arch.gen.name());
            match l {
                Llvm::Ok { text, len } => {
                    // Where gcn-run spells the operands, the text must be LLVM's.
                    let ours_text = collapse_ws(&inst.text());
                    // (MIMG text is checked by tests/llvm_diff_mimg.rs.)
                    let spelled = !inst.is_invalid()
                        && !ours_text.starts_with(".long")
                        && !matches!(inst.kind, gcnrun::gcn::Kind::Mimg(_));
                    if spelled {
                        text_tally
                            .entry(key.clone())
                            .or_default()
                            .add(ours_text == text, || {
                                format!("{}: llvm `{text}` ours `{ours_text}`", hexwords(&w[..2]))
                            });
                    }
                    let ok = !inst.is_invalid() && inst.len_bytes() == len;
                    len_tally.entry(key).or_default().add(ok, || {
                        format!(
                            "{}: llvm {len} `{text}`, ours {} {:?}",
                            hexwords(&w[..3]),
                            inst.len_bytes(),
                            inst.kind
                        )
                    });
                }
                Llvm::Crash => {
                    crashes.push(format!("{mcpu} {}", hexwords(&w[..3])));
                }
                Llvm::Invalid => {
                    // Counted: gcn-run accepts with a name what LLVM rejects.
                    let named = !inst.is_invalid() && inst.mnemonic().is_some();
                    extra_valid.entry(key).or_default().add(!named, || {
                        format!("{}: ours {:?}", hexwords(&w[..2]), inst.mnemonic())
                    });
                }
            }
        }
        stream_checked += check_stream(mcpu, &arch, &stream);
    }
    let bad = print_tallies(
        "length where LLVM decodes (class, length, validity)",
        &len_tally,
    );
    print_tallies(
        "where LLVM rejects: gcn-run also rejects or leaves unnamed",
        &extra_valid,
    );
    let bad_text = print_tallies(
        "full text vs LLVM, wherever gcn-run spells the operands",
        &text_tally,
    );
    eprintln!("mixed streams: {stream_checked} instructions walked in step with llvm-objdump-19");
    eprintln!(
        "llvm-objdump-19 crashed on {} samples: {:?}",
        crashes.len(),
        crashes
    );
    assert_eq!(bad, 0, "length/validity disagreements where LLVM decodes");
    assert_eq!(bad_text, 0, "operand text disagreements with LLVM");
}
