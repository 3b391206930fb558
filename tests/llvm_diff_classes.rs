//! Differential test of every operand-decoded encoding form against LLVM 19.
//!
//! For each generation and form (SOP1/SOP2/SOPK/SOPC, SMEM, VOP1/VOP2/VOPC and
//! their SDWA/DPP/DPP8 variants, VOP3/VOP3B/VOP3P and gfx11's VOP3 DPP, DS,
//! MUBUF, MTBUF, FLAT/GLOBAL/SCRATCH, EXP) it draws random encodings from the
//! form's signature rows and layout: a real opcode, register fields filled with
//! codes the slot takes (VGPRs, SGPRs, special registers, inline constants,
//! literals), modifier bits set at random, and now and then a bit LLVM ignores
//! or a random bit anywhere outside the selector. Then:
//!
//! - gfx8+ (tonga, gfx900, gfx1030, gfx1100): gcn-run's text, validity verdict
//!   and length must equal llvm-objdump-19's;
//! - every instruction gcn-run calls valid must reassemble with llvm-mc-19 to
//!   the input bytes, or — for bits LLVM decodes but never prints (the rows'
//!   `ignored` bits, the high half of a literal in a 16-bit operand) — to bytes
//!   that decode to the same text. Those are counted, not hidden.
//!
//! gfx6/gfx7 (tahiti, bonaire), which LLVM 19 cannot disassemble: "valid" means
//! "reassembles", so every encoding gcn-run calls valid must assemble back to its
//! bytes (or, for bits its text cannot carry, to bytes with the same text), and
//! the share it calls invalid is reported.
//!
//! Seed: fixed (ChaCha8), `GCNRUN_SEED` to hunt; `GCNRUN_DIFF_SAMPLES` sets the
//! samples per form and generation (default 120).

mod common;

use common::llvm::Tally;

use common::llvm::{collapse_ws, LlvmMc};
use common::objdump::{llvm_disassemble, Llvm};
use gcnrun::gcn::decode::decode_one;
use gcnrun::gcn::layout::{self, Kind, Layout};
use gcnrun::gcn::signature::{self, accept, Form, Row, Slot};
use gcnrun::gcn::{Inst, Kind as InstKind};
use gcnrun::{Arch, Gen};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::collections::BTreeMap;

const GENS: [&str; 4] = ["tonga", "gfx900", "gfx1030", "gfx1100"];

fn seed() -> u64 {
    common::env_number("GCNRUN_SEED", 0x636c_6173_7365)
}

fn samples() -> usize {
    common::env_number("GCNRUN_DIFF_SAMPLES", 120)
}

/// Forms whose text gcn-run prints operand by operand (the others are checked
/// for length and validity only): all of them.
fn spelled(_form: Form) -> bool {
    true
}

/// A random code for a slot: mostly what it takes, sometimes anything.
fn slot_code(rng: &mut ChaCha8Rng, slot: &Slot, pos: Kind, gen: Gen, wild: bool) -> u32 {
    let regs = u32::from(slot.regs.max(1));
    let align = match regs {
        1 => 1,
        2 => 2,
        _ => 4,
    };
    let vgpr = |rng: &mut ChaCha8Rng| rng.gen_range(0..=(256 - regs));
    let sgpr = |rng: &mut ChaCha8Rng| {
        let max = if gen >= Gen::Gfx10 { 106 } else { 102 };
        rng.gen_range(0..=(max - regs) / align) * align
    };
    let a = slot.accepts;
    let mut choices: Vec<u32> = Vec::new();
    let mut add = |bit: u16, n: usize, f: &dyn Fn(&mut ChaCha8Rng) -> u32, rng: &mut ChaCha8Rng| {
        if a & bit != 0 || wild {
            for _ in 0..n {
                choices.push(f(rng));
            }
        }
    };
    match pos {
        Kind::Reg8 if a & accept::VGPR != 0 => return vgpr(rng),
        Kind::Sbase => return rng.gen_range(0..64),
        Kind::Srsrc => return rng.gen_range(0..32),
        _ => {}
    }
    let v_off = if pos == Kind::Src9 { 256 } else { 0 };
    if pos == Kind::Src9 {
        add(accept::VGPR, 4, &|r| 256 + vgpr(r), rng);
    }
    add(accept::SGPR, 4, &|r| sgpr(r), rng);
    add(accept::VCC, 1, &|_| 106, rng);
    add(accept::EXEC, 1, &|_| 126, rng);
    add(
        accept::M0,
        1,
        &|_| if gen == Gen::Gfx11 { 125 } else { 124 },
        rng,
    );
    add(
        accept::NULL,
        1,
        &|_| if gen == Gen::Gfx11 { 124 } else { 125 },
        rng,
    );
    add(accept::CONST, 3, &|r| r.gen_range(128..=208), rng);
    add(accept::CONST, 2, &|r| r.gen_range(240..=248), rng);
    add(accept::LITERAL, 2, &|_| 255, rng);
    add(accept::APERTURE, 1, &|r| r.gen_range(235..=239), rng);
    add(accept::COND, 1, &|r| r.gen_range(251..=253), rng);
    add(accept::FLAT_SCRATCH, 1, &|r| r.gen_range(102..=105), rng);
    add(accept::SGPR, 1, &|r| r.gen_range(108..=123), rng);
    let _ = v_off;
    if choices.is_empty() {
        return 0;
    }
    let c = choices[rng.gen_range(0..choices.len())];
    if pos == Kind::Scalar && c >= 256 {
        return c & 0xff;
    }
    c
}

/// Literal values that exercise LLVM's constant printing.
const LITERALS: [u32; 10] = [
    0x3f80_0000,
    0x3e22_f983,
    0x3c00,
    0x3118,
    0x1234_5678,
    5,
    0xffff_fff0,
    0x4000_0000,
    0x3800_3800,
    0xdead_beef,
];

/// One random encoding of `row` in `form`, with room for a literal and
/// trailing marker-safe padding; `None` when the form has no layout.
fn draw(rng: &mut ChaCha8Rng, gen: Gen, form: Form, lay: &Layout, row: &Row) -> Vec<u32> {
    let mut bits = lay.with_op(lay.base, u32::from(row.op));
    let wild = rng.gen_bool(0.05);
    let mut lit = false;
    for pos in lay.fields {
        let slot = row.opds.iter().find(|s| s.field == pos.field);
        let v = match slot {
            Some(s) => {
                let c = slot_code(rng, s, pos.kind, gen, wild);
                lit |= c == 255 && pos.kind != Kind::Reg8;
                match pos.kind {
                    Kind::Reg8 if s.accepts & accept::VGPR != 0 => c & 0xff,
                    _ => c,
                }
            }
            // Unprinted fields: zero, or now and then anything.
            None if rng.gen_bool(0.1) => rng.gen::<u32>(),
            None => 0,
        };
        bits = (bits & !pos.mask()) | ((u128::from(v) << pos.lo) & pos.mask());
    }
    // Modifier bits at random, ignored bits rarely, any checked bit rarely.
    let b = row.bits;
    for i in 0..128 {
        let m = 1u128 << i;
        if b.printed & m != 0 && rng.gen_bool(0.3)
            || b.ignored & m != 0 && rng.gen_bool(0.03)
            || b.checked & m != 0 && rng.gen_bool(0.005)
        {
            bits ^= m;
        }
    }
    if rng.gen_bool(0.03) {
        let i = rng.gen_range(0..(32 * lay.words));
        if lay.base_mask >> i & 1 == 0 {
            bits ^= 1 << i;
        }
    }
    if matches!(form, Form::Vop1Sdwa | Form::Vop2Sdwa | Form::VopcSdwa) {
        // llvm-objdump-19 crashes on an SDWA selector of 7 (gcn-run calls it
        // invalid; see the unit tests of gcn::vop): keep the selectors legal.
        for lo in [40u32, 48, 56] {
            if (bits >> lo) & 7 == 7 {
                bits &= !(1u128 << lo);
            }
        }
    }
    let mut words: Vec<u32> = (0..lay.words).map(|i| (bits >> (32 * i)) as u32).collect();
    if lit || row.literal {
        words.push(LITERALS[rng.gen_range(0..LITERALS.len())]);
    }
    words.extend([0xbf80_0000; 4]);
    words
}

/// One random VOPD instruction (gfx11) with a literal and padding.
fn draw_vopd(rng: &mut ChaCha8Rng) -> Vec<u32> {
    use gcnrun::gcn::vopd::{Shape, X_OPS, Y_OPS};
    let x = X_OPS[rng.gen_range(0..X_OPS.len())];
    let y = Y_OPS[rng.gen_range(0..Y_OPS.len())];
    let src0 = |rng: &mut ChaCha8Rng| match rng.gen_range(0..6) {
        0..=2 => 256 + rng.gen_range(0..256),
        3 => rng.gen_range(0..106),
        4 => [128, 193, 240, 242, 248, 106, 124, 126][rng.gen_range(0..8)],
        _ => 255,
    };
    let vsrc1 = |rng: &mut ChaCha8Rng, shape: Shape| {
        if shape == Shape::One && rng.gen_bool(0.9) {
            0
        } else {
            rng.gen_range(0..256)
        }
    };
    let (sx, sy) = (src0(rng), src0(rng));
    let mut w0 = 0xc800_0000 | x.0 << 22 | y.0 << 17 | vsrc1(rng, x.2) << 9 | sx;
    let w1 =
        rng.gen_range(0..256u32) << 24 | rng.gen_range(0..128u32) << 17 | vsrc1(rng, y.2) << 9 | sy;
    if rng.gen_bool(0.03) {
        w0 ^= 1 << rng.gen_range(0..26);
    }
    vec![
        w0,
        w1,
        LITERALS[rng.gen_range(0..LITERALS.len())],
        0xbf80_0000,
        0xbf80_0000,
    ]
}

fn print_tallies(title: &str, t: &BTreeMap<String, Tally>) -> usize {
    let mut bad = 0;
    eprintln!("{title}:");
    for (k, v) in t {
        eprintln!("  {k:<22} {:>6} of {:>6} agree", v.agree, v.total);
        for f in v.failures.iter().take(6) {
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

fn decode(words: &[u32], arch: &Arch) -> Inst {
    decode_one(words, 0, arch).expect("samples carry enough trailing dwords")
}

#[test]
fn every_form_matches_llvm() {
    let Some(mc) = LlvmMc::find("every_form_matches_llvm") else {
        return;
    };
    let mut rng = ChaCha8Rng::seed_from_u64(seed());
    let n = samples();
    let mut text: BTreeMap<String, Tally> = BTreeMap::new();
    let mut asm: BTreeMap<String, Tally> = BTreeMap::new();
    let mut canonical = 0;
    let mut crashes = 0;
    let mut self_rejected: BTreeMap<String, usize> = BTreeMap::new();
    for mcpu in GENS {
        let arch = Arch::parse(mcpu).expect("arch");
        let gen = arch.gen;
        let mut cases: Vec<(Option<Form>, Vec<u32>)> = Vec::new();
        for form in Form::ALL {
            let (rows, _) = signature::rows(gen, form);
            let Some(lay) = layout::layout(gen, form) else {
                continue;
            };
            if rows.is_empty() {
                continue;
            }
            for _ in 0..n {
                let row = &rows[rng.gen_range(0..rows.len())];
                cases.push((Some(form), draw(&mut rng, gen, form, &lay, row)));
            }
        }
        if gen == Gen::Gfx11 {
            for _ in 0..n * 2 {
                cases.push((None, draw_vopd(&mut rng)));
            }
        }
        let words: Vec<Vec<u32>> = cases.iter().map(|(_, w)| w.clone()).collect();
        // Batches of 256: a crashing sample costs a few small reruns.
        let llvm: Vec<Llvm> = words
            .chunks(256)
            .flat_map(|c| llvm_disassemble(mcpu, c))
            .collect();
        let mut reasm: Vec<(String, Inst, Llvm)> = Vec::new();
        for ((form, w), l) in cases.iter().zip(llvm) {
            let inst = decode(w, &arch);
            let key = match form {
                Some(f) => format!("{} {f:?}", gen.name()),
                None => format!("{} Vopd", gen.name()),
            };
            let spelled = form.is_none_or(spelled);
            let ours = if inst.is_invalid() {
                Llvm::Invalid
            } else {
                Llvm::Ok {
                    text: collapse_ws(&inst.text()),
                    len: inst.len_bytes(),
                }
            };
            let ok = match (&ours, &l) {
                (_, Llvm::Crash) => {
                    crashes += 1;
                    continue;
                }
                (Llvm::Ok { len: a, .. }, Llvm::Ok { len: b, .. }) if !spelled => a == b,
                (Llvm::Ok { .. }, Llvm::Invalid) if !spelled => true,
                _ => ours == l,
            };
            text.entry(key.clone()).or_default().add(ok, || {
                format!(
                    "{}: llvm {l:?} ours {ours:?} {}",
                    hexwords(&w[..inst.words.len().max(2).min(w.len())]),
                    match &inst.kind {
                        InstKind::Invalid { reason } => reason.clone(),
                        _ => String::new(),
                    }
                )
            });
            if spelled && !inst.is_invalid() {
                reasm.push((key, inst, l));
            }
        }
        let lines: Vec<String> = reasm.iter().map(|(_, i, _)| i.text()).collect();
        let results = mc.assemble(mcpu, &lines);
        for ((key, inst, llvm_text), res) in reasm.iter().zip(results) {
            let want: Vec<u8> = inst.words.iter().flat_map(|w| w.to_le_bytes()).collect();
            let same_as_llvm =
                matches!(llvm_text, Llvm::Ok { text, .. } if *text == collapse_ws(&inst.text()));
            let ok = match &res {
                Ok(bytes) if *bytes == want => true,
                Ok(bytes) => {
                    let again = gcnrun::gcn::decode_stream(bytes, &arch)
                        .ok()
                        .and_then(|v| v.first().map(|i| i.text()));
                    if again.as_deref() == Some(inst.text().as_str()) {
                        canonical += 1;
                        true
                    } else if same_as_llvm {
                        // LLVM's assembler reads its own disassembly as other
                        // bytes (s_setreg_imm32_b32's `1.0` becomes 1).
                        *self_rejected
                            .entry(format!(
                                "{} reassembles as `{}`",
                                gen.name(),
                                again.unwrap_or_default()
                            ))
                            .or_default() += 1;
                        true
                    } else {
                        false
                    }
                }
                // LLVM's assembler rejects text its own disassembler printed
                // for these words (gfx8/gfx9 `null` and `xnack_mask`, gfx11
                // `src_vccz`, …): gcn-run prints the same, so no text can please
                // both LLVM tools. Counted and listed by message.
                Err(e) if same_as_llvm => {
                    *self_rejected
                        .entry(format!("{} {e}", gen.name()))
                        .or_default() += 1;
                    true
                }
                Err(_) => false,
            };
            asm.entry(key.clone())
                .or_default()
                .add(ok, || format!("{} `{}`: {res:?}", inst.hex(), inst.text()));
        }
    }
    let bad_text = print_tallies("text, validity and length vs llvm-objdump-19", &text);
    let bad_asm = print_tallies("reassembly of gcn-run's text with llvm-mc-19", &asm);
    eprintln!("  {canonical} reassembled to other bytes with the same text (bits LLVM ignores)");
    eprintln!("  {crashes} samples crashed llvm-objdump-19 (not compared)");
    eprintln!("  LLVM disassembler text that llvm-mc-19 rejects (gcn-run prints the same):");
    for (m, n) in &self_rejected {
        eprintln!("    {n:>5}  {m}");
    }
    assert_eq!(bad_text, 0, "text/validity/length disagreements with LLVM");
    assert_eq!(bad_asm, 0, "texts that do not reassemble");
}

/// One random SMRD instruction (gfx6/gfx7) from the generated name table.
fn draw_smrd(rng: &mut ChaCha8Rng, gen: Gen) -> Vec<u32> {
    use gcnrun::gcn::{ops, Encoding};
    let t = ops::table(gen, Encoding::Smrd).unwrap_or(&[]);
    let op = t
        .get(rng.gen_range(0..t.len().max(1)))
        .map_or(0, |r| u32::from(r.0));
    let sdst = rng.gen_range(0..104u32) & !3;
    let sbase = rng.gen_range(0..52u32) & !1;
    let (imm, off) = match rng.gen_range(0..4) {
        0 => (0, rng.gen_range(0..104)),
        1 if gen == Gen::Gfx7 => (0, 0xff),
        _ => (1, rng.gen_range(0..256)),
    };
    vec![
        0xc000_0000 | op << 22 | sdst << 15 | sbase << 9 | imm << 8 | off,
        LITERALS[rng.gen_range(0..LITERALS.len())],
        0xbf80_0000,
    ]
}

#[test]
fn gfx6_gfx7_text_reassembles() {
    let Some(mc) = LlvmMc::find("gfx6_gfx7_text_reassembles") else {
        return;
    };
    let mut rng = ChaCha8Rng::seed_from_u64(seed() ^ 0x5167);
    let n = samples();
    let mut asm: BTreeMap<String, Tally> = BTreeMap::new();
    let mut text: BTreeMap<String, Tally> = BTreeMap::new();
    // (key, hex, LLVM's printing, gcn-run's text, bytes) where the two differ.
    let mut differ: Vec<(String, String, String, String, Vec<u8>)> = Vec::new();
    let mut unprintable: BTreeMap<String, usize> = BTreeMap::new();
    let mut verdicts: BTreeMap<String, (usize, usize)> = BTreeMap::new();
    let mut canonical = 0;
    for mcpu in ["tahiti", "bonaire"] {
        let arch = Arch::parse(mcpu).expect("arch");
        let gen = arch.gen;
        let mut items: Vec<(String, Inst)> = Vec::new();
        let mut add = |key: String, w: Vec<u32>, items: &mut Vec<(String, Inst)>| {
            let inst = decode(&w, &arch);
            let v = verdicts.entry(key.clone()).or_default();
            v.0 += 1;
            if inst.is_invalid() || inst.text().starts_with(".long") {
                return;
            }
            v.1 += 1;
            items.push((key, inst));
        };
        for form in Form::ALL {
            let (rows, _) = signature::rows(gen, form);
            let Some(lay) = layout::layout(gen, form) else {
                continue;
            };
            if rows.is_empty() {
                continue;
            }
            for _ in 0..n {
                let row = &rows[rng.gen_range(0..rows.len())];
                let w = draw(&mut rng, gen, form, &lay, row);
                add(format!("{} {form:?}", gen.name()), w, &mut items);
            }
        }
        for _ in 0..n {
            let w = draw_smrd(&mut rng, gen);
            add(format!("{} Smrd", gen.name()), w, &mut items);
        }
        let lines: Vec<String> = items.iter().map(|(_, i)| i.text()).collect();
        let results = mc.assemble_printed(mcpu, &lines);
        for ((key, inst), res) in items.iter().zip(results) {
            let want: Vec<u8> = inst.words.iter().flat_map(|w| w.to_le_bytes()).collect();
            if let Ok((printed, bytes)) = &res {
                let ours = collapse_ws(&inst.text());
                if *printed == ours {
                    text.entry(key.clone()).or_default().add(true, String::new);
                } else {
                    // Checked below: LLVM's spelling of the bytes it made of
                    // gcn-run's text must not assemble back to them.
                    differ.push((
                        key.clone(),
                        inst.hex(),
                        printed.clone(),
                        ours,
                        bytes.clone(),
                    ));
                }
            }
            let res = res.map(|(_, bytes)| bytes);
            let ok = match &res {
                Ok(bytes) if *bytes == want => true,
                Ok(bytes) => {
                    let again = gcnrun::gcn::decode_stream(bytes, &arch)
                        .ok()
                        .and_then(|v| v.first().map(|i| i.text()));
                    let same = again.as_deref() == Some(inst.text().as_str());
                    canonical += usize::from(same);
                    same
                }
                Err(_) => false,
            };
            asm.entry(key.clone())
                .or_default()
                .add(ok, || format!("{} `{}`: {res:?}", inst.hex(), inst.text()));
        }
    }
    // Where gcn-run's text differs from LLVM's printing of the same bytes, the
    // printing must be one LLVM's assembler reads as other bytes (gcn-run then
    // spells the value so that it reassembles): else gcn-run should print it.
    for mcpu in ["tahiti", "bonaire"] {
        let gen = Arch::parse(mcpu).expect("arch").gen;
        let mine: Vec<&(String, String, String, String, Vec<u8>)> = differ
            .iter()
            .filter(|d| d.0.starts_with(&format!("{} ", gen.name())))
            .collect();
        let lines: Vec<String> = mine.iter().map(|d| d.2.clone()).collect();
        for (d, res) in mine.iter().zip(mc.assemble(mcpu, &lines)) {
            let (key, hex, printed, ours, want) = d;
            let justified = !matches!(&res, Ok(b) if b == want);
            if justified {
                let what = printed.split(' ').next().unwrap_or_default();
                *unprintable
                    .entry(format!("{} {what}", gen.name()))
                    .or_default() += 1;
            }
            text.entry(key.clone()).or_default().add(justified, || {
                format!("{hex}: llvm-mc `{printed}` (reassembles) ours `{ours}`")
            });
        }
    }
    eprintln!("valid verdicts (gcn-run) of the random gfx6/gfx7 encodings:");
    for (k, (total, valid)) in &verdicts {
        eprintln!("  {k:<22} {valid:>6} of {total:>6}");
    }
    let bad = print_tallies(
        "reassembly of gcn-run's gfx6/gfx7 text with llvm-mc-19",
        &asm,
    );
    eprintln!("  {canonical} reassembled to other bytes with the same text");
    let bad_text = print_tallies(
        "gcn-run's gfx6/gfx7 text against llvm-mc-19's printing of it",
        &text,
    );
    eprintln!("  LLVM's printing that its assembler reads as other bytes (gcn-run spells these so they reassemble):");
    for (m, n) in &unprintable {
        eprintln!("    {n:>5}  {m}");
    }
    assert_eq!(bad, 0, "gfx6/gfx7 texts that do not reassemble");
    assert_eq!(bad_text, 0, "gfx6/gfx7 texts LLVM prints differently");
}

/// The other direction on gfx6/gfx7, where no LLVM disassembler says which
/// words are valid: LLVM's own texts of random gfx8 encodings (gcn-run's gfx8
/// text, which `every_form_matches_llvm` holds equal to llvm-objdump-19's)
/// that llvm-mc-19 assembles for tahiti or bonaire must decode with gcn-run to
/// a valid instruction of that length whose text is LLVM's printing of it. A
/// gfx6/gfx7 rule that rejects what LLVM's assembler makes fails here.
#[test]
fn gfx6_gfx7_llvm_texts_decode() {
    let Some(mc) = LlvmMc::find("gfx6_gfx7_llvm_texts_decode") else {
        return;
    };
    let mut rng = ChaCha8Rng::seed_from_u64(seed() ^ 0x7e47);
    let n = samples();
    let tonga = Arch::parse("tonga").expect("arch");
    let mut texts: Vec<(Form, String)> = Vec::new();
    for form in Form::ALL {
        let (rows, _) = signature::rows(Gen::Gfx8, form);
        let Some(lay) = layout::layout(Gen::Gfx8, form) else {
            continue;
        };
        if rows.is_empty() {
            continue;
        }
        for _ in 0..n {
            let row = &rows[rng.gen_range(0..rows.len())];
            let inst = decode(&draw(&mut rng, Gen::Gfx8, form, &lay, row), &tonga);
            if !inst.is_invalid() {
                texts.push((form, inst.text()));
            }
        }
    }
    let lines: Vec<String> = texts.iter().map(|(_, t)| t.clone()).collect();
    let mut tally: BTreeMap<String, Tally> = BTreeMap::new();
    let mut unencoded = 0;
    for mcpu in ["tahiti", "bonaire"] {
        let arch = Arch::parse(mcpu).expect("arch");
        let mut decoded = Vec::new();
        for ((form, line), res) in texts.iter().zip(mc.assemble_printed(mcpu, &lines)) {
            let Ok((printed, bytes)) = res else {
                continue;
            };
            let again = gcnrun::gcn::decode_stream(&bytes, &arch)
                .ok()
                .and_then(|v| v.into_iter().next());
            decoded.push((form, line, printed, bytes, again));
        }
        // Where the texts differ, LLVM may print what its encoder dropped
        // (`clamp` of SI's v_div_scale_f32, which has no clamp bit): then
        // gcn-run's text assembles to the same bytes.
        // The decoded text where it is a valid instruction of the same length
        // but not LLVM's printing.
        let differs = |printed: &str, bytes: &[u8], again: &Option<Inst>| {
            let i = again.as_ref()?;
            let t = collapse_ws(&i.text());
            (!i.is_invalid() && i.len_bytes() == bytes.len() && t != printed).then_some(t)
        };
        let differing: Vec<String> = decoded
            .iter()
            .filter_map(|(_, _, printed, bytes, again)| differs(printed, bytes, again))
            .collect();
        let mut reasm = mc.assemble(mcpu, &differing).into_iter();
        for (form, line, printed, bytes, again) in decoded {
            let key = format!("{} {form:?}", arch.gen.name());
            let ok = if differs(&printed, &bytes, &again).is_some() {
                let same = matches!(reasm.next(), Some(Ok(b)) if b == bytes);
                unencoded += usize::from(same);
                same
            } else {
                again.as_ref().is_some_and(|i| {
                    !i.is_invalid()
                        && i.len_bytes() == bytes.len()
                        && collapse_ws(&i.text()) == printed
                })
            };
            tally.entry(key).or_default().add(ok, || {
                format!(
                    "`{line}` -> {} `{printed}`: gcn-run {}",
                    common::llvm::hex(&bytes),
                    match &again {
                        Some(i) if i.is_invalid() => format!("invalid: {:?}", i.kind),
                        Some(i) => format!("`{}` ({} bytes)", i.text(), i.len_bytes()),
                        None => "nothing".into(),
                    }
                )
            });
        }
    }
    let bad = print_tallies(
        "LLVM texts assembled for gfx6/gfx7, decoded by gcn-run",
        &tally,
    );
    eprintln!("  {unencoded} where LLVM prints what it did not encode (gcn-run's text gives the same bytes)");
    assert_eq!(
        bad, 0,
        "gfx6/gfx7 encodings of LLVM texts gcn-run decodes otherwise"
    );
}
