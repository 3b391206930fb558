//! The `.visaasm` statement parser and its checks (declared names, operand
//! bounds, exec sizes). docs/visa.md lists the grammar.

use super::decl::{predefined, AttrValue, Decl, Input, KernelAttr, Predefined, VarKind};
use super::inst::{
    BranchKind, Exec, Inst, Modifier, Operand, Pred, PredCtrl, Raw, Region, Sampler,
};
use super::lexer::{lex, Tok, Token};
use super::tables::{self, SamplerClass, VisaType, ALIGNS, ALU_OPS, KNOWN_UNSUPPORTED, RELATIONS};
use super::{Dialect, DialectChoice, Item, Program, Stmt, Version, VisaError, VisaErrorKind};
use std::collections::{HashMap, HashSet};

/// Bytes per GRF row used for bounds checks. Row offsets and the sampler
/// result layout depend on the platform's GRF size (32 or 64 bytes); checking
/// against the smaller one accepts every program that fits on some platform
/// (the IGC dumps in the corpus are for 32-byte TGLLP). An executor that
/// targets 64-byte GRFs must check again.
const GRF_BYTES: u64 = 32;

/// The largest `num_elts` (the binary field is a u16).
const MAX_ELTS: u32 = u16::MAX as u32;

/// The parser's refusals, in its words: [`parse`] gives them their line as a
/// [`VisaError`] of kind [`VisaErrorKind::Syntax`].
type Res<T> = Result<T, String>;

/// Parses one kernel of `.visaasm` text.
pub fn parse(text: &str, dialect: DialectChoice) -> Result<Program, VisaError> {
    let mut p = Parser {
        prog: Program {
            version: Version { major: 0, minor: 0 },
            kernel: String::new(),
            dialect: Dialect::V41_2022,
            decls: Vec::new(),
            inputs: Vec::new(),
            attrs: Vec::new(),
            body: Vec::new(),
        },
        names: HashMap::new(),
        seen_version: false,
        seen_kernel: false,
        pending: Vec::new(),
    };
    let mut last_line = 0;
    for (i, line) in text.lines().enumerate() {
        last_line = i + 1;
        let toks = lex(line).map_err(|e| VisaError::new(i + 1, e))?;
        p.line(line, &toks, i + 1)
            .map_err(|m| VisaError::new(i + 1, VisaErrorKind::Syntax(m)))?;
    }
    if !p.seen_kernel {
        return Err(VisaError::new(
            last_line.max(1),
            VisaErrorKind::Syntax("no `.kernel` statement".into()),
        ));
    }
    p.finish(dialect)?;
    Ok(p.prog)
}

/// A sampler instruction whose raw operands after the destination wait for
/// the dialect: `body` index and the operands.
struct Pending {
    index: usize,
    after_dst: Vec<Raw>,
}

struct Parser {
    prog: Program,
    /// Declared name → index in `prog.decls`.
    names: HashMap<String, usize>,
    seen_version: bool,
    seen_kernel: bool,
    pending: Vec<Pending>,
}

/// A cursor over one line's tokens.
struct Cur<'a> {
    line: &'a str,
    toks: &'a [Token],
    pos: usize,
}

impl<'a> Cur<'a> {
    fn peek(&self) -> Option<&'a Tok> {
        self.toks.get(self.pos).map(|t| &t.tok)
    }
    fn peek2(&self) -> Option<&'a Tok> {
        self.toks.get(self.pos + 1).map(|t| &t.tok)
    }
    fn at_end(&self) -> bool {
        self.pos >= self.toks.len()
    }
    fn is_punct(&self, c: char) -> bool {
        self.peek() == Some(&Tok::Punct(c))
    }
    fn eat(&mut self, c: char) -> bool {
        let hit = self.is_punct(c);
        if hit {
            self.pos += 1;
        }
        hit
    }
    fn expect(&mut self, c: char, what: &str) -> Res<()> {
        if self.eat(c) {
            Ok(())
        } else {
            Err(format!("expected `{c}` {what}, found {}", self.describe()))
        }
    }
    fn word(&mut self, what: &str) -> Res<&'a str> {
        match self.peek() {
            Some(Tok::Word(w)) => {
                self.pos += 1;
                Ok(w)
            }
            _ => Err(format!("expected {what}, found {}", self.describe())),
        }
    }
    fn string(&mut self, what: &str) -> Res<&'a str> {
        match self.peek() {
            Some(Tok::Str(s)) => {
                self.pos += 1;
                Ok(s)
            }
            _ => Err(format!(
                "expected {what} in quotes, found {}",
                self.describe()
            )),
        }
    }
    fn number(&mut self, what: &str) -> Res<u64> {
        let w = self.word(what)?;
        number(w).ok_or_else(|| format!("`{w}` is not a number ({what})"))
    }
    fn u32(&mut self, what: &str) -> Res<u32> {
        let n = self.number(what)?;
        u32::try_from(n).map_err(|_| format!("{what} {n} is too large"))
    }
    fn describe(&self) -> String {
        match self.peek() {
            None => "the end of the line".into(),
            Some(Tok::Word(w)) => format!("`{w}`"),
            Some(Tok::Str(s)) => format!("\"{s}\""),
            Some(Tok::Punct(c)) => format!("`{c}`"),
        }
    }
    /// The source text from token `from` to the current position.
    fn text_from(&self, from: usize) -> &'a str {
        let (Some(a), Some(b)) = (
            self.toks.get(from),
            self.toks.get(self.pos.max(from + 1) - 1),
        ) else {
            return "";
        };
        self.line.get(a.start..b.end).unwrap_or("")
    }
}

/// A decimal or `0x` hexadecimal number.
fn number(w: &str) -> Option<u64> {
    match w.strip_prefix("0x").or_else(|| w.strip_prefix("0X")) {
        Some(hex) => u64::from_str_radix(hex, 16).ok(),
        None if w.bytes().all(|b| b.is_ascii_digit()) => w.parse().ok(),
        None => None,
    }
}

/// A raw operand `Name.byteoffset`.
fn raw_operand(c: &mut Cur) -> Res<Raw> {
    let name = c.word("a raw operand `Name.offset`")?.to_string();
    c.expect(
        '.',
        &format!("after `{name}` (raw operands are `Name.byteoffset`)"),
    )?;
    let offset = c.u32("a byte offset")?;
    Ok(Raw { name, offset })
}

impl Parser {
    fn line(&mut self, line: &str, toks: &[Token], n: usize) -> Res<()> {
        let mut c = Cur { line, toks, pos: 0 };
        while !c.at_end() {
            let attr = self.statement(&mut c, n)?;
            // GenX_IR prints the first instruction on the line of the last
            // `.kernel_attr` (see the round-trip sample), so a statement may
            // follow a kernel attribute; anything else must end the line.
            if !attr && !c.at_end() {
                return Err(format!("unexpected {} after the statement", c.describe()));
            }
        }
        Ok(())
    }

    /// Parses one statement; true if it was a `.kernel_attr`.
    fn statement(&mut self, c: &mut Cur, n: usize) -> Res<bool> {
        if c.is_punct('.') {
            c.pos += 1;
            let d = c.word("a directive name")?;
            if d != "version" && !self.seen_version {
                return Err("`.version` must be the first statement".into());
            }
            if !matches!(d, "version" | "kernel") && !self.seen_kernel {
                return Err(format!("`.{d}` before `.kernel`"));
            }
            match d {
                "version" => self.version(c)?,
                "kernel" => self.kernel(c)?,
                "decl" => self.decl(c)?,
                "input" => self.input(c)?,
                "kernel_attr" => {
                    self.kernel_attr(c)?;
                    return Ok(true);
                }
                "function" => {
                    let name = c.string("a function name")?.to_string();
                    self.push(n, Item::Function(name));
                }
                _ => return Err(format!("directive `.{d}` is not supported")),
            }
            return Ok(false);
        }
        if !self.seen_kernel {
            return Err("instructions before `.kernel`".into());
        }
        if let (Some(Tok::Word(w)), Some(Tok::Punct(':'))) = (c.peek(), c.peek2()) {
            c.pos += 2;
            if self.names.contains_key(w.as_str()) {
                return Err(format!("label `{w}` has the name of a variable"));
            }
            self.push(n, Item::Label(w.clone()));
            return Ok(false);
        }
        self.instruction(c, n)?;
        Ok(false)
    }

    fn push(&mut self, line: usize, item: Item) {
        self.prog.body.push(Stmt { line, item });
    }

    fn version(&mut self, c: &mut Cur) -> Res<()> {
        if self.seen_version {
            return Err("a second `.version`".into());
        }
        let major = c.number("the major version")?;
        c.expect('.', "between major and minor version")?;
        let minor = c.number("the minor version")?;
        let (Ok(major), Ok(minor)) = (u8::try_from(major), u8::try_from(minor)) else {
            return Err(format!("version {major}.{minor} is out of range"));
        };
        // The binary reader refuses majors below 3; 4.2 and later are text-only
        // current IGC, which this parser also reads.
        if !(3..=4).contains(&major) {
            return Err(format!(
                "vISA version {major}.{minor} is not supported (3.x–4.x)"
            ));
        }
        self.prog.version = Version { major, minor };
        self.seen_version = true;
        Ok(())
    }

    fn kernel(&mut self, c: &mut Cur) -> Res<()> {
        if self.seen_kernel {
            return Err("a second `.kernel`: one kernel per file".into());
        }
        self.prog.kernel = c.string("the kernel name")?.to_string();
        self.seen_kernel = true;
        Ok(())
    }

    /// `key=` of a declaration.
    fn key<'a>(c: &mut Cur<'a>) -> Res<&'a str> {
        let k = c.word("a `key=value`")?;
        c.expect('=', &format!("after `{k}`"))?;
        Ok(k)
    }

    fn decl(&mut self, c: &mut Cur) -> Res<()> {
        let name = c.word("a variable name")?.to_string();
        if predefined(&name).is_some() {
            return Err(format!("`{name}` is predefined and cannot be declared"));
        }
        if self.names.contains_key(&name) {
            return Err(format!("`{name}` is declared twice"));
        }
        let (mut v_type, mut ty, mut num, mut align, mut alias, mut v_name, mut attrs) =
            (None, None, None, None, None, None, None);
        while !c.at_end() {
            let k = Self::key(c)?;
            match k {
                "v_type" => v_type = Some(c.word("G, A, P, S or T")?),
                "type" => {
                    let t = c.word("a type")?;
                    ty = Some(VisaType::from_name(t).ok_or_else(|| format!("unknown type `{t}`"))?);
                }
                "num_elts" => {
                    let n = c.u32("num_elts")?;
                    if n == 0 || n > MAX_ELTS {
                        return Err(format!("num_elts={n} is outside 1..={MAX_ELTS}"));
                    }
                    num = Some(n);
                }
                "align" => {
                    let a = c.word("an alignment")?;
                    let i = ALIGNS
                        .iter()
                        .position(|x| x.eq_ignore_ascii_case(a))
                        .ok_or_else(|| format!("unknown alignment `{a}`"))?;
                    align = Some(i as u8);
                }
                "alias" => {
                    c.expect('<', "to open alias=<base, offset>")?;
                    let base = c.word("the alias base")?.to_string();
                    c.expect(',', "in alias=<base, offset>")?;
                    let off = c.u32("the alias offset")?;
                    c.expect('>', "to close alias=<base, offset>")?;
                    alias = Some((base, off));
                }
                "v_name" => v_name = Some(c.word("a name")?.to_string()),
                "attrs" => {
                    c.expect('{', "to open attrs={...}")?;
                    let from = c.pos;
                    while !c.is_punct('}') {
                        if c.at_end() {
                            return Err("unterminated attrs={...}".into());
                        }
                        c.pos += 1;
                    }
                    let text = if c.pos > from { c.text_from(from) } else { "" };
                    attrs = Some(text.to_string());
                    c.pos += 1;
                }
                _ => return Err(format!("unknown `.decl` key `{k}`")),
            }
        }
        let v_type = v_type.ok_or("`.decl` without v_type=")?;
        let num_elts = num.ok_or("`.decl` without num_elts=")?;
        let kind = match v_type {
            "G" => VarKind::General {
                ty: ty.ok_or("a G variable needs type=")?,
                num_elts,
                align,
                alias,
            },
            "A" => VarKind::Address { num_elts },
            "P" => {
                if ![1, 2, 4, 8, 16, 32].contains(&num_elts) {
                    return Err(format!(
                        "predicate num_elts={num_elts} is not 1, 2, 4, 8, 16 or 32"
                    ));
                }
                VarKind::Predicate { num_elts }
            }
            "S" => VarKind::Sampler { num_elts },
            "T" => VarKind::Surface { num_elts },
            other => return Err(format!("unknown v_type `{other}` (G, A, P, S or T)")),
        };
        if !matches!(kind, VarKind::General { .. }) && (ty.is_some() || align.is_some()) {
            return Err(format!(
                "type= and align= belong to G variables, not v_type={v_type}"
            ));
        }
        if let VarKind::General {
            alias: Some((base, off)),
            ..
        } = &kind
        {
            match (predefined(base), self.names.get(base)) {
                (Some(Predefined::General), _) => {}
                (_, Some(&i)) => {
                    let b = &self.prog.decls[i].kind;
                    if !matches!(b, VarKind::General { .. }) {
                        return Err(format!("alias base `{base}` is not a G variable"));
                    }
                    if u64::from(*off) + u64::from(kind.bytes()) > u64::from(b.bytes()) {
                        return Err(format!(
                            "alias of {} bytes at offset {off} does not fit in `{base}` ({} bytes)",
                            kind.bytes(),
                            b.bytes()
                        ));
                    }
                }
                _ => return Err(format!("alias base `{base}` is not declared")),
            }
        }
        self.names.insert(name.clone(), self.prog.decls.len());
        self.prog.decls.push(Decl {
            name,
            kind,
            v_name,
            attrs,
        });
        Ok(())
    }

    fn input(&mut self, c: &mut Cur) -> Res<()> {
        let name = c.word("a variable name")?.to_string();
        let kind = self.kind_of(&name)?;
        if matches!(kind, VarKind::Address { .. } | VarKind::Predicate { .. }) {
            return Err(format!(
                "`{name}` is a v_type={} variable and cannot be an input",
                kind.letter()
            ));
        }
        let (mut offset, mut size) = (None, None);
        while !c.at_end() {
            match Self::key(c)? {
                "offset" => offset = Some(c.u32("the input offset")?),
                "size" => size = Some(c.u32("the input size")?),
                k => return Err(format!("unknown `.input` key `{k}`")),
            }
        }
        let offset = offset.ok_or("`.input` without offset=")?;
        if let Some(s) = size {
            if s == 0 || s > kind.bytes() {
                return Err(format!(
                    "input size {s} is not within 1..={} (`{name}`'s size)",
                    kind.bytes()
                ));
            }
        }
        self.prog.inputs.push(Input { name, offset, size });
        Ok(())
    }

    fn kernel_attr(&mut self, c: &mut Cur) -> Res<()> {
        let name = c.word("an attribute name")?.to_string();
        let value = if c.eat('=') {
            Some(match c.peek() {
                Some(Tok::Str(_)) => AttrValue::Str(c.string("a value")?.to_string()),
                _ => {
                    let neg = c.eat('-');
                    let n = c.number("an attribute value")?;
                    let v = i64::try_from(n)
                        .map_err(|_| format!("attribute value {n} is too large"))?;
                    AttrValue::Int(if neg { -v } else { v })
                }
            })
        } else {
            None
        };
        self.prog.attrs.push(KernelAttr { name, value });
        Ok(())
    }

    /// The kind of a declared variable; predefined ones are not in the table.
    fn kind_of(&self, name: &str) -> Res<&VarKind> {
        self.names
            .get(name)
            .map(|&i| &self.prog.decls[i].kind)
            .ok_or_else(|| format!("`{name}` is not declared"))
    }

    fn instruction(&mut self, c: &mut Cur, n: usize) -> Res<()> {
        let start = c.pos;
        let pred = if c.is_punct('(') {
            Some(self.pred(c)?)
        } else {
            None
        };
        let head = c.word("an instruction")?;
        let mut suffixes = Vec::new();
        while c.eat('.') {
            suffixes.push(c.word("a mnemonic suffix")?);
        }
        let inst = if let Some(&(op, nsrc)) = ALU_OPS.iter().find(|a| a.0 == head) {
            let sat = match suffixes.as_slice() {
                [] => false,
                ["sat"] => true,
                _ => {
                    return Err(format!(
                        "`{head}` takes only `.sat`, not `.{}`",
                        suffixes.join(".")
                    ))
                }
            };
            let exec = self.exec(c)?;
            let dst = self.operand(c, true, exec)?;
            if !matches!(dst, Operand::Var { .. }) {
                return Err(format!("`{head}` writes a general variable"));
            }
            let mut srcs = Vec::new();
            for _ in 0..nsrc {
                srcs.push(self.source(c, exec)?);
            }
            Inst::Alu {
                op,
                sat,
                pred,
                exec,
                dst,
                srcs,
            }
        } else if let Some(op) = tables::sub_op(head) {
            let mut smp = self.sampler(c, op, pred, &suffixes)?;
            // The operands after dst are split into paired surface and
            // parameters once the whole file has fixed the dialect.
            self.pending.push(Pending {
                index: self.prog.body.len(),
                after_dst: std::mem::take(&mut smp.params),
            });
            Inst::Sampler(Box::new(smp))
        } else if matches!(head, "movs" | "setp" | "cmp" | "ret") {
            if pred.is_some() && head != "ret" {
                return Err(format!("`{head}` cannot be predicated"));
            }
            let rel = if head == "cmp" {
                let [r] = suffixes.as_slice() else {
                    return Err(
                        "`cmp` needs one relation: cmp.eq, .ne, .gt, .ge, .lt or .le".into(),
                    );
                };
                Some(
                    RELATIONS
                        .iter()
                        .position(|x| x == r)
                        .ok_or_else(|| format!("unknown relation `.{r}`"))?
                        as u8,
                )
            } else if !suffixes.is_empty() {
                return Err(format!("`{head}` takes no `.{}`", suffixes.join(".")));
            } else {
                None
            };
            let exec = self.exec(c)?;
            match (head, rel) {
                ("movs", _) => {
                    let dst = self.operand(c, true, exec)?;
                    let src = self.source(c, exec)?;
                    Inst::Movs { exec, dst, src }
                }
                ("setp", _) => {
                    let dst = c.word("a predicate")?.to_string();
                    self.expect_pred(&dst, exec)?;
                    let src = self.source(c, exec)?;
                    Inst::Setp { exec, dst, src }
                }
                ("cmp", Some(rel)) => {
                    let dst = self.operand(c, true, exec)?;
                    if matches!(dst, Operand::State { .. }) {
                        return Err("`cmp` writes a predicate or a general variable".into());
                    }
                    let srcs = [self.source(c, exec)?, self.source(c, exec)?];
                    Inst::Cmp {
                        rel,
                        exec,
                        dst,
                        srcs,
                    }
                }
                _ => Inst::Ret { pred, exec },
            }
        } else if let Some(kind) = branch_kind(head) {
            if !suffixes.is_empty() {
                return Err(format!("`{head}` takes no `.{}`", suffixes.join(".")));
            }
            let exec = self.exec(c)?;
            // JMP.md: a jmp's exec size is 1 (the thread branches as a whole).
            if kind == BranchKind::Jmp && exec.size != 1 {
                return Err(format!("`jmp` has exec size 1, not {}", exec.size));
            }
            // The label may follow the branch; `finish` checks it exists.
            let label = c.word("a label")?.to_string();
            Inst::Branch {
                kind,
                pred,
                exec,
                label,
            }
        } else if head == "scatter4_scaled" {
            let [ch] = suffixes.as_slice() else {
                return Err("`scatter4_scaled` needs one channel suffix (.R … .RGBA)".into());
            };
            let channels = channel_mask(ch, false)?;
            let exec = self.exec(c)?;
            if !matches!(exec.size, 8 | 16) {
                return Err(format!(
                    "exec size {} for `scatter4_scaled`: it takes 8 or 16",
                    exec.size
                ));
            }
            let surface = self.state_name(c, false)?;
            let offset = self.source(c, exec)?;
            let element_offset = raw_operand(c)?;
            let src = raw_operand(c)?;
            let size = u64::from(exec.size);
            self.check_raw(&element_offset, |b| b * size)?;
            // Each enabled channel's block holds max(exec, GRF/4) dwords.
            let blocks = u64::from(channels.count_ones());
            self.check_raw(&src, |_| 4 * size.max(8) * blocks)?;
            Inst::Scatter4Scaled {
                pred,
                channels,
                exec,
                surface,
                offset,
                element_offset,
                src,
            }
        } else if KNOWN_UNSUPPORTED.contains(&head) {
            // Keep the statement text; the rest of the line is its operands.
            c.pos = c.toks.len();
            Inst::Unsupported {
                mnemonic: head.to_string(),
                text: c.text_from(start).to_string(),
            }
        } else {
            return Err(format!("unknown instruction `{head}`"));
        };
        self.push(n, Item::Inst(inst));
        Ok(())
    }

    fn pred(&self, c: &mut Cur) -> Res<Pred> {
        c.expect('(', "to open the predicate")?;
        let invert = c.eat('!');
        let name = c.word("a predicate variable")?.to_string();
        let ctrl = if c.eat('.') {
            match c.word("any or all")? {
                "any" => PredCtrl::Any,
                "all" => PredCtrl::All,
                w => return Err(format!("unknown predicate control `.{w}` (.any or .all)")),
            }
        } else {
            PredCtrl::None
        };
        c.expect(')', "to close the predicate")?;
        if !matches!(self.kind_of(&name)?, VarKind::Predicate { .. }) {
            return Err(format!("`{name}` is not a predicate (v_type=P)"));
        }
        Ok(Pred { name, invert, ctrl })
    }

    fn expect_pred(&self, name: &str, exec: Exec) -> Res<()> {
        match self.kind_of(name)? {
            VarKind::Predicate { num_elts } if u32::from(exec.size) <= *num_elts => Ok(()),
            VarKind::Predicate { num_elts } => Err(format!(
                "predicate `{name}` has {num_elts} lanes, fewer than the exec size {}",
                exec.size
            )),
            _ => Err(format!("`{name}` is not a predicate (v_type=P)")),
        }
    }

    fn exec(&self, c: &mut Cur) -> Res<Exec> {
        c.expect('(', "to open the exec size")?;
        let (mut mask, mut no_mask) = (0u8, false);
        if let (Some(Tok::Word(w)), Some(Tok::Punct(','))) = (c.peek(), c.peek2()) {
            c.pos += 2;
            if w == "NoMask" {
                no_mask = true;
            } else {
                let (m, nm) = match w.strip_suffix("_NM") {
                    Some(m) => (m, true),
                    None => (w.as_str(), false),
                };
                mask = match m.strip_prefix('M').and_then(|d| d.parse::<u8>().ok()) {
                    Some(k @ 1..=8) => k - 1,
                    _ => {
                        return Err(format!(
                            "unknown exec mask `{w}` (M1…M8, M1_NM…M8_NM, NoMask)"
                        ))
                    }
                };
                no_mask = nm;
            }
        }
        let size = c.number("the exec size")?;
        let size = match size {
            1 | 2 | 4 | 8 | 16 | 32 => size as u8,
            _ => return Err(format!("exec size {size} is not 1, 2, 4, 8, 16 or 32")),
        };
        // The channels are 4 × (k − 1) … for Mk: the group must start at a
        // multiple of the size and end by channel 31. IGC's GenX_IR (1.0.12504,
        // TGLLP) calls `(M2, 16)`, `(M3, 16)`, `(M2, 8)` and `(M8, 8)` an "Invalid
        // emask" and rejects `(M5, 32)`, while `(M5, 16)`, `(M7, 8)` and `(M8, 4)`
        // pass; a mask past channel 31 would also name channels no thread has.
        let first = 4 * u32::from(mask);
        if first % u32::from(size) != 0 || first + u32::from(size) > 32 {
            return Err(format!(
                "exec mask M{} with exec size {size}: channels {first}…{} are not a group of that size within 0…31",
                mask + 1,
                first + u32::from(size) - 1
            ));
        }
        c.expect(')', "to close the exec size")?;
        Ok(Exec {
            size,
            mask,
            no_mask,
        })
    }

    fn source(&self, c: &mut Cur, exec: Exec) -> Res<Operand> {
        self.operand(c, false, exec)
    }

    /// A vector operand, checked against its variable's declaration.
    fn operand(&self, c: &mut Cur, dst: bool, exec: Exec) -> Res<Operand> {
        let mut modifier = Modifier::None;
        if !dst && c.is_punct('(') {
            c.pos += 1;
            let neg = c.eat('-');
            let abs = matches!(c.peek(), Some(Tok::Word(w)) if w == "abs");
            if abs {
                c.pos += 1;
            }
            modifier = match (neg, abs) {
                (true, true) => Modifier::NegAbs,
                (true, false) => Modifier::Neg,
                (false, true) => Modifier::Abs,
                _ => return Err("expected a source modifier `(-)`, `(abs)` or `(-abs)`".into()),
            };
            c.expect(')', "to close the source modifier")?;
        }
        let starts_imm = c.is_punct('-')
            || matches!(c.peek(), Some(Tok::Word(w)) if w.starts_with(|ch: char| ch.is_ascii_digit()));
        if starts_imm {
            if dst {
                return Err("an immediate cannot be a destination".into());
            }
            if modifier != Modifier::None {
                return Err("a source modifier on an immediate".into());
            }
            return imm(c);
        }
        let name = c.word("an operand")?.to_string();
        // A predicate destination is a bare name: decide before looking at
        // the next token, which may be the next source's `(-)` modifier
        // (`cmp.eq (M1, 16) P2 (-)V(0,0)<1;1,0> …`), not a `(row,col)`.
        if dst && matches!(self.kind_of(&name), Ok(VarKind::Predicate { .. })) {
            self.expect_pred(&name, exec)?;
            return Ok(Operand::Pred(name));
        }
        if !c.eat('(') {
            return Err(format!("`{name}` needs `(row,col)` and a region here"));
        }
        let first = c.u32("a row or index")?;
        if c.eat(')') {
            if modifier != Modifier::None {
                return Err("a source modifier on a sampler/surface operand".into());
            }
            return match self.kind_of(&name)? {
                VarKind::Sampler { num_elts } | VarKind::Surface { num_elts }
                    if first < *num_elts =>
                {
                    Ok(Operand::State { name, index: first })
                }
                VarKind::Sampler { num_elts } | VarKind::Surface { num_elts } => Err(format!(
                    "index {first} is out of `{name}`'s {num_elts} elements"
                )),
                _ => Err(format!("`{name}(i)` needs a sampler or surface variable")),
            };
        }
        c.expect(',', "between row and column")?;
        let col = c.u32("a column")?;
        c.expect(')', "after (row,col)")?;
        c.expect('<', "to open the region")?;
        let region = if dst {
            let h = stride(c.number("a horizontal stride")?)?;
            if h == 0 {
                return Err("a destination stride of 0".into());
            }
            Region { vw: None, h }
        } else {
            let v = stride(c.number("a vertical stride")?)?;
            c.expect(';', "after the vertical stride")?;
            let w = c.number("a width")?;
            if ![1, 2, 4, 8, 16].contains(&w) {
                return Err(format!("region width {w} is not 1, 2, 4, 8 or 16"));
            }
            c.expect(',', "after the width")?;
            let h = stride(c.number("a horizontal stride")?)?;
            Region {
                vw: Some((v, w as u8)),
                h,
            }
        };
        c.expect('>', "to close the region")?;
        self.check_var(&name, row_col(first, col), region, exec)?;
        Ok(Operand::Var {
            name,
            modifier,
            row: first,
            col,
            region,
        })
    }

    /// Checks that a region operand lies inside its (declared, general) variable.
    fn check_var(&self, name: &str, (row, col): (u64, u64), region: Region, exec: Exec) -> Res<()> {
        if predefined(name) == Some(Predefined::General) {
            return Ok(());
        }
        let kind = self.kind_of(name)?;
        let VarKind::General { ty, .. } = kind else {
            return Err(format!(
                "`{name}` is a v_type={} variable, not a general one",
                kind.letter()
            ));
        };
        let es = u64::from(ty.bytes());
        let n = u64::from(exec.size);
        let last = match region.vw {
            None => (n - 1) * u64::from(region.h),
            Some((v, w)) => {
                let w = u64::from(w).min(n);
                (n.div_ceil(w) - 1) * u64::from(v) + (w - 1) * u64::from(region.h)
            }
        };
        let end = row * GRF_BYTES + col * es + (last + 1) * es;
        if end > u64::from(kind.bytes()) {
            return Err(format!(
                "operand `{name}({row},{col})` reaches byte {end}, beyond `{name}`'s {} bytes",
                kind.bytes()
            ));
        }
        Ok(())
    }

    fn sampler(
        &self,
        c: &mut Cur,
        op: &'static tables::SubOp,
        pred: Option<Pred>,
        suffixes: &[&str],
    ) -> Res<Sampler> {
        let (mut pnm, mut cps, mut div_s, mut channels) = (false, false, false, None);
        // Fixed order: pixel_null_mask, cps, divS, then the channels.
        let mut stage = 0;
        for s in suffixes {
            let (at, flag) = match *s {
                "pixel_null_mask" => (1, &mut pnm),
                "cps" => (2, &mut cps),
                "divS" => (3, &mut div_s),
                ch => {
                    if channels.is_some() {
                        return Err(format!("`.{ch}` after the channel mask"));
                    }
                    channels = Some(channel_mask(ch, op.class == SamplerClass::Gather4)?);
                    stage = 4;
                    continue;
                }
            };
            if at <= stage {
                return Err(format!(
                    "`.{s}` out of order (.pixel_null_mask, .cps, .divS, then channels)"
                ));
            }
            stage = at;
            *flag = true;
        }
        let channels =
            channels.ok_or("a sampler instruction needs a channel mask such as `.RGBA`")?;
        if op.class == SamplerClass::Info && (pnm || cps || div_s) {
            return Err(format!(
                "`{}` takes no .pixel_null_mask/.cps/.divS",
                op.name
            ));
        }
        let exec = self.exec(c)?;
        if ![8, 16, 32].contains(&exec.size) {
            return Err(format!(
                "exec size {} for `{}`: sampler instructions take 8, 16 or 32",
                exec.size, op.name
            ));
        }
        if cps
            && (!matches!(
                op.name,
                "sample_3d" | "sample_b" | "sample_c" | "sample_b_c" | "lod"
            ) || exec.size == 32)
        {
            return Err(
                "`.cps` needs sample_3d, sample_b, sample_c, sample_b_c or lod at SIMD8/16".into(),
            );
        }
        let aoffimmi = if op.class == SamplerClass::Info {
            None
        } else {
            Some(self.source(c, exec)?)
        };
        let sampler = if matches!(op.class, SamplerClass::Sample | SamplerClass::Gather4) {
            Some(self.state_name(c, true)?)
        } else {
            None
        };
        let surface = self.state_name(c, false)?;
        let mut raws = Vec::new();
        while !c.at_end() {
            if raws.len() > tables::MAX_PARAMS + 1 {
                return Err(format!("more than {} parameters", tables::MAX_PARAMS));
            }
            raws.push(raw_operand(c)?);
        }
        if raws.is_empty() {
            return Err(format!("`{}` needs a destination", op.name));
        }
        // 3D_INFO puts the destination last (surface, [lod], dst: the binary
        // field order); the others put it first.
        let dst = if op.class == SamplerClass::Info {
            raws.pop()
        } else {
            Some(raws.remove(0))
        }
        .ok_or("a destination")?;
        Ok(Sampler {
            op,
            pred,
            pixel_null_mask: pnm,
            cps,
            div_s,
            channels,
            exec,
            aoffimmi,
            sampler,
            surface,
            dst,
            paired: None,
            params: raws,
        })
    }

    /// A sampler (`is_sampler`) or surface operand name.
    fn state_name(&self, c: &mut Cur, is_sampler: bool) -> Res<String> {
        let what = if is_sampler { "sampler" } else { "surface" };
        if c.is_punct('(') {
            return Err(format!(
                "the `({what}, index)` operand form is not supported"
            ));
        }
        let name = c.word(what)?.to_string();
        let ok = match (predefined(&name), self.kind_of(&name)) {
            (Some(Predefined::Sampler), _) => is_sampler,
            (Some(Predefined::Surface), _) => !is_sampler,
            (Some(Predefined::General), _) => false,
            (None, Ok(VarKind::Sampler { .. })) => is_sampler,
            (None, Ok(VarKind::Surface { .. })) => !is_sampler,
            (None, Ok(_)) => false,
            (None, Err(e)) => return Err(e),
        };
        if !ok {
            return Err(format!("`{name}` is not a {what} variable"));
        }
        Ok(name)
    }

    /// After the whole file: picks the dialect, splits off paired surfaces,
    /// and checks each sampler instruction's raw operands.
    fn finish(&mut self, choice: DialectChoice) -> Result<(), VisaError> {
        let dialect = match choice {
            DialectChoice::Force(d) => d,
            DialectChoice::Auto => detect(&self.prog, &self.pending),
        };
        self.prog.dialect = dialect;
        self.check_labels()?;
        for p in std::mem::take(&mut self.pending) {
            let line = self.prog.body[p.index].line;
            let err = |message: String| VisaError::new(line, VisaErrorKind::Syntax(message));
            let Item::Inst(Inst::Sampler(smp)) = &self.prog.body[p.index].item else {
                continue;
            };
            let mut smp = (**smp).clone();
            let mut rest = p.after_dst;
            if dialect == Dialect::Current && smp.op.class != SamplerClass::Info {
                if rest.is_empty() {
                    return Err(err("the current dialect needs a paired surface (`%null.0`) after the destination".into()));
                }
                smp.paired = Some(rest.remove(0));
            }
            smp.params = rest;
            self.check_sampler(&smp).map_err(err)?;
            self.prog.body[p.index].item = Item::Inst(Inst::Sampler(Box::new(smp)));
        }
        Ok(())
    }

    /// Labels are unique and every branch names one (GOTO.md, JMP.md: the
    /// target is a block label of the same function).
    fn check_labels(&self) -> Result<(), VisaError> {
        let mut labels = HashSet::new();
        for s in &self.prog.body {
            if let Item::Label(l) = &s.item {
                if !labels.insert(l.as_str()) {
                    return Err(VisaError::new(
                        s.line,
                        VisaErrorKind::Syntax(format!("label `{l}` is defined twice")),
                    ));
                }
            }
        }
        for s in &self.prog.body {
            if let Item::Inst(Inst::Branch { kind, label, .. }) = &s.item {
                if !labels.contains(label.as_str()) {
                    return Err(VisaError::new(
                        s.line,
                        VisaErrorKind::Syntax(format!(
                            "`{}` to `{label}`, which is not a label",
                            kind.name()
                        )),
                    ));
                }
            }
        }
        Ok(())
    }

    fn check_sampler(&self, s: &Sampler) -> Res<()> {
        let max = s.op.params.map_or(tables::MAX_PARAMS, <[&str]>::len);
        let n = s.params.len();
        if s.op.class == SamplerClass::Info {
            if n != max {
                return Err(format!(
                    "`{}` takes {max} operand(s) before the destination, not {n}",
                    s.op.name
                ));
            }
        } else if n == 0 || n > max {
            return Err(format!(
                "`{}` takes 1 to {max} parameters, not {n}",
                s.op.name
            ));
        }
        let exec = u64::from(s.exec.size);
        for p in &s.params {
            self.check_raw(p, |es| exec * es)?;
        }
        if let Some(p) = &s.paired {
            if p.name != "%null" {
                self.check_raw(p, |_| 4)?;
            }
        }
        // Result layout: each enabled channel starts a new GRF (docs/visa.md);
        // a gather returns its four samples as R, G, B, A.
        let chans = if s.op.class == SamplerClass::Gather4 {
            4
        } else {
            u64::from(s.channels.count_ones())
        };
        let extra = if s.pixel_null_mask { GRF_BYTES } else { 0 };
        self.check_raw(&s.dst, |es| {
            chans * (exec * es).div_ceil(GRF_BYTES) * GRF_BYTES + extra
        })
    }

    /// Checks that `bytes(element size)` bytes from a raw operand fit its variable.
    fn check_raw(&self, r: &Raw, bytes: impl Fn(u64) -> u64) -> Res<()> {
        if predefined(&r.name) == Some(Predefined::General) {
            return Ok(());
        }
        let kind = self.kind_of(&r.name)?;
        let VarKind::General { ty, .. } = kind else {
            return Err(format!(
                "`{}` is a v_type={} variable, not a general one",
                r.name,
                kind.letter()
            ));
        };
        let end = u64::from(r.offset) + bytes(u64::from(ty.bytes()));
        if end > u64::from(kind.bytes()) {
            return Err(format!(
                "operand `{}.{}` needs bytes up to {end}, beyond `{}`'s {} bytes",
                r.name,
                r.offset,
                r.name,
                kind.bytes()
            ));
        }
        Ok(())
    }
}

fn row_col(row: u32, col: u32) -> (u64, u64) {
    (u64::from(row), u64::from(col))
}

fn stride(n: u64) -> Res<u8> {
    match n {
        0 | 1 | 2 | 4 | 8 | 16 | 32 => Ok(n as u8),
        _ => Err(format!("stride {n} is not 0, 1, 2, 4, 8, 16 or 32")),
    }
}

/// `[-]number:type`, kept as the type's bits.
fn imm(c: &mut Cur) -> Res<Operand> {
    let neg = c.eat('-');
    let n = c.number("an immediate")?;
    c.expect(':', "before the immediate's type")?;
    let t = c.word("a type")?;
    let ty = VisaType::from_name(t).ok_or_else(|| format!("unknown type `{t}`"))?;
    let bits = ty.bytes() * 8;
    let mask = if bits >= 64 {
        u64::MAX
    } else {
        (1u64 << bits) - 1
    };
    // A negative literal may reach the type's most negative value (two's
    // complement), a positive one its full unsigned range.
    if (!neg && n > mask) || (neg && n > (mask >> 1) + 1) {
        return Err(format!("immediate {n:#x} does not fit in :{}", ty.name()));
    }
    let bits = if neg { n.wrapping_neg() & mask } else { n };
    Ok(Operand::Imm { bits, ty })
}

/// A channel suffix: an ordered, non-empty subset of RGBA (any case); a
/// gather takes exactly one channel.
fn channel_mask(s: &str, single: bool) -> Res<u8> {
    let mut mask = 0u8;
    let mut last = None;
    for ch in s.chars() {
        let i = "RGBA"
            .find(ch.to_ascii_uppercase())
            .ok_or_else(|| format!("unknown modifier or channel mask `.{s}`"))?;
        if last.is_some_and(|l| i <= l) {
            return Err(format!("channel mask `.{s}` is not in RGBA order"));
        }
        last = Some(i);
        mask |= 1 << i;
    }
    if mask == 0 || (single && mask.count_ones() != 1) {
        return Err(format!("`.{s}`: a gather takes exactly one channel"));
    }
    Ok(mask)
}

/// The dialect rule of docs/visa.md: version 4.2 or later is current IGC; so is
/// a file where some sampler instruction has `%null.0` right after its
/// destination, or more operands than its sub-op has parameters.
/// The branch a mnemonic names ([`tables::BRANCH_OPS`]).
fn branch_kind(head: &str) -> Option<BranchKind> {
    tables::BRANCH_OPS.iter().find(|b| b.0 == head).map(|b| b.1)
}

fn detect(prog: &Program, pending: &[Pending]) -> Dialect {
    if (prog.version.major, prog.version.minor) >= (4, 2) {
        return Dialect::Current;
    }
    let current = pending.iter().any(|p| {
        let Item::Inst(Inst::Sampler(s)) = &prog.body[p.index].item else {
            return false;
        };
        let max = s.op.params.map_or(tables::MAX_PARAMS, <[&str]>::len);
        s.op.class != SamplerClass::Info
            && (p
                .after_dst
                .first()
                .is_some_and(|r| r.name == "%null" && r.offset == 0)
                || p.after_dst.len() > max)
    });
    if current {
        Dialect::Current
    } else {
        Dialect::V41_2022
    }
}
