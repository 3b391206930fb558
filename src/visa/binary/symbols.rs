//! The kernel object's tables: string pool, variables, addresses,
//! predicates, labels, samplers, surfaces, inputs and attributes (research
//! notes §1.3, IGC `ByteCodeReaderNG.cpp`), and the id → name tables the
//! instruction stream needs.

use super::attrs::{attribute, kernel_attr_value, var_attrs};
use super::cursor::{Cur, Res};
use super::header::{at_least, Header};
use crate::visa::decl::{PREDEFINED_GENERAL, PREDEFINED_SURFACES};
use crate::visa::tables::{VisaType, ALIGNS};
use crate::visa::{Decl, Dialect, Input, KernelAttr, Program, VarKind, Version};

/// General variable ids below this are predefined (`%null` … `%msg0`, then
/// reserved); user variable k has id 32 + k.
pub(crate) const FIRST_USER_VAR: u32 = 32;
/// Surface ids below this are predefined (`%slm` … `%scratch`).
const FIRST_USER_SURFACE: usize = 6;
/// The bindless sampler `S31`, predefined.
const BINDLESS_SAMPLER: u8 = 31;

/// Id → text-name tables for the instruction stream, and the file offsets of
/// the table lines in print order.
pub(crate) struct Symbols {
    general: Vec<String>,
    predicates: usize,
    addresses: usize,
    labels: Vec<(String, u8)>,
    samplers: usize,
    surfaces: usize,
    /// Offsets of the `.kernel`, `.decl`, `.input`, `.kernel_attr` lines.
    pub(crate) table_offsets: Vec<usize>,
}

impl Symbols {
    /// The name of general variable `id` (predefined or declared).
    pub(crate) fn general(&self, id: u32) -> Result<String, String> {
        if let Some(n) = PREDEFINED_GENERAL.get(id as usize) {
            return Ok((*n).to_string());
        }
        if id < FIRST_USER_VAR {
            return Err(format!("general variable id {id} is reserved"));
        }
        self.general
            .get((id - FIRST_USER_VAR) as usize)
            .cloned()
            .ok_or_else(|| {
                format!(
                    "general variable id {id} is not declared ({} variables)",
                    self.general.len()
                )
            })
    }

    /// `P<id>`; P0 means "no predicate" and is not a variable.
    pub(crate) fn predicate(&self, id: u16) -> Result<String, String> {
        if id == 0 || usize::from(id) > self.predicates {
            return Err(format!(
                "predicate id {id} is not declared ({} predicates, from P1)",
                self.predicates
            ));
        }
        Ok(format!("P{id}"))
    }

    /// `S<index>`, including the predefined bindless `S31`.
    pub(crate) fn sampler(&self, index: u16) -> Result<String, String> {
        if usize::from(index) < self.samplers || index == u16::from(BINDLESS_SAMPLER) {
            Ok(format!("S{index}"))
        } else {
            Err(format!(
                "sampler S{index} is not declared ({} samplers)",
                self.samplers
            ))
        }
    }

    /// A surface by id: the predefined names for 0–5, `T<id>` after.
    pub(crate) fn surface(&self, id: u16) -> Result<String, String> {
        let i = usize::from(id);
        if let Some(n) = PREDEFINED_SURFACES.get(i) {
            Ok((*n).to_string())
        } else if i < FIRST_USER_SURFACE + self.surfaces {
            Ok(format!("T{id}"))
        } else {
            Err(format!(
                "surface T{id} is not declared ({} surfaces, from T6)",
                self.surfaces
            ))
        }
    }

    /// The label names in id order.
    pub(crate) fn label_names(&self) -> Vec<String> {
        self.labels.iter().map(|l| l.0.clone()).collect()
    }

    /// A label's name and kind (0 block, 1 subroutine, …).
    pub(crate) fn label(&self, id: u16) -> Result<(String, u8), String> {
        self.labels.get(usize::from(id)).cloned().ok_or_else(|| {
            format!(
                "label id {id} is not declared ({} labels)",
                self.labels.len()
            )
        })
    }

    /// Address variables are declared (`A<n>`) but no decoded instruction
    /// uses them; kept for the error message.
    pub(crate) fn address_count(&self) -> usize {
        self.addresses
    }
}

/// The string pool.
pub(crate) struct Pool<'a> {
    pub(crate) strings: Vec<&'a str>,
}

impl<'a> Pool<'a> {
    fn get(&self, index: u32, at: usize, what: &str) -> Res<&'a str> {
        self.strings.get(index as usize).copied().ok_or_else(|| {
            Cur::err_at(
                at,
                format!(
                    "{what} names string {index}, but the pool has {}",
                    self.strings.len()
                ),
            )
        })
    }

    /// A string-pool index field and the string it names.
    pub(crate) fn name(&self, c: &mut Cur, what: &str) -> Res<&'a str> {
        let at = c.pos;
        let i = c.u32(what)?;
        self.get(i, at, what)
    }
}

/// The kernel object (§1.3): the program's declarations, inputs and
/// attributes, the symbol tables, and the instruction stream's file range.
pub(crate) fn kernel(bytes: &[u8], h: &Header, v: Version) -> Res<(Program, Symbols, Stream)> {
    let obj = h.offset;
    let obj_end = h.offset + h.size;
    let mut c = Cur::range(bytes, obj, obj_end);
    let mut offsets = vec![h.name_at];

    let at = c.pos;
    let n = u64::from(c.u32("string count")?);
    // Each string is at least its NUL.
    let n = c.count(n, 1, at, "string")?;
    let mut strings = Vec::with_capacity(n);
    for i in 0..n {
        strings.push(c.cstr(&format!("string {i}"))?);
    }
    let pool = Pool { strings };
    let at = c.pos;
    let kname = pool.name(&mut c, "kernel name index")?;
    if kname != h.name {
        return Err(Cur::err_at(
            at,
            format!(
                "the kernel object is named `{kname}`, the header says `{}`",
                h.name
            ),
        ));
    }

    let mut decls = Vec::new();
    let mut general = Vec::new();

    // General variables: name u32, type/align u8, elements u16, alias id u32,
    // alias offset u16, alias scope u8, attribute count u8 (15 bytes + attrs).
    let at = c.pos;
    let n = u64::from(c.u32("variable count")?);
    let n = c.count(n, 15, at, "variable")?;
    for k in 0..n {
        let at = c.pos;
        let name = pool.name(&mut c, "variable name index")?.to_string();
        let props_at = c.pos;
        let props = c.u8("variable type/alignment")?;
        let ty = VisaType::from_code(props & 0xF).ok_or_else(|| {
            Cur::err_at(props_at, format!("type code {} is unknown", props & 0xF))
        })?;
        let align = props >> 4;
        if usize::from(align) >= ALIGNS.len() {
            return Err(Cur::err_at(
                props_at,
                format!("alignment code {align} is unknown"),
            ));
        }
        let num_elts = u32::from(c.u16("variable element count")?);
        let alias_at = c.pos;
        let alias_id = c.u32("alias id")?;
        let alias_off = u32::from(c.u16("alias offset")?);
        let scope_at = c.pos;
        if c.u8("alias scope")? != 0 {
            return Err(Cur::err_at(scope_at, "alias scope must be 0"));
        }
        let attrs = var_attrs(&mut c, &pool)?;
        let alias = if alias_id == 0 {
            None
        } else {
            // The base must be predefined or declared earlier (ids 32..32+k).
            let base = if alias_id < FIRST_USER_VAR {
                PREDEFINED_GENERAL
                    .get(alias_id as usize)
                    .map(|s| s.to_string())
            } else {
                general.get((alias_id - FIRST_USER_VAR) as usize).cloned()
            };
            Some((
                base.ok_or_else(|| {
                    Cur::err_at(
                        alias_at,
                        format!(
                            "alias base id {alias_id} is not a variable declared before `{name}` (id {})",
                            FIRST_USER_VAR as usize + k
                        ),
                    )
                })?,
                alias_off,
            ))
        };
        general.push(name.clone());
        offsets.push(at);
        decls.push(Decl {
            name,
            kind: VarKind::General {
                ty,
                num_elts,
                align: Some(align),
                alias,
            },
            v_name: None,
            attrs,
        });
    }

    // Addresses: name u32, elements u16, attribute count u8 (7 bytes + attrs).
    let at = c.pos;
    let n = u64::from(c.u16("address count")?);
    let addresses = c.count(n, 7, at, "address variable")?;
    for i in 0..addresses {
        let at = c.pos;
        pool.name(&mut c, "address name index")?;
        let num_elts = u32::from(c.u16("address element count")?);
        let attrs = var_attrs(&mut c, &pool)?;
        offsets.push(at);
        decls.push(Decl {
            name: format!("A{i}"),
            kind: VarKind::Address { num_elts },
            v_name: None,
            attrs,
        });
    }

    // Predicates, from P1 (P0 is "no predicate").
    let at = c.pos;
    let n = u64::from(c.u16("predicate count")?);
    let predicates = c.count(n, 7, at, "predicate")?;
    for i in 0..predicates {
        let at = c.pos;
        pool.name(&mut c, "predicate name index")?;
        let num_elts = u32::from(c.u16("predicate element count")?);
        let attrs = var_attrs(&mut c, &pool)?;
        offsets.push(at);
        decls.push(Decl {
            name: format!("P{}", i + 1),
            kind: VarKind::Predicate { num_elts },
            v_name: None,
            attrs,
        });
    }

    // Labels: name u32, kind u8, attribute count u8 (6 bytes + attrs).
    let at = c.pos;
    let n = u64::from(c.u16("label count")?);
    let n = c.count(n, 6, at, "label")?;
    let mut labels = Vec::with_capacity(n);
    for _ in 0..n {
        let name = pool.name(&mut c, "label name index")?.to_string();
        let kind = c.u8("label kind")?;
        let at = c.pos;
        if c.u8("label attribute count")? != 0 {
            return Err(Cur::err_at(at, "label attributes are not supported"));
        }
        labels.push((name, kind));
    }

    // Samplers and surfaces: name u32, elements u16, attribute count u8.
    let samplers = state_table(&mut c, &pool, 'S', &mut offsets, &mut decls)?;
    let surfaces = state_table(&mut c, &pool, 'T', &mut offsets, &mut decls)?;
    let at = c.pos;
    if c.u8("VME count")? != 0 {
        return Err(Cur::err_at(at, "VME variables are not supported"));
    }

    let syms = Symbols {
        general,
        predicates,
        addresses,
        labels,
        samplers,
        surfaces,
        table_offsets: Vec::new(),
    };

    // Inputs: kind u8, index u32, offset i16, size u16 (9 bytes each).
    let at = c.pos;
    if at != h.input_offset {
        return Err(Cur::err_at(
            at,
            format!(
                "the inputs are at {at:#x}, the header says {:#x}",
                h.input_offset
            ),
        ));
    }
    let n = if at_least(v, 3, 5) {
        u64::from(c.u32("input count")?)
    } else {
        u64::from(c.u8("input count")?)
    };
    let n = c.count(n, 9, at, "input")?;
    let mut inputs = Vec::with_capacity(n);
    for _ in 0..n {
        let at = c.pos;
        let kind = c.u8("input kind")?;
        let index = c.u32("input index")?;
        let offset = c.i16("input offset")?;
        let size = c.u16("input size")?;
        if kind >> 3 != 0 {
            return Err(Cur::err_at(
                at,
                format!(
                    "implicit input kind {} is not supported (only explicit `.input`s)",
                    kind >> 3
                ),
            ));
        }
        let name = match kind & 7 {
            0 => syms.general(index),
            1 => u16::try_from(index)
                .map_err(|_| format!("sampler index {index} is out of range"))
                .and_then(|i| syms.sampler(i)),
            2 => u16::try_from(index)
                .map_err(|_| format!("surface index {index} is out of range"))
                .and_then(|i| syms.surface(i)),
            k => Err(format!(
                "input class {k} is not general, sampler or surface"
            )),
        }
        .map_err(|m| Cur::err_at(at, m))?;
        let offset = u32::try_from(offset)
            .map_err(|_| Cur::err_at(at, format!("input offset {offset} is negative")))?;
        offsets.push(at);
        inputs.push(Input {
            name,
            offset,
            size: Some(u32::from(size)),
        });
    }

    let size_at = c.pos;
    let size = c.u32("instruction stream size")? as usize;
    let entry_at = c.pos;
    let entry = c.u32("instruction stream entry")? as usize;

    let at = c.pos;
    let n = u64::from(c.u16("kernel attribute count")?);
    let n = c.count(n, 5, at, "kernel attribute")?;
    let mut attrs = Vec::with_capacity(n);
    for _ in 0..n {
        let at = c.pos;
        let (name, value) = attribute(&mut c, &pool)?;
        offsets.push(at);
        attrs.push(KernelAttr {
            value: kernel_attr_value(&name, value).map_err(|m| Cur::err_at(at, m))?,
            name,
        });
    }

    // The stream must lie inside the kernel object, after its tables.
    let start = obj.checked_add(entry);
    let end = start.and_then(|s| s.checked_add(size));
    let (Some(start), Some(end)) = (start, end) else {
        return Err(Cur::err_at(entry_at, "instruction stream offset overflows"));
    };
    if start < c.pos || end > obj_end {
        return Err(Cur::err_at(
            entry_at,
            format!(
                "instruction stream {start:#x}..{end:#x} is not inside the kernel object after its tables ({:#x}..{obj_end:#x})",
                c.pos
            ),
        ));
    }

    let program = Program {
        version: v,
        kernel: h.name.clone(),
        dialect: Dialect::V41_2022,
        decls,
        inputs,
        attrs,
        body: Vec::new(),
    };
    let syms = Symbols {
        table_offsets: offsets,
        ..syms
    };
    Ok((
        program,
        syms,
        Stream {
            start,
            end,
            size_at,
        },
    ))
}

/// Where the instruction stream is: its file range and the offset of its
/// size field.
pub(crate) struct Stream {
    pub(crate) start: usize,
    pub(crate) end: usize,
    pub(crate) size_at: usize,
}

/// The sampler (`letter` S, ids from 0) or surface (T, ids from 6) table:
/// declarations named by id, the string-pool name kept as `v_name` (as IGC
/// prints them). Returns the count.
fn state_table<'a>(
    c: &mut Cur<'a>,
    pool: &Pool<'a>,
    letter: char,
    offsets: &mut Vec<usize>,
    decls: &mut Vec<Decl>,
) -> Res<usize> {
    let (what, first) = if letter == 'S' {
        ("sampler", 0)
    } else {
        ("surface", FIRST_USER_SURFACE)
    };
    let at = c.pos;
    let n = u64::from(c.u8(&format!("{what} count"))?);
    let n = c.count(n, 7, at, what)?;
    for i in 0..n {
        let at = c.pos;
        let v_name = pool.name(c, &format!("{what} name index"))?.to_string();
        let num_elts = u32::from(c.u16(&format!("{what} element count"))?);
        let attrs = var_attrs(c, pool)?;
        offsets.push(at);
        decls.push(Decl {
            name: format!("{letter}{}", first + i),
            kind: if letter == 'S' {
                VarKind::Sampler { num_elts }
            } else {
                VarKind::Surface { num_elts }
            },
            v_name: Some(v_name),
            attrs,
        });
    }
    Ok(n)
}
