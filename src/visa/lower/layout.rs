//! Where each vISA variable lives in a thread's flat GRF file
//! ([`crate::ir::visa`]): the payload (`%r0` at byte 0, every `.input` at its
//! payload offset), then `%cr0`, then the other general variables in
//! declaration order at their alignment; aliases at their base plus offset.
//! Predicates get one SGPR each.

use super::super::decl::{predefined, Predefined, VarKind};
use super::super::tables::{VisaType, ALIGNS};
use super::super::Program;
use crate::ir::visa::{ElemType, GRF_MAX_BYTES, MAX_PREDS, PRED_SGPR};
use std::collections::BTreeMap;

/// A general variable's place.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Var {
    /// GRF byte of element 0.
    pub byte: u32,
    /// Size in bytes.
    pub bytes: u32,
    /// Element type (`None`: a type that does not execute, refused on use).
    pub ty: Option<ElemType>,
    /// The vISA type.
    pub visa: VisaType,
}

/// The register layout of one program.
#[derive(Clone, Debug, Default)]
pub struct Layout {
    /// GRF bytes (32 or 64).
    pub grf: u32,
    /// General variables by name.
    pub vars: BTreeMap<String, Var>,
    /// Predicates by name → SGPR.
    pub preds: BTreeMap<String, u32>,
    /// Bytes the GRF file uses.
    pub total: u32,
}

/// The executable element type of a vISA type code (`VISA_Type`).
pub fn elem_type(t: VisaType) -> Option<ElemType> {
    Some(match t.0 {
        0 => ElemType::Ud,
        1 => ElemType::D,
        2 => ElemType::Uw,
        3 => ElemType::W,
        4 => ElemType::Ub,
        5 => ElemType::B,
        7 => ElemType::F,
        11 => ElemType::Uq,
        13 => ElemType::Q,
        14 => ElemType::Hf,
        _ => return None,
    })
}

/// Alignment in bytes of an `ALIGNS` code on a `grf`-byte GRF.
fn align_bytes(code: u8, grf: u32) -> u32 {
    match ALIGNS.get(usize::from(code)).copied() {
        Some("byte") => 1,
        Some("word") => 2,
        Some("dword") => 4,
        Some("qword") => 8,
        Some("oword") => 16,
        Some("GRF") => grf,
        Some("GRFx2") => 2 * grf,
        Some("hword") => 32,
        Some("32word") => 64,
        Some("64word") => 128,
        _ => 1,
    }
}

/// A variable gcnrun cannot place in the GRF, or a name that is no placed
/// variable: each names the variable.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum LayoutError {
    /// A payload input past the GRF file.
    #[error("input `{name}` at offset {offset} passes the {GRF_MAX_BYTES}-byte GRF file")]
    InputPastGrf {
        /// The input.
        name: String,
        /// Its byte offset.
        offset: u32,
    },
    /// An alias of a variable with no GRF place.
    #[error("`{name}` aliases `{base}`, which has no GRF place")]
    AliasUnplaced {
        /// The alias.
        name: String,
        /// The variable it aliases.
        base: String,
    },
    /// An alias that does not fit inside its base.
    #[error("`{name}` ({bytes} bytes at offset {offset}) does not fit inside `{base}` ({base_bytes} bytes)")]
    AliasTooLarge {
        /// The alias.
        name: String,
        /// Its size.
        bytes: u32,
        /// Its offset in the base.
        offset: u32,
        /// The base.
        base: String,
        /// The base's size.
        base_bytes: u32,
    },
    /// Variables past the GRF file.
    #[error("`{name}` does not fit: the variables pass the {GRF_MAX_BYTES}-byte GRF file")]
    GrfFull {
        /// The first variable that does not fit.
        name: String,
    },
    /// More predicates than gcnrun models.
    #[error("`{name}`: more than {MAX_PREDS} predicates are not modelled")]
    Predicates {
        /// The first predicate past the limit.
        name: String,
    },
    /// A predefined variable gcnrun does not model.
    #[error("the predefined variable `{name}` is not modelled (only %r0, %cr0 and %null are)")]
    Predefined {
        /// The name.
        name: String,
    },
    /// A name that is no general variable.
    #[error("`{name}` is not a general variable")]
    NotGeneral {
        /// The name.
        name: String,
    },
}

/// Lays out `prog`'s variables for a `grf`-byte GRF. Errors name the variable.
pub fn layout(prog: &Program, grf: u32) -> Result<Layout, LayoutError> {
    let mut l = Layout {
        grf,
        ..Layout::default()
    };
    let ud = VisaType(0);
    l.vars.insert(
        "%r0".into(),
        Var {
            byte: 0,
            bytes: grf,
            ty: Some(ElemType::Ud),
            visa: ud,
        },
    );
    // The payload: every general input at its offset.
    let mut end = u64::from(grf);
    for inp in &prog.inputs {
        let Some(d) = prog.decls.iter().find(|d| d.name == inp.name) else {
            continue;
        };
        let VarKind::General { ty, .. } = d.kind else {
            continue;
        };
        let bytes = d.kind.bytes();
        let stop = u64::from(inp.offset) + u64::from(bytes);
        if stop > u64::from(GRF_MAX_BYTES) {
            return Err(LayoutError::InputPastGrf {
                name: inp.name.clone(),
                offset: inp.offset,
            });
        }
        end = end.max(stop);
        l.vars.insert(
            d.name.clone(),
            Var {
                byte: inp.offset,
                bytes,
                ty: elem_type(ty),
                visa: ty,
            },
        );
    }
    let mut next = (end as u32).next_multiple_of(grf);
    l.vars.insert(
        "%cr0".into(),
        Var {
            byte: next,
            bytes: 4,
            ty: Some(ElemType::Ud),
            visa: ud,
        },
    );
    next += grf;
    let mut npred = 0;
    for d in &prog.decls {
        match &d.kind {
            VarKind::General {
                ty, align, alias, ..
            } => {
                if l.vars.contains_key(&d.name) {
                    continue;
                }
                let bytes = d.kind.bytes();
                let byte = match alias {
                    Some((base, off)) => {
                        let b = l.vars.get(base).ok_or_else(|| LayoutError::AliasUnplaced {
                            name: d.name.clone(),
                            base: base.clone(),
                        })?;
                        // The parser checks aliases of declared bases; a
                        // predefined base (`%r0`) is sized only here.
                        if u64::from(*off) + u64::from(bytes) > u64::from(b.bytes) {
                            return Err(LayoutError::AliasTooLarge {
                                name: d.name.clone(),
                                bytes,
                                offset: *off,
                                base: base.clone(),
                                base_bytes: b.bytes,
                            });
                        }
                        b.byte + off
                    }
                    None => {
                        let a = align
                            .map(|c| align_bytes(c, grf))
                            .unwrap_or(1)
                            .max(ty.bytes());
                        let at = u64::from(next).next_multiple_of(u64::from(a));
                        if at + u64::from(bytes) > u64::from(GRF_MAX_BYTES) {
                            return Err(LayoutError::GrfFull {
                                name: d.name.clone(),
                            });
                        }
                        next = (at + u64::from(bytes)) as u32;
                        at as u32
                    }
                };
                l.vars.insert(
                    d.name.clone(),
                    Var {
                        byte,
                        bytes,
                        ty: elem_type(*ty),
                        visa: *ty,
                    },
                );
            }
            VarKind::Predicate { .. } => {
                if npred >= MAX_PREDS {
                    return Err(LayoutError::Predicates {
                        name: d.name.clone(),
                    });
                }
                l.preds.insert(d.name.clone(), PRED_SGPR + npred);
                npred += 1;
            }
            _ => {}
        }
    }
    l.total = next;
    Ok(l)
}

impl Layout {
    /// The variable a name denotes; `%null` and unmodelled predefined names
    /// are `Err` with the reason.
    pub fn var(&self, name: &str) -> Result<Var, LayoutError> {
        if let Some(v) = self.vars.get(name) {
            return Ok(*v);
        }
        let name = name.to_string();
        match predefined(&name) {
            Some(Predefined::General) => Err(LayoutError::Predefined { name }),
            _ => Err(LayoutError::NotGeneral { name }),
        }
    }
}
