//! The canonical `.visaasm` printer. Its output parses back to the same
//! program (in the program's dialect); spacing is single, declarations come
//! before inputs, attributes and the body, and numbers are printed the way IGC
//! prints them (immediates in hex with their type).

use super::decl::{AttrValue, VarKind};
use super::inst::{Exec, Inst, Modifier, Operand, Pred, PredCtrl, Raw, Region, Sampler};
use super::tables::{SamplerClass, ALIGNS, RELATIONS};
use super::{Item, Program};
use std::fmt::Write;

/// The whole program as canonical vISA text.
pub fn program(p: &Program) -> String {
    let mut o = String::new();
    let _ = writeln!(o, ".version {}.{}", p.version.major, p.version.minor);
    let _ = writeln!(o, ".kernel \"{}\"", p.kernel);
    for d in &p.decls {
        let _ = write!(o, ".decl {} v_type={}", d.name, d.kind.letter());
        match &d.kind {
            VarKind::General {
                ty,
                num_elts,
                align,
                alias,
            } => {
                let _ = write!(o, " type={} num_elts={num_elts}", ty.name());
                if let Some(a) = align.and_then(|a| ALIGNS.get(usize::from(a))) {
                    let _ = write!(o, " align={a}");
                }
                if let Some((base, off)) = alias {
                    let _ = write!(o, " alias=<{base}, {off}>");
                }
            }
            k => {
                let _ = write!(o, " num_elts={}", k.num_elts());
            }
        }
        if let Some(v) = &d.v_name {
            let _ = write!(o, " v_name={v}");
        }
        if let Some(a) = &d.attrs {
            let _ = write!(o, " attrs={{{a}}}");
        }
        o.push('\n');
    }
    for i in &p.inputs {
        let _ = write!(o, ".input {} offset={}", i.name, i.offset);
        if let Some(s) = i.size {
            let _ = write!(o, " size={s}");
        }
        o.push('\n');
    }
    for a in &p.attrs {
        let _ = match &a.value {
            None => writeln!(o, ".kernel_attr {}", a.name),
            Some(AttrValue::Int(v)) => writeln!(o, ".kernel_attr {}={v}", a.name),
            Some(AttrValue::Str(s)) => writeln!(o, ".kernel_attr {}=\"{s}\"", a.name),
        };
    }
    for s in &p.body {
        match &s.item {
            Item::Function(f) => {
                let _ = writeln!(o, ".function \"{f}\"");
            }
            Item::Label(l) => {
                let _ = writeln!(o, "{l}:");
            }
            Item::Inst(i) => {
                let _ = writeln!(o, "    {}", inst(i, p));
            }
        }
    }
    o
}

/// One instruction in canonical text (no indentation, no newline).
pub fn inst(i: &Inst, p: &Program) -> String {
    let mut o = String::new();
    match i {
        Inst::Alu {
            op,
            sat,
            pred: pr,
            exec: e,
            dst,
            srcs,
        } => {
            pred(&mut o, pr.as_ref());
            o.push_str(op);
            if *sat {
                o.push_str(".sat");
            }
            let _ = write!(o, " {} {}", exec(*e), operand(dst));
            for s in srcs {
                let _ = write!(o, " {}", operand(s));
            }
        }
        Inst::Movs { exec: e, dst, src } => {
            let _ = write!(o, "movs {} {} {}", exec(*e), operand(dst), operand(src));
        }
        Inst::Setp { exec: e, dst, src } => {
            let _ = write!(o, "setp {} {dst} {}", exec(*e), operand(src));
        }
        Inst::Cmp {
            rel,
            exec: e,
            dst,
            srcs,
        } => {
            let r = RELATIONS.get(usize::from(*rel)).unwrap_or(&"eq");
            let _ = write!(
                o,
                "cmp.{r} {} {} {} {}",
                exec(*e),
                operand(dst),
                operand(&srcs[0]),
                operand(&srcs[1])
            );
        }
        Inst::Ret { pred: pr, exec: e } => {
            pred(&mut o, pr.as_ref());
            let _ = write!(o, "ret {}", exec(*e));
        }
        Inst::Branch {
            kind,
            pred: pr,
            exec: e,
            label,
        } => {
            pred(&mut o, pr.as_ref());
            let _ = write!(o, "{} {} {label}", kind.name(), exec(*e));
        }
        Inst::Sampler(s) => sampler(&mut o, s, p),
        Inst::Scatter4Scaled {
            pred: pr,
            channels,
            exec: e,
            surface,
            offset,
            element_offset,
            src,
        } => {
            pred(&mut o, pr.as_ref());
            let _ = write!(
                o,
                "scatter4_scaled.{} {} {surface} {} {} {}",
                channel_letters(*channels),
                exec(*e),
                operand(offset),
                raw(element_offset),
                raw(src)
            );
        }
        Inst::Unsupported { text, .. } => o.push_str(text),
    }
    o
}

fn sampler(o: &mut String, s: &Sampler, _p: &Program) {
    pred(o, s.pred.as_ref());
    o.push_str(s.op.name);
    for (on, name) in [
        (s.pixel_null_mask, "pixel_null_mask"),
        (s.cps, "cps"),
        (s.div_s, "divS"),
    ] {
        if on {
            let _ = write!(o, ".{name}");
        }
    }
    let _ = write!(o, ".{} {}", channel_letters(s.channels), exec(s.exec));
    if let Some(a) = &s.aoffimmi {
        let _ = write!(o, " {}", operand(a));
    }
    if let Some(smp) = &s.sampler {
        let _ = write!(o, " {smp}");
    }
    let _ = write!(o, " {}", s.surface);
    if s.op.class == SamplerClass::Info {
        // 3D_INFO: surface, [lod], dst (the binary field order).
        for r in &s.params {
            let _ = write!(o, " {}", raw(r));
        }
        let _ = write!(o, " {}", raw(&s.dst));
        return;
    }
    let _ = write!(o, " {}", raw(&s.dst));
    if let Some(r) = &s.paired {
        let _ = write!(o, " {}", raw(r));
    }
    for r in &s.params {
        let _ = write!(o, " {}", raw(r));
    }
}

/// `RGBA`, `GA`, …: the letters of a channel mask (bit 0 = R).
fn channel_letters(mask: u8) -> String {
    "RGBA"
        .chars()
        .enumerate()
        .filter(|(bit, _)| mask & (1 << bit) != 0)
        .map(|(_, c)| c)
        .collect()
}

fn pred(o: &mut String, p: Option<&Pred>) {
    if let Some(p) = p {
        let ctrl = match p.ctrl {
            PredCtrl::None => "",
            PredCtrl::Any => ".any",
            PredCtrl::All => ".all",
        };
        let _ = write!(o, "({}{}{ctrl}) ", if p.invert { "!" } else { "" }, p.name);
    }
}

/// `(M1, 16)`, `(M5_NM, 8)`.
pub fn exec(e: Exec) -> String {
    format!(
        "(M{}{}, {})",
        e.mask + 1,
        if e.no_mask { "_NM" } else { "" },
        e.size
    )
}

fn raw(r: &Raw) -> String {
    format!("{}.{}", r.name, r.offset)
}

/// One vector operand.
pub fn operand(op: &Operand) -> String {
    match op {
        Operand::Var {
            name,
            modifier,
            row,
            col,
            region,
        } => {
            let m = match modifier {
                Modifier::None => "",
                Modifier::Neg => "(-)",
                Modifier::Abs => "(abs)",
                Modifier::NegAbs => "(-abs)",
            };
            format!("{m}{name}({row},{col}){}", region_text(*region))
        }
        Operand::Imm { bits, ty } => format!("{bits:#x}:{}", ty.name()),
        Operand::Pred(p) => p.clone(),
        Operand::State { name, index } => format!("{name}({index})"),
    }
}

fn region_text(r: Region) -> String {
    match r.vw {
        None => format!("<{}>", r.h),
        Some((v, w)) => format!("<{v};{w},{}>", r.h),
    }
}
