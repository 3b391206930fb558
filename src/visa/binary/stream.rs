//! The instruction stream (research notes §1.4 and §2): one opcode byte, then
//! operands laid out by the opcode's [`Layout`]. Decoded into the text
//! frontend's [`Inst`] records; opcodes outside its subset whose layout is
//! known become [`Inst::Unsupported`] with their canonical text, as the text
//! path keeps them.

use super::cursor::{Cur, Res};
use super::opcodes::{lookup, Layout};
use super::symbols::Symbols;
use crate::visa::inst::{Exec, Inst, Modifier, Operand, Pred, PredCtrl, Raw, Region};
use crate::visa::tables::{VisaType, ALU_OPS, RELATIONS};
use crate::visa::{print, Dialect, Item, Program, Stmt, Version};

/// Operand class in bits 0–2 of a vector operand's tag.
const CLASS_GENERAL: u8 = 0;
const CLASS_ADDRESS: u8 = 1;
const CLASS_PREDICATE: u8 = 2;
const CLASS_INDIRECT: u8 = 3;
const CLASS_IMMEDIATE: u8 = 5;
const CLASS_STATE: u8 = 6;
/// Modifier in bits 3–5 of the tag (`VISA_Modifier`).
const MOD_SAT: u8 = 4;
/// Region codes 0–7 (`Common_ISA_Region_Val`): 0 means "absent".
const REGION_VALUES: [u8; 8] = [0, 0, 1, 2, 4, 8, 16, 32];
/// Exec-size codes 0–5.
const EXEC_SIZES: [u8; 6] = [1, 2, 4, 8, 16, 32];
/// Label kinds (`VISA_Label_Kind`) this decoder handles.
const LABEL_BLOCK: u8 = 0;
const LABEL_SUBROUTINE: u8 = 1;

/// One instruction's context: the cursor, the names, and where it started.
pub(crate) struct Dec<'a, 'b> {
    pub(crate) c: &'b mut Cur<'a>,
    pub(crate) syms: &'b Symbols,
    pub(crate) at: usize,
}

impl Dec<'_, '_> {
    /// An error at the start of the current instruction.
    pub(crate) fn err(&self, m: impl Into<String>) -> super::BinError {
        Cur::err_at(self.at, m)
    }

    pub(crate) fn name<T>(&self, r: Result<T, String>) -> Res<T> {
        r.map_err(|m| self.err(m))
    }

    /// Exec-size byte: bits 0–3 size code, bits 4–7 mask (8–15 = `_NM`).
    pub(crate) fn exec(&mut self) -> Res<Exec> {
        let b = self.c.u8("exec size")?;
        let size = *EXEC_SIZES
            .get(usize::from(b & 0xF))
            .ok_or_else(|| self.err(format!("exec size code {} is not 0–5", b & 0xF)))?;
        Ok(Exec {
            size,
            mask: (b >> 4) & 7,
            no_mask: b >> 7 != 0,
        })
    }

    /// Predicate field u16: id bits 0–11 (0 = none), bit 12 reserved,
    /// control bits 13–14 (`.any`, `.all`), invert bit 15.
    pub(crate) fn pred(&mut self) -> Res<Option<Pred>> {
        let v = self.c.u16("predicate")?;
        if v == 0 {
            return Ok(None);
        }
        let ctrl = match (v >> 13) & 3 {
            0 => PredCtrl::None,
            1 => PredCtrl::Any,
            2 => PredCtrl::All,
            _ => return Err(self.err(format!("predicate {v:#06x}: control 3 is undefined"))),
        };
        if v & 0x1000 != 0 {
            return Err(self.err(format!("predicate {v:#06x}: reserved bit 12 is set")));
        }
        Ok(Some(Pred {
            name: self.name(self.syms.predicate(v & 0xFFF))?,
            invert: v & 0x8000 != 0,
            ctrl,
        }))
    }

    /// A raw operand: variable id u32, byte offset u16.
    pub(crate) fn raw(&mut self, what: &str) -> Res<Raw> {
        let id = self.c.u32(what)?;
        let offset = u32::from(self.c.u16(what)?);
        Ok(Raw {
            name: self.name(self.syms.general(id))?,
            offset,
        })
    }

    /// A vector operand and its modifier code; `dst` says whether its region
    /// is a destination's `<h>`.
    pub(crate) fn vector(&mut self, dst: bool) -> Res<(Operand, u8)> {
        let tag_at = self.c.pos;
        let tag = self.c.u8("operand tag")?;
        let modifier = (tag >> 3) & 7;
        let op = match tag & 7 {
            CLASS_GENERAL => {
                let id = self.c.u32("variable id")?;
                let name = self.name(self.syms.general(id))?;
                let row = u32::from(self.c.u8("row offset")?);
                let col = u32::from(self.c.u8("column offset")?);
                let region = self.region(dst)?;
                Operand::Var {
                    name,
                    modifier: match modifier {
                        1 => Modifier::Abs,
                        2 => Modifier::Neg,
                        3 => Modifier::NegAbs,
                        _ => Modifier::None,
                    },
                    row,
                    col,
                    region,
                }
            }
            CLASS_PREDICATE => {
                let id = self.c.u16("predicate operand")?;
                Operand::Pred(self.name(self.syms.predicate(id & 0xFFF))?)
            }
            CLASS_IMMEDIATE => {
                let ty = VisaType::from_code(self.c.u8("immediate type")? & 0xF)
                    .unwrap_or(VisaType(0));
                let bits = if ty.bytes() == 8 {
                    self.c.u64("immediate value")?
                } else {
                    // Immediates are stored in at least 4 bytes; keep the
                    // type's width, as the text form does.
                    u64::from(self.c.u32("immediate value")?) & ((1u64 << (ty.bytes() * 8)) - 1)
                };
                Operand::Imm { bits, ty }
            }
            CLASS_STATE => {
                let class = self.c.u8("state operand class")?;
                let id = self.c.u16("state operand id")?;
                let index = u32::from(self.c.u8("state operand element")?);
                let name = match class {
                    0 => self.syms.surface(id),
                    1 => self.syms.sampler(id),
                    k => Err(format!("state operand class {k} is not surface (0) or sampler (1)")),
                };
                Operand::State {
                    name: self.name(name)?,
                    index,
                }
            }
            CLASS_ADDRESS | CLASS_INDIRECT => {
                return Err(Cur::err_at(
                    tag_at,
                    format!(
                        "address and indirect operands are not supported ({} address variables declared)",
                        self.syms.address_count()
                    ),
                ))
            }
            k => return Err(Cur::err_at(tag_at, format!("operand class {k} is not defined"))),
        };
        // Modifiers: abs/neg only on general sources, sat only on destinations.
        let ok = match (&op, modifier) {
            (_, 0) => true,
            (Operand::Var { .. }, 1..=3) => !dst,
            (Operand::Var { .. }, MOD_SAT) => dst,
            _ => false,
        };
        if !ok {
            return Err(Cur::err_at(
                tag_at,
                format!("operand modifier {modifier} is not supported here"),
            ));
        }
        Ok((op, modifier))
    }

    /// Region u16: vertical stride bits 0–3, width 4–7, horizontal stride
    /// 8–11, each a code of [`REGION_VALUES`]. Destinations have only `<h>`,
    /// sources all three.
    fn region(&mut self, dst: bool) -> Res<Region> {
        let at = self.c.pos;
        let r = self.c.u16("region")?;
        let code = |shift: u16| REGION_VALUES.get(usize::from((r >> shift) & 0xF)).copied();
        let (Some(v), Some(w), Some(h)) = (code(0), code(4), code(8)) else {
            return Err(Cur::err_at(
                at,
                format!("region {r:#06x} has a code above 7"),
            ));
        };
        let has_vw = r & 0xFF != 0;
        if r >> 12 != 0 || has_vw == dst || (!dst && (r & 0xF == 0 || (r >> 4) & 0xF == 0)) {
            return Err(Cur::err_at(
                at,
                format!(
                    "region {r:#06x} is not a {}",
                    if dst {
                        "destination `<h>`"
                    } else {
                        "source `<v;w,h>`"
                    }
                ),
            ));
        }
        Ok(Region {
            vw: (!dst).then_some((v, w)),
            h,
        })
    }
}

/// Decodes the whole stream into `p.body`; returns each body line's offset
/// (a subroutine entry gives two lines at one offset). Body statements get
/// the line number they have in the canonical listing.
pub(crate) fn decode(
    c: &mut Cur,
    syms: &Symbols,
    v: Version,
    dialect: Dialect,
    p: &mut Program,
) -> Res<Vec<usize>> {
    let first_line = syms.table_offsets.len() + 2;
    let mut offsets = Vec::new();
    while !c.at_end() {
        let at = c.pos;
        let op = c.u8("opcode")?;
        let mut d = Dec { c, syms, at };
        let Some((name, layout)) = lookup(op) else {
            return Err(d.err(format!("opcode {op:#04x} is not a vISA instruction")));
        };
        let items = match layout {
            Layout::Alu { srcs, pred } => vec![Item::Inst(alu(&mut d, name, srcs, pred)?)],
            Layout::Cmp => vec![Item::Inst(cmp(&mut d)?)],
            Layout::Label | Layout::Subroutine => {
                let id = d.c.u16("label id")?;
                let (label, kind) = d.name(syms.label(id))?;
                match (layout, kind) {
                    (Layout::Subroutine, _) | (_, LABEL_SUBROUTINE) => {
                        vec![Item::Function(label.clone()), Item::Label(label)]
                    }
                    (_, LABEL_BLOCK) => vec![Item::Label(label)],
                    (_, k) => return Err(d.err(format!("label kind {k} is not supported"))),
                }
            }
            Layout::Ret => {
                let exec = d.exec()?;
                let pred = d.pred()?;
                if name == "ret" {
                    vec![Item::Inst(Inst::Ret { pred, exec })]
                } else {
                    vec![unsupported(name, pred.as_ref(), &format!(" {}", print::exec(exec)))]
                }
            }
            Layout::Branch => {
                let exec = d.exec()?;
                let pred = d.pred()?;
                let id = d.c.u16("label id")?;
                let (label, _) = d.name(syms.label(id))?;
                match crate::visa::tables::BRANCH_OPS.iter().find(|b| b.0 == name) {
                    Some(&(_, kind)) => vec![Item::Inst(Inst::Branch {
                        kind,
                        pred,
                        exec,
                        label,
                    })],
                    None => vec![unsupported(
                        name,
                        pred.as_ref(),
                        &format!(" {} {label}", print::exec(exec)),
                    )],
                }
            }
            Layout::Scaled4 => vec![scaled4(&mut d, name)?],
            Layout::Sampler(class) => vec![Item::Inst(super::sampler::decode(
                &mut d, class, v, dialect,
            )?)],
            Layout::Undecoded => {
                return Err(d.err(format!(
                    "opcode {op:#04x} (`{name}`) is not decoded: its operand layout is not known here, so the stream cannot be followed past it"
                )))
            }
        };
        for item in items {
            p.body.push(Stmt {
                line: first_line + offsets.len(),
                item,
            });
            offsets.push(at);
        }
    }
    Ok(offsets)
}

/// An instruction outside the subset, as the text path keeps it: mnemonic and
/// its statement text.
fn unsupported(name: &str, pred: Option<&Pred>, rest: &str) -> Item {
    let mut text = String::new();
    if let Some(pr) = pred {
        text.push_str(&pred_text(pr));
    }
    text.push_str(name);
    text.push_str(rest);
    Item::Inst(Inst::Unsupported {
        mnemonic: name.to_string(),
        text,
    })
}

fn pred_text(p: &Pred) -> String {
    let ctrl = match p.ctrl {
        PredCtrl::None => "",
        PredCtrl::Any => ".any",
        PredCtrl::All => ".all",
    };
    format!("({}{}{ctrl}) ", if p.invert { "!" } else { "" }, p.name)
}

/// The common layout: exec, [pred], dst, sources. `mov add mul sel or shl`
/// and `movs setp` become their records, the others `Unsupported`.
fn alu(d: &mut Dec, name: &'static str, srcs: u8, has_pred: bool) -> Res<Inst> {
    let exec = d.exec()?;
    let pred = if has_pred { d.pred()? } else { None };
    let (dst, dmod) = d.vector(true)?;
    let sat = dmod == MOD_SAT;
    let mut ops = Vec::with_capacity(usize::from(srcs));
    for _ in 0..srcs {
        ops.push(d.vector(false)?.0);
    }
    match name {
        "movs" => {
            let src = ops.pop().ok_or_else(|| d.err("movs without a source"))?;
            if sat {
                return Err(d.err("`movs` takes no saturation"));
            }
            return Ok(Inst::Movs { exec, dst, src });
        }
        "setp" => {
            let (Operand::Pred(p), Some(src)) = (dst, ops.pop()) else {
                return Err(d.err("`setp` writes a predicate"));
            };
            return Ok(Inst::Setp { exec, dst: p, src });
        }
        _ => {}
    }
    if let Some(&(op, _)) = ALU_OPS.iter().find(|a| a.0 == name) {
        return Ok(Inst::Alu {
            op,
            sat,
            pred,
            exec,
            dst,
            srcs: ops,
        });
    }
    let mut rest = String::new();
    if sat {
        rest.push_str(".sat");
    }
    rest.push(' ');
    rest.push_str(&print::exec(exec));
    for o in std::iter::once(&dst).chain(&ops) {
        rest.push(' ');
        rest.push_str(&print::operand(o));
    }
    match unsupported(name, pred.as_ref(), &rest) {
        Item::Inst(i) => Ok(i),
        _ => Err(d.err("internal: unsupported instruction record")),
    }
}

/// `cmp`: exec, relation u8 (low 3 bits), dst (predicate or general), two sources.
fn cmp(d: &mut Dec) -> Res<Inst> {
    let exec = d.exec()?;
    let rel_at = d.c.pos;
    let rel = d.c.u8("cmp relation")? & 7;
    if usize::from(rel) >= RELATIONS.len() {
        return Err(Cur::err_at(
            rel_at,
            format!("cmp relation {rel} is not 0–5"),
        ));
    }
    let (dst, dmod) = d.vector(true)?;
    if dmod != 0 || matches!(dst, Operand::Imm { .. } | Operand::State { .. }) {
        return Err(d.err("`cmp` writes a predicate or a general variable"));
    }
    let srcs = [d.vector(false)?.0, d.vector(false)?.0];
    Ok(Inst::Cmp {
        rel,
        exec,
        dst,
        srcs,
    })
}

/// `scatter4_scaled` as the instruction the text frontend parses; `gather4_scaled`
/// kept as text the way IGC prints it:
/// `name.CH (exec) surface global_offset offsets data`.
fn scaled4(d: &mut Dec, name: &str) -> Res<Item> {
    let exec = d.exec()?;
    let pred = d.pred()?;
    let ch = d.c.u8("channel mask")? & 0xF;
    d.c.u16("scale")?;
    let surface = d.c.u8("surface")?;
    let surface = d.name(d.syms.surface(u16::from(surface)))?;
    let (offset, _) = d.vector(false)?;
    let offsets = d.raw("offsets")?;
    let data = d.raw("data")?;
    if name == "scatter4_scaled" {
        // The text frontend parses this one into its own instruction (it
        // executes); give the same record.
        return Ok(Item::Inst(Inst::Scatter4Scaled {
            pred,
            channels: ch,
            exec,
            surface,
            offset,
            element_offset: offsets,
            src: data,
        }));
    }
    Ok(unsupported(
        name,
        pred.as_ref(),
        &format!(
            ".{} {} {surface} {} {}.{} {}.{}",
            channels_text(ch),
            print::exec(exec),
            print::operand(&offset),
            offsets.name,
            offsets.offset,
            data.name,
            data.offset
        ),
    ))
}

fn channels_text(mask: u8) -> String {
    "RGBA"
        .chars()
        .enumerate()
        .filter(|(i, _)| mask & (1 << i) != 0)
        .map(|(_, c)| c)
        .collect()
}
