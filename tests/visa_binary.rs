//! The binary vISA reader (`src/visa/binary.rs`) on objects Intel's GenX_IR
//! wrote (`assets/visa/bin/*.genxir12504.isa`), on the same objects with their
//! instruction stream re-encoded (`*.isa`), on IGC's own dumps
//! (`assets/visa/igc/`), through `gcn-run --disasm`, and on random and mutated
//! bytes.
//!
//! GenX_IR 12504's binary writer drops most operands after each instruction's
//! fixed fields (docs/visa.md). So the Intel files pin the header and tables
//! exactly, and the instruction layout only as far as Intel wrote it: each
//! instruction's Intel bytes must be a prefix of this test's encoding of the
//! same instruction from the text. The repaired objects (Intel's header and
//! tables + that encoding) must then read back as the very program the text
//! gives.

use gcnrun::visa::binary::{self, BinError};
use gcnrun::visa::decl::{PREDEFINED_GENERAL, PREDEFINED_SURFACES};
use gcnrun::visa::{
    self, tables, AttrValue, DialectChoice, Inst, Item, Modifier, Operand, Program, Raw, VarKind,
};
use proptest::prelude::*;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::Command;

fn assets() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("assets/visa")
}

/// The hand-written fixtures in assets/visa/bin/: names without extension.
fn bin_fixtures() -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(assets().join("bin"))
        .unwrap()
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "visaasm"))
        .map(|p| p.file_stem().unwrap().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert!(names.len() >= 2, "fixtures missing in assets/visa/bin");
    names
}

fn text_program(path: &Path) -> Program {
    let text = std::fs::read_to_string(path).unwrap();
    visa::parse(&text, DialectChoice::Auto).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn read(path: &Path) -> Vec<u8> {
    std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

// ---------------------------------------------------------------------------
// A test-side encoder: the research notes' layout (§1.4, §2), written from the
// text program. Independent of src/visa/binary/ except for the name tables.

/// Name → binary id for one program, in IGC's numbering.
struct Ids {
    general: HashMap<String, u32>,
    sampler: HashMap<String, u8>,
    surface: HashMap<String, u8>,
    pred: HashMap<String, u16>,
    label: HashMap<String, u16>,
}

impl Ids {
    /// Ids for `p`; labels numbered as in `labels` (an object's label table)
    /// or, without one, in order of definition.
    fn new(p: &Program, labels: Option<&[String]>) -> Ids {
        let mut ids = Ids {
            general: HashMap::new(),
            sampler: HashMap::new(),
            surface: HashMap::new(),
            pred: HashMap::new(),
            label: HashMap::new(),
        };
        for (i, n) in PREDEFINED_GENERAL.iter().enumerate() {
            ids.general.insert(n.to_string(), i as u32);
        }
        for (i, n) in PREDEFINED_SURFACES.iter().enumerate() {
            ids.surface.insert(n.to_string(), i as u8);
        }
        ids.sampler.insert("S31".into(), 31);
        let (mut g, mut s, mut t, mut pr) = (32u32, 0u8, 6u8, 1u16);
        for d in &p.decls {
            match d.kind {
                VarKind::General { .. } => {
                    ids.general.insert(d.name.clone(), g);
                    g += 1;
                }
                VarKind::Sampler { .. } => {
                    ids.sampler.insert(d.name.clone(), s);
                    s += 1;
                }
                VarKind::Surface { .. } => {
                    ids.surface.insert(d.name.clone(), t);
                    t += 1;
                }
                VarKind::Predicate { .. } => {
                    ids.pred.insert(d.name.clone(), pr);
                    pr += 1;
                }
                VarKind::Address { .. } => {}
            }
        }
        match labels {
            Some(table) => {
                for (i, l) in table.iter().enumerate() {
                    ids.label.insert(l.clone(), i as u16);
                    // IGC's printer appends `_<id>` to subroutine names
                    // (`_main` prints as `_main_0`); gcnrun keeps the name.
                    ids.label.insert(format!("{l}_{i}"), i as u16);
                }
            }
            None => {
                for s in &p.body {
                    if let Item::Label(l) | Item::Function(l) = &s.item {
                        let n = ids.label.len() as u16;
                        ids.label.entry(l.clone()).or_insert(n);
                    }
                }
            }
        }
        ids
    }
}

/// The length of a 3D_SAMPLE/3D_LOAD/3D_GATHER4 encoding up to and
/// including its destination (4.x op field, immediate `aoffimmi`, no paired
/// surface): both Intel writers write at least this much (IGC sometimes stops
/// right before the parameter count).
fn sampler_fixed_len(e: &[u8]) -> Option<usize> {
    match (e[0], e.get(7)) {
        (0x6D | 0x6F, Some(5)) => Some(21),
        (0x6E, Some(5)) => Some(20),
        _ => None,
    }
}

fn hex(b: &[u8]) -> String {
    b.iter().map(|x| format!("{x:02x}")).collect()
}

fn region_code(v: u8) -> u16 {
    match v {
        0 => 1,
        1 => 2,
        2 => 3,
        4 => 4,
        8 => 5,
        16 => 6,
        32 => 7,
        _ => panic!("stride {v}"),
    }
}

fn exec_byte(e: visa::Exec) -> u8 {
    let code = e.size.trailing_zeros() as u8;
    code | (e.mask << 4) | if e.no_mask { 0x80 } else { 0 }
}

fn pred_u16(ids: &Ids, p: Option<&visa::Pred>) -> u16 {
    p.map_or(0, |p| {
        let ctrl = match p.ctrl {
            visa::PredCtrl::None => 0,
            visa::PredCtrl::Any => 1,
            visa::PredCtrl::All => 2,
        };
        ids.pred[&p.name] | (ctrl << 13) | if p.invert { 0x8000 } else { 0 }
    })
}

fn vector(o: &mut Vec<u8>, ids: &Ids, op: &Operand, sat: bool) {
    match op {
        Operand::Var {
            name,
            modifier,
            row,
            col,
            region,
        } => {
            let m = match modifier {
                Modifier::None => u8::from(sat) * 4,
                Modifier::Abs => 1,
                Modifier::Neg => 2,
                Modifier::NegAbs => 3,
            };
            o.push(m << 3);
            o.extend(ids.general[name].to_le_bytes());
            o.push(*row as u8);
            o.push(*col as u8);
            let r = match region.vw {
                None => region_code(region.h) << 8,
                Some((v, w)) => region_code(v) | region_code(w) << 4 | region_code(region.h) << 8,
            };
            o.extend(r.to_le_bytes());
        }
        Operand::Imm { bits, ty } => {
            o.push(5);
            o.push(ty.0);
            if ty.bytes() == 8 {
                o.extend(bits.to_le_bytes());
            } else {
                o.extend((*bits as u32).to_le_bytes());
            }
        }
        Operand::Pred(p) => {
            o.push(2);
            o.extend(ids.pred[p].to_le_bytes());
        }
        Operand::State { name, index } => {
            o.push(6);
            let (class, id) = match ids.sampler.get(name) {
                Some(&s) => (1u8, u16::from(s)),
                None => (0, u16::from(ids.surface[name])),
            };
            o.push(class);
            o.extend(id.to_le_bytes());
            o.push(*index as u8);
        }
    }
}

fn raw(o: &mut Vec<u8>, ids: &Ids, r: &Raw) {
    o.extend(ids.general[&r.name].to_le_bytes());
    o.extend((r.offset as u16).to_le_bytes());
}

/// The last statement of `line` read in the context of `p`'s declarations
/// (the test re-reads the operands of `Unsupported` statements this way).
fn reparse(p: &Program, line: &str) -> Item {
    let decls = Program {
        body: Vec::new(),
        attrs: Vec::new(),
        ..p.clone()
    };
    let text = format!("{}    {line}\n", visa::print::program(&decls));
    let q = visa::parse(&text, DialectChoice::Auto).unwrap_or_else(|e| panic!("{line}: {e}"));
    q.body.last().unwrap().item.clone()
}

/// Predicate and exec of `[pred] head (exec) …`: read as `[pred] ret (exec)`.
fn pred_exec(p: &Program, text: &str) -> (Option<visa::Pred>, visa::Exec, String, String) {
    let (pred_text, rest) = match text.strip_prefix('(') {
        Some(r) => {
            let close = r.find(") ").unwrap();
            (format!("({}) ", &r[..close]), &r[close + 2..])
        }
        None => (String::new(), text),
    };
    let (head, rest) = rest.split_once(' ').unwrap();
    let close = rest.find(')').unwrap();
    let Item::Inst(Inst::Ret { pred, exec }) =
        reparse(p, &format!("{pred_text}ret {}", &rest[..=close]))
    else {
        panic!("{text}")
    };
    (
        pred,
        exec,
        head.to_string(),
        rest[close + 1..].trim().to_string(),
    )
}

/// One source operand spelled in text, read as `mov`'s source.
fn source(p: &Program, exec: visa::Exec, dst: &str, op: &str) -> Operand {
    match reparse(p, &format!("mov {} {dst} {op}", visa::print::exec(exec))) {
        Item::Inst(Inst::Alu { srcs, .. }) => srcs[0].clone(),
        i => panic!("{i:?}"),
    }
}

fn raw_text(t: &str) -> Raw {
    let (name, off) = t.rsplit_once('.').unwrap();
    Raw {
        name: name.to_string(),
        offset: off.parse().unwrap(),
    }
}

/// Encodes an `Unsupported` statement from its text: the common-layout ALU
/// ops outside the subset (`mad`), `scatter4_scaled`.
fn encode_unsupported(o: &mut Vec<u8>, ids: &Ids, p: &Program, text: &str) {
    let (pred, exec, head, operands) = pred_exec(p, text);
    let ops: Vec<&str> = operands.split_whitespace().collect();
    let (name, suffix) = head.split_once('.').unwrap_or((&head, ""));
    match name {
        "scatter4_scaled" => {
            o.push(0x75);
            o.push(exec_byte(exec));
            o.extend(pred_u16(ids, pred.as_ref()).to_le_bytes());
            let mask = suffix
                .chars()
                .map(|c| 1u8 << "RGBA".find(c).unwrap())
                .sum::<u8>();
            o.push(mask);
            o.extend(0u16.to_le_bytes());
            o.push(ids.surface[ops[0]]);
            // Any general variable serves as the scratch destination here.
            let scratch = format!("{}(0,0)<1>", raw_text(ops[2]).name);
            vector(o, ids, &source(p, exec, &scratch, ops[1]), false);
            raw(o, ids, &raw_text(ops[2]));
            raw(o, ids, &raw_text(ops[3]));
        }
        _ => {
            let code = [("mad", 0x0C)]
                .iter()
                .find(|t| t.0 == name)
                .unwrap_or_else(|| panic!("no encoding for `{name}`"))
                .1;
            o.push(code);
            o.push(exec_byte(exec));
            o.extend(pred_u16(ids, pred.as_ref()).to_le_bytes());
            let dst = match reparse(
                p,
                &format!("mov {} {} 0x0:ud", visa::print::exec(exec), ops[0]),
            ) {
                Item::Inst(Inst::Alu { dst, .. }) => dst,
                i => panic!("{i:?}"),
            };
            vector(o, ids, &dst, suffix == "sat");
            for op in &ops[1..] {
                vector(o, ids, &source(p, exec, ops[0], op), false);
            }
        }
    }
}

/// How the sampler op field is written.
#[derive(Clone, Copy, PartialEq)]
enum OpField {
    /// 4.0 and later as IGC's reader reads it: u16, flags in bits 8–10.
    V4,
    /// As GenX_IR 12504 writes it: u16, but `.divS` (bit 10) is not written.
    V4Writer2022,
    /// Before 4.0: u8, sub-op bits 0–4, flags bits 5–7.
    V3,
}

/// Each body statement's encoding (a `.function` + its label is one
/// subroutine instruction; its label statement encodes to nothing).
fn encode(p: &Program, field: OpField) -> Vec<Vec<u8>> {
    encode_with(p, field, None)
}

/// [`encode`] with the label ids of an object's label table.
fn encode_with(p: &Program, field: OpField, labels: Option<&[String]>) -> Vec<Vec<u8>> {
    let ids = Ids::new(p, labels);
    let opcode = |name: &str| -> u8 {
        let table: &[(&str, u8)] = &[
            ("add", 0x01),
            ("mul", 0x10),
            ("rndd", 0x12),
            ("rndu", 0x13),
            ("rnde", 0x14),
            ("rndz", 0x15),
            ("and", 0x20),
            ("or", 0x21),
            ("xor", 0x22),
            ("not", 0x23),
            ("shl", 0x24),
            ("shr", 0x25),
            ("asr", 0x26),
            ("mov", 0x29),
            ("sel", 0x2A),
        ];
        table.iter().find(|t| t.0 == name).unwrap().1
    };
    let mut out = Vec::new();
    let items = p.items();
    let mut i = 0;
    while i < items.len() {
        let mut o = Vec::new();
        match items[i] {
            Item::Function(f) => {
                o.push(0x30);
                o.extend(ids.label[f].to_le_bytes());
                assert_eq!(items.get(i + 1), Some(&&Item::Label(f.clone())));
                i += 1;
            }
            Item::Label(l) => {
                o.push(0x31);
                o.extend(ids.label[l].to_le_bytes());
            }
            Item::Inst(inst) => match inst {
                Inst::Alu {
                    op,
                    sat,
                    pred,
                    exec,
                    dst,
                    srcs,
                } => {
                    o.push(opcode(op));
                    o.push(exec_byte(*exec));
                    o.extend(pred_u16(&ids, pred.as_ref()).to_le_bytes());
                    vector(&mut o, &ids, dst, *sat);
                    for s in srcs {
                        vector(&mut o, &ids, s, false);
                    }
                }
                Inst::Unsupported { text, .. } => encode_unsupported(&mut o, &ids, p, text),
                Inst::Branch {
                    kind,
                    pred,
                    exec,
                    label,
                } => {
                    // GOTO 0x6C / JMP 0x32: exec, pred, label id.
                    o.push(match kind {
                        visa::BranchKind::Goto => 0x6C,
                        visa::BranchKind::Jmp => 0x32,
                    });
                    o.push(exec_byte(*exec));
                    o.extend(pred_u16(&ids, pred.as_ref()).to_le_bytes());
                    o.extend(ids.label[label].to_le_bytes());
                }
                Inst::Scatter4Scaled {
                    pred,
                    channels,
                    exec,
                    surface,
                    offset,
                    element_offset,
                    src,
                } => {
                    // SCATTER4_SCALED (0x75): exec, pred, channel mask, scale
                    // (u16, 0), surface, global offset, offsets, data.
                    o.push(0x75);
                    o.push(exec_byte(*exec));
                    o.extend(pred_u16(&ids, pred.as_ref()).to_le_bytes());
                    o.push(*channels);
                    o.extend(0u16.to_le_bytes());
                    o.push(ids.surface[surface]);
                    vector(&mut o, &ids, offset, false);
                    raw(&mut o, &ids, element_offset);
                    raw(&mut o, &ids, src);
                }
                Inst::Movs { exec, dst, src } => {
                    o.push(0x2D);
                    o.push(exec_byte(*exec));
                    vector(&mut o, &ids, dst, false);
                    vector(&mut o, &ids, src, false);
                }
                Inst::Setp { exec, dst, src } => {
                    o.push(0x2B);
                    o.push(exec_byte(*exec));
                    vector(&mut o, &ids, &Operand::Pred(dst.clone()), false);
                    vector(&mut o, &ids, src, false);
                }
                Inst::Cmp {
                    rel,
                    exec,
                    dst,
                    srcs,
                } => {
                    o.push(0x2C);
                    o.push(exec_byte(*exec));
                    o.push(*rel);
                    vector(&mut o, &ids, dst, false);
                    vector(&mut o, &ids, &srcs[0], false);
                    vector(&mut o, &ids, &srcs[1], false);
                }
                Inst::Ret { pred, exec } => {
                    o.push(0x34);
                    o.push(exec_byte(*exec));
                    o.extend(pred_u16(&ids, pred.as_ref()).to_le_bytes());
                }
                Inst::Sampler(s) => {
                    let class = s.op.class;
                    o.push(class.opcode());
                    if class == tables::SamplerClass::Info {
                        o.push(s.op.code);
                        o.push(exec_byte(s.exec));
                        o.push(s.channels);
                        o.push(ids.surface[&s.surface]);
                        for r in &s.params {
                            raw(&mut o, &ids, r);
                        }
                        raw(&mut o, &ids, &s.dst);
                    } else {
                        let flags = u16::from(s.pixel_null_mask)
                            | u16::from(s.cps) << 1
                            | u16::from(s.div_s && field != OpField::V4Writer2022) << 2;
                        if field != OpField::V3 {
                            o.extend((u16::from(s.op.code) | flags << 8).to_le_bytes());
                        } else {
                            o.push(s.op.code | (flags as u8) << 5);
                        }
                        o.push(exec_byte(s.exec));
                        o.extend(pred_u16(&ids, s.pred.as_ref()).to_le_bytes());
                        o.push(if class == tables::SamplerClass::Gather4 {
                            s.channels.trailing_zeros() as u8
                        } else {
                            s.channels
                        });
                        vector(&mut o, &ids, s.aoffimmi.as_ref().unwrap(), false);
                        if let Some(smp) = &s.sampler {
                            o.push(ids.sampler[smp]);
                        }
                        o.push(ids.surface[&s.surface]);
                        raw(&mut o, &ids, &s.dst);
                        if let Some(pr) = &s.paired {
                            raw(&mut o, &ids, pr);
                        }
                        o.push(s.params.len() as u8);
                        for r in &s.params {
                            raw(&mut o, &ids, r);
                        }
                    }
                }
            },
        }
        out.push(o);
        i += 1;
    }
    out
}

/// Splits Intel's damaged stream into one prefix of each expected encoding
/// (backtracking over the prefix lengths); the rest must be zero padding.
/// Returns the matched length per instruction.
fn match_prefixes(stream: &[u8], expected: &[Vec<u8>]) -> Option<Vec<usize>> {
    match_prefixes_tail(stream, expected, true)
}

/// [`match_prefixes`]; `zero_tail` says the bytes after the last
/// instruction must be zeros (GenX_IR) rather than anything (IGC via ocloc
/// leaves uninitialised bytes there).
fn match_prefixes_tail(stream: &[u8], expected: &[Vec<u8>], zero_tail: bool) -> Option<Vec<usize>> {
    fn go(stream: &[u8], exp: &[Vec<u8>], out: &mut Vec<usize>, zero_tail: bool) -> bool {
        let Some((first, rest)) = exp.split_first() else {
            return !zero_tail || stream.iter().all(|&b| b == 0);
        };
        // At least the opcode must be there; try the longest match first.
        let max = first.len().min(stream.len());
        let common = (0..max).take_while(|&k| stream[k] == first[k]).count();
        for len in (1..=common).rev() {
            out.push(len);
            if go(&stream[len..], rest, out, zero_tail) {
                return true;
            }
            out.pop();
        }
        false
    }
    let mut out = Vec::new();
    go(stream, expected, &mut out, zero_tail).then_some(out)
}

/// Intel's object with the instruction stream replaced by `stream`: the
/// stream-size field, the header's kernel-object size and the Gen binary
/// offsets (the Gen code is kept after the new stream) are patched.
fn splice(intel: &[u8], t: &binary::Tables, stream: &[u8]) -> Vec<u8> {
    // Header (4.1): magic, version, kernel count, name length u16, name,
    // offset u32, size u32, input offset u32, two u16 reloc counts, Gen count u8,
    // Gen binaries (platform u8, offset u32, size u32).
    let name_len = u16::from_le_bytes([intel[8], intel[9]]) as usize;
    let offset_at = 10 + name_len;
    let obj = u32::from_le_bytes(intel[offset_at..offset_at + 4].try_into().unwrap()) as usize;
    let obj_size_at = offset_at + 4;
    let old_size = u32::from_le_bytes(intel[obj_size_at..obj_size_at + 4].try_into().unwrap());
    let gen_count_at = offset_at + 16;
    let gen_count = intel[gen_count_at] as usize;
    assert_eq!(
        t.stream_end,
        obj + old_size as usize,
        "the stream ends the kernel object"
    );
    let mut out = intel[..t.stream_start].to_vec();
    out.extend_from_slice(stream);
    let new_obj_end = out.len();
    let mut gen_infos = Vec::new();
    for g in 0..gen_count {
        let at = gen_count_at + 1 + 9 * g;
        let off = u32::from_le_bytes(intel[at + 1..at + 5].try_into().unwrap()) as usize;
        let len = u32::from_le_bytes(intel[at + 5..at + 9].try_into().unwrap()) as usize;
        gen_infos.push((at, out.len()));
        out.extend_from_slice(&intel[off..off + len]);
    }
    out[obj_size_at..obj_size_at + 4].copy_from_slice(&((new_obj_end - obj) as u32).to_le_bytes());
    out[t.stream_size_at..t.stream_size_at + 4]
        .copy_from_slice(&(stream.len() as u32).to_le_bytes());
    for (at, new_off) in gen_infos {
        out[at + 1..at + 5].copy_from_slice(&(new_off as u32).to_le_bytes());
    }
    out
}

fn assert_same_program(a: &Program, b: &Program, what: &str) {
    assert_eq!(a.version, b.version, "{what}");
    assert_eq!(a.kernel, b.kernel, "{what}");
    assert_eq!(a.decls, b.decls, "{what}: declarations");
    assert_eq!(a.inputs, b.inputs, "{what}: inputs");
    assert_eq!(a.attrs, b.attrs, "{what}: attributes");
    assert_eq!(a.items(), b.items(), "{what}: instructions");
}

/// Text declarations as the binary gives them: S/T variables carry their
/// string-pool name as `v_name` (IGC prints `.decl S0 … v_name=S0`), and
/// general variables their alignment code even when the text omits it.
fn text_as_binary(p: &Program) -> Program {
    let mut q = p.clone();
    for d in &mut q.decls {
        if matches!(d.kind, VarKind::Sampler { .. } | VarKind::Surface { .. }) && d.v_name.is_none()
        {
            d.v_name = Some(d.name.clone());
        }
        if let VarKind::General { align, .. } = &mut d.kind {
            align.get_or_insert(0);
        }
    }
    q
}

#[test]
fn intel_objects_have_the_texts_tables() {
    for name in bin_fixtures() {
        let dir = assets().join("bin");
        let text = text_as_binary(&text_program(&dir.join(format!("{name}.visaasm"))));
        let intel = read(&dir.join(format!("{name}.genxir12504.isa")));
        let t = binary::read_tables(&intel).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(t.program.version, text.version);
        assert_eq!(t.program.kernel, text.kernel);
        assert_eq!(t.program.decls, text.decls, "{name}");
        assert_eq!(t.program.inputs, text.inputs, "{name}");
        assert_eq!(t.program.attrs, text.attrs, "{name}");
        // The whole read fails inside the damaged stream, at an offset.
        let e = binary::read(&intel, DialectChoice::Auto).unwrap_err();
        assert!(
            (t.stream_start..t.stream_end).contains(&e.offset),
            "{name}: {e} not in the stream {:#x}..{:#x}",
            t.stream_start,
            t.stream_end
        );
    }
}

#[test]
fn intel_stream_bytes_are_prefixes_of_the_encoding() {
    for name in bin_fixtures() {
        let dir = assets().join("bin");
        let text = text_program(&dir.join(format!("{name}.visaasm")));
        let intel = read(&dir.join(format!("{name}.genxir12504.isa")));
        let t = binary::read_tables(&intel).unwrap();
        let enc = encode(&text, OpField::V4Writer2022);
        let lens =
            match_prefixes(&intel[t.stream_start..t.stream_end], &enc).unwrap_or_else(|| {
                panic!("{name}: Intel's stream is not a run of prefixes of the encoding")
            });
        // Intel wrote at least the opcode and the byte after it (exec size, or
        // the label id) of every instruction; it stops as early as that for
        // `goto`, whose predicate and label it drops.
        let matched: usize = lens.iter().sum();
        let total: usize = enc.iter().map(Vec::len).sum();
        for (k, (&l, e)) in lens.iter().zip(&enc).enumerate() {
            assert!(
                l >= e.len().min(2),
                "{name}: instruction {k}: only {l} bytes match"
            );
            if let Some(fixed) = sampler_fixed_len(e) {
                assert!(
                    l >= fixed,
                    "{name}: sampler instruction {k}: {l} of {fixed} fixed bytes"
                );
            }
        }
        eprintln!("{name}: Intel wrote {matched} of {total} instruction bytes");
        // GenX_IR 12504 does not write `.divS` (bit 10 of the op field, which
        // IGC's reader reads): with it, sampler_ops's stream does not match.
        let has_div_s = text
            .body
            .iter()
            .any(|s| matches!(&s.item, Item::Inst(Inst::Sampler(smp)) if smp.div_s));
        let strict = match_prefixes(
            &intel[t.stream_start..t.stream_end],
            &encode(&text, OpField::V4),
        );
        assert_eq!(strict.is_some(), !has_div_s, "{name}");
    }
}

#[test]
fn repaired_objects_read_back_as_the_text() {
    let bless = std::env::var_os("GCNRUN_BLESS").is_some();
    for name in bin_fixtures() {
        let dir = assets().join("bin");
        let text = text_program(&dir.join(format!("{name}.visaasm")));
        let intel = read(&dir.join(format!("{name}.genxir12504.isa")));
        let t = binary::read_tables(&intel).unwrap();
        let stream: Vec<u8> = encode(&text, OpField::V4).concat();
        let repaired = splice(&intel, &t, &stream);
        let path = dir.join(format!("{name}.isa"));
        if bless {
            std::fs::write(&path, &repaired).unwrap();
        }
        assert_eq!(
            read(&path),
            repaired,
            "{}: stale; rerun with GCNRUN_BLESS=1",
            path.display()
        );
        let p =
            binary::read(&repaired, DialectChoice::Auto).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_same_program(&p, &text_as_binary(&text), &name);
        // Through the file loader too (detection by magic).
        let q = visa::load_file(&path, DialectChoice::Auto).unwrap();
        assert_eq!(q.items(), p.items());
    }
}

#[test]
fn version_gates_change_the_widths() {
    // The same program as a 3.9 object: the sampler op is one byte
    // (sub-op bits 0–4, flags 5–7) before 4.0; everything else is unchanged.
    let dir = assets().join("bin");
    let text = text_program(&dir.join("sampler_ops.visaasm"));
    let intel = read(&dir.join("sampler_ops.genxir12504.isa"));
    let t = binary::read_tables(&intel).unwrap();
    let mut old = splice(&intel, &t, &encode(&text, OpField::V3).concat());
    old[4] = 3;
    old[5] = 9;
    let p = binary::read(&old, DialectChoice::Auto).unwrap_or_else(|e| panic!("{e}"));
    let mut want = text_as_binary(&text);
    want.version = visa::Version { major: 3, minor: 9 };
    assert_same_program(&p, &want, "3.9");
    // Read as 4.1, the one-byte ops misalign the stream: an error, not a program.
    old[4] = 4;
    old[5] = 1;
    assert!(binary::read(&old, DialectChoice::Auto).is_err());
    // 3.3 and 4.2 are refused at the version field.
    for (maj, min) in [(3, 3), (4, 2), (2, 0)] {
        let mut b = intel.clone();
        b[4] = maj;
        b[5] = min;
        let e = binary::read_tables(&b).unwrap_err();
        assert_eq!(e.offset, 4, "{e}");
    }
}

#[test]
fn truncated_research_sample_is_an_error_with_an_offset() {
    // The research sample is sample3d.genxir12504.isa (same bytes).
    let path = assets().join("bin/sample3d.genxir12504.isa");
    let e = visa::load_file(&path, DialectChoice::Auto).unwrap_err();
    let line = e.to_string();
    assert!(
        line.contains("sample3d.genxir12504.isa: offset 0x"),
        "{line}"
    );
    assert!(!line.contains('\n'));
    // The first mov's operands are missing: the next opcode is read as an
    // operand tag, in the second instruction's first byte.
    let visa::LoadError::Binary { source, .. } = &e else {
        panic!("not a binary decoding error: {line}");
    };
    assert_eq!(source.offset, 0x1d5, "{line}");
}

#[test]
fn every_truncation_is_an_error_at_or_before_the_cut() {
    let dir = assets().join("bin");
    let full = read(&dir.join("sampler_ops.isa"));
    for cut in 0..full.len() {
        match binary::read(&full[..cut], DialectChoice::Auto) {
            Err(BinError { offset, .. }) => assert!(offset <= cut, "cut {cut}: offset {offset}"),
            Ok(_) => panic!("a {cut}-byte prefix read as a program"),
        }
    }
}

#[test]
fn corrupt_fields_name_their_offset() {
    let dir = assets().join("bin");
    let good = read(&dir.join("sample3d.isa"));
    let t = binary::read_tables(&good).unwrap();
    let text = text_program(&dir.join("sample3d.visaasm"));
    let enc = encode(&text, OpField::V4);
    let first_sample = enc.iter().position(|e| e[0] == 0x6D).unwrap();
    let sample_at = t.stream_start + enc[..first_sample].iter().map(Vec::len).sum::<usize>();
    let cases: &[(usize, u8, &str)] = &[
        (0, b'X', "magic"),
        // kernel count 2
        (6, 2, "kernels"),
        // 3D_SAMPLE: opcode, op u16, exec, pred u16, channels, aoffimmi (6),
        // sampler, then the surface byte → T9 (undeclared)
        (sample_at + 14, 9, "surface T9"),
        // … and its exec byte → size code 7
        (sample_at + 3, 7, "exec size code 7"),
        // … and its first parameter's variable id → 0x7f (undeclared)
        (sample_at + 22, 0x7f, "id 127 is not declared"),
    ];
    for &(at, byte, want) in cases {
        let mut b = good.clone();
        b[at] = byte;
        let e = binary::read(&b, DialectChoice::Auto).unwrap_err();
        assert!(e.message.contains(want), "byte {at:#x}: {e}");
    }
    // A string count larger than the file is refused before allocating.
    let mut b = good.clone();
    let name_len = usize::from(u16::from_le_bytes([good[8], good[9]]));
    let obj = u32::from_le_bytes(good[10 + name_len..14 + name_len].try_into().unwrap()) as usize;
    b[obj..obj + 4].copy_from_slice(&u32::MAX.to_le_bytes());
    let e = binary::read(&b, DialectChoice::Auto).unwrap_err();
    assert_eq!(e.offset, obj, "{e}");
    assert!(e.message.contains("string count"), "{e}");
    // A rule of the text frontend (here: the destination of RGBA at SIMD16
    // needs 8 GRFs) is reported at the instruction's offset: make the first
    // sample's destination byte offset 64.
    let mut b = good.clone();
    b[sample_at + 19] = 64;
    let e = binary::read(&b, DialectChoice::Auto).unwrap_err();
    assert_eq!(e.offset, sample_at, "{e}");
    assert!(e.message.contains("beyond"), "{e}");
}

#[test]
fn disasm_prints_the_canonical_text() {
    let dir = assets().join("bin");
    for name in bin_fixtures() {
        let isa = dir.join(format!("{name}.isa"));
        let out = Command::new(env!("CARGO_BIN_EXE_gcn-run"))
            .arg("--disasm")
            .arg(&isa)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let listing = String::from_utf8(out.stdout).unwrap();
        let want = visa::print::program(&binary::read(&read(&isa), DialectChoice::Auto).unwrap());
        assert_eq!(listing, want);
        // The listing is text the frontend reads back as the same program.
        let q = visa::parse(&listing, DialectChoice::Auto).unwrap();
        assert_same_program(
            &q,
            &text_as_binary(&text_program(&dir.join(format!("{name}.visaasm")))),
            &name,
        );
        // Named .bin, it is still recognised by its magic.
        let tmp =
            std::env::temp_dir().join(format!("gcnrun-visabin-{name}-{}.bin", std::process::id()));
        std::fs::copy(&isa, &tmp).unwrap();
        let out = Command::new(env!("CARGO_BIN_EXE_gcn-run"))
            .arg("--disasm")
            .arg(&tmp)
            .output()
            .unwrap();
        let _ = std::fs::remove_file(&tmp);
        assert!(out.status.success());
        assert_eq!(String::from_utf8(out.stdout).unwrap(), want);
    }
    // The damaged Intel object: exit 2, one line naming file and offset.
    let bad = dir.join("sample3d.genxir12504.isa");
    let out = Command::new(env!("CARGO_BIN_EXE_gcn-run"))
        .arg("--disasm")
        .arg(&bad)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8(out.stderr).unwrap();
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.contains("sample3d.genxir12504.isa: offset 0x1d5:"),
        "{err}"
    );
}

#[test]
fn kernel_attributes_by_name() {
    let dir = assets().join("bin");
    let p = binary::read(&read(&dir.join("sample3d.isa")), DialectChoice::Auto).unwrap();
    assert_eq!(p.attrs[0].value, Some(AttrValue::Str("3d".into())));
}

/// Real fixtures, for mutation: the Intel-written and repaired objects and
/// IGC's own.
fn seeds() -> Vec<Vec<u8>> {
    let dir = assets().join("bin");
    let mut out: Vec<Vec<u8>> = bin_fixtures()
        .iter()
        .flat_map(|n| {
            [
                read(&dir.join(format!("{n}.isa"))),
                read(&dir.join(format!("{n}.genxir12504.isa"))),
            ]
        })
        .collect();
    for (name, _) in igc_dumps() {
        out.push(read(&assets().join(format!("igc/{name}.isa"))));
    }
    out
}

fn check(bytes: &[u8]) {
    match binary::read(bytes, DialectChoice::Auto) {
        Ok(p) => {
            // A program that reads is one the text frontend accepts.
            let text = visa::print::program(&p);
            visa::parse(&text, DialectChoice::Force(p.dialect)).unwrap();
        }
        Err(e) => {
            assert!(e.offset <= bytes.len(), "{e}");
            assert!(!e.message.contains('\n'), "{e}");
        }
    }
    let _ = binary::read_tables(bytes);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn random_bytes_never_panic(mut bytes in prop::collection::vec(any::<u8>(), 0..600), magic in any::<bool>()) {
        if magic && bytes.len() >= 6 {
            bytes[..4].copy_from_slice(binary::MAGIC);
            bytes[4] = 4;
            bytes[5] = 1;
        }
        check(&bytes);
    }

    #[test]
    fn mutated_fixtures_never_panic(
        seed in any::<prop::sample::Index>(),
        edits in prop::collection::vec((any::<prop::sample::Index>(), any::<u8>()), 1..6),
        cut in any::<prop::sample::Index>(),
        truncate in any::<bool>(),
    ) {
        let seeds = seeds();
        let mut b = seeds[seed.index(seeds.len())].clone();
        for (i, v) in edits {
            let at = i.index(b.len());
            b[at] = v;
        }
        if truncate {
            let n = cut.index(b.len() + 1);
            b.truncate(n);
        }
        check(&b);
    }
}

// ---------------------------------------------------------------------------
// Real IGC dumps (assets/visa/igc/, made by its regen.sh with ocloc).

/// `(stem, .visaasm text)` of every dump.
fn igc_dumps() -> Vec<(String, String)> {
    let dir = assets().join("igc");
    let mut out: Vec<(String, String)> = std::fs::read_dir(&dir)
        .unwrap()
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "visaasm"))
        .map(|p| {
            (
                p.file_stem().unwrap().to_string_lossy().into_owned(),
                std::fs::read_to_string(&p).unwrap(),
            )
        })
        .collect();
    out.sort();
    assert!(
        out.len() >= 10,
        "expected the IGC dumps in {}",
        dir.display()
    );
    out
}

#[test]
fn igc_dumps_parse_print_and_reparse() {
    let mut sub_ops = std::collections::BTreeSet::new();
    for (name, text) in igc_dumps() {
        let p = visa::parse(&text, DialectChoice::Auto).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(p.dialect, visa::Dialect::V41_2022, "{name}");
        let printed = visa::print::program(&p);
        let q = visa::parse(&printed, DialectChoice::Force(p.dialect))
            .unwrap_or_else(|e| panic!("{name} reprinted: {e}"));
        assert_same_program(&q, &p, &name);
        assert_eq!(
            visa::print::program(&q),
            printed,
            "{name}: printing is a fixed point"
        );
        for s in &p.body {
            if let Item::Inst(Inst::Sampler(smp)) = &s.item {
                sub_ops.insert(smp.op.name);
            }
        }
    }
    // What IGC 12504 emits for OpenCL image reads.
    let want: std::collections::BTreeSet<_> = ["load_lz", "sample_l", "sample_lz"].into();
    assert_eq!(sub_ops, want);
}

#[test]
fn igc_objects_have_their_dumps_tables() {
    for (name, text) in igc_dumps() {
        let dump = text_as_binary(&visa::parse(&text, DialectChoice::Auto).unwrap());
        let isa = read(&assets().join(format!("igc/{name}.isa")));
        let t = binary::read_tables(&isa).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(t.program.kernel, dump.kernel, "{name}");
        assert_eq!(t.program.decls, dump.decls, "{name}");
        assert_eq!(t.program.inputs, dump.inputs, "{name}");
        // IGC's printer leaves OutputAsmPath (the dump file name) out of the text.
        let attrs: Vec<_> = t
            .program
            .attrs
            .iter()
            .filter(|a| a.name != "OutputAsmPath")
            .cloned()
            .collect();
        assert_eq!(attrs, dump.attrs, "{name}");
        // IGC 12504's stream is damaged like GenX_IR's: an error inside it.
        let e = binary::read(&isa, DialectChoice::Auto).unwrap_err();
        assert!(
            (t.stream_start..t.stream_end).contains(&e.offset),
            "{name}: {e}"
        );
    }
}

#[test]
fn igc_dumps_through_gcn_run() {
    let dir = assets().join("igc");
    for (name, text) in igc_dumps() {
        let out = Command::new(env!("CARGO_BIN_EXE_gcn-run"))
            .arg("--disasm")
            .arg(dir.join(format!("{name}.visaasm")))
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{name}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let p = visa::parse(&text, DialectChoice::Auto).unwrap();
        assert_eq!(
            String::from_utf8(out.stdout).unwrap(),
            visa::print::program(&p)
        );
        let out = Command::new(env!("CARGO_BIN_EXE_gcn-run"))
            .arg("--disasm")
            .arg(dir.join(format!("{name}.isa")))
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{name}");
        let err = String::from_utf8(out.stderr).unwrap();
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(err.contains(&format!("{name}.isa: offset 0x")), "{err}");
    }
}

#[test]
fn igc_stream_bytes_are_prefixes_of_the_encoding() {
    // IGC itself (through ocloc) writes like GenX_IR: each instruction's bytes
    // are a prefix of its full encoding from the dump's text.
    let (mut matched, mut total) = (0, 0);
    for (name, text) in igc_dumps() {
        let p = visa::parse(&text, DialectChoice::Auto).unwrap();
        let isa = read(&assets().join(format!("igc/{name}.isa")));
        let t = binary::read_tables(&isa).unwrap();
        let enc = encode_with(&p, OpField::V4Writer2022, Some(&t.labels));
        let lens = match_prefixes_tail(&isa[t.stream_start..t.stream_end], &enc, false)
            .unwrap_or_else(|| {
                panic!("{name}: IGC's stream is not a run of prefixes of the encoding")
            });
        // The opcode at least; after what it writes of an instruction IGC
        // leaves arbitrary bytes, so a `ret` may show its opcode only.
        let stream = &isa[t.stream_start..t.stream_end];
        let mut at = 0;
        for (k, (&l, e)) in lens.iter().zip(&enc).enumerate() {
            assert!(
                l >= sampler_fixed_len(e).unwrap_or(1),
                "{name}: instruction {k}: only {l} bytes match: {} vs {}",
                hex(e),
                hex(&stream[at..(at + e.len()).min(stream.len())])
            );
            at += l;
        }
        matched += lens.iter().sum::<usize>();
        total += enc.iter().map(Vec::len).sum::<usize>();
    }
    eprintln!("IGC wrote {matched} of {total} instruction bytes");
}

/// A name read from the file is quoted in errors; a control byte in it is
/// escaped so the error stays one line (found by `mutated_fixtures_never_panic`:
/// a newline in the kernel object's name).
#[test]
fn a_control_byte_in_a_quoted_name_keeps_the_error_on_one_line() {
    let mut b = read(&assets().join("igc/image_reads__read_2d_array_int_coords.isa"));
    let name = b"read_2d_array_int_coords\0";
    let last = b
        .windows(name.len())
        .rposition(|w| w == name)
        .expect("the kernel object's name");
    b[last + 12] = b'\n';
    let e = binary::read(&b, DialectChoice::Auto).expect_err("the names differ");
    assert!(e.message.contains("read_2d_arra\\n_int_coords"), "{e}");
    assert!(!e.to_string().contains('\n'), "{e}");
}
