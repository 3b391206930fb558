//! Scalar ALU: SOP1, SOP2, SOPK and SOPC, operand by operand.
//!
//! Layouts (one dword; AMD ISA manuals "SOP1/SOP2/SOPK/SOPC"):
//!
//! | form | 31:23 | 22:16 | 15:8 | 7:0 |
//! |---|---|---|---|---|
//! | SOP1 | `0x17D` | SDST | OP | SSRC0 |
//! | SOP2 | `10` + OP (29:23) | SDST | SSRC1 | SSRC0 |
//! | SOPK | `1011` + OP (27:23) | SDST | SIMM16 (15:0) ||
//! | SOPC | `0x17E` | OP | SSRC1 | SSRC0 |
//!
//! Which fields an opcode prints, their register counts and constant types come
//! from the generated signature rows ([`super::signature`]); a source of 255 is a
//! 32-bit literal that follows. SOPK's SIMM16 prints per instruction family
//! ([`simm16_text`]), measured with llvm-mc-19.

use super::decoded::HwReg;
use super::encoded::Encoded;
use super::immediate;
use super::operand::{Operand, TypedOperand};
use super::signature::{Fld, Form, Ty};
use super::{sopp, Field};
use crate::arch::{Arch, Gen};

/// A decoded scalar ALU instruction: its raw encoding and, filled when it is
/// decoded, its operands as LLVM prints them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Salu {
    /// Form (SOP1, SOP2, SOPK or SOPC), signature row, raw bits, literal.
    pub enc: Encoded,
    /// The mnemonic.
    pub name: &'static str,
    /// The register and constant operands, in LLVM's order, each with its
    /// encoding field (`sdst`, `ssrc0`, `ssrc1`; a source of 255 is
    /// [`Operand::Literal`]). SDST is the destination except where the
    /// instruction reads it: the `s_cmpk_*` compares, `s_setreg_b32`,
    /// `s_cbranch_i_fork`.
    pub operands: Vec<TypedOperand>,
    /// SOPK's 16-bit immediate, where the opcode prints it (sign- or
    /// zero-extension and meaning are the opcode's: `s_movk_i32` signed,
    /// `s_cmpk_*_u32` unsigned, a branch offset in dwords, a `hwreg`, …).
    pub simm16: Option<u16>,
    /// The `hwreg(id, offset, size)` operand of `s_getreg_b32`,
    /// `s_setreg_b32` and `s_setreg_imm32_b32`.
    pub hwreg: Option<HwReg>,
    /// `s_setreg_imm32_b32`'s 32-bit immediate.
    pub imm32: Option<u32>,
    /// A register field LLVM prints as an immediate: `s_set_gpr_idx_on`'s mode
    /// bits (SSRC1), `s_sendmsg_rtn_b32/b64`'s message (SSRC0).
    pub imm: Option<u32>,
}

impl Salu {
    /// The instruction of `enc`, its decoded fields filled.
    fn new(enc: Encoded) -> Salu {
        let name = enc.row.name;
        let mut x = Salu {
            enc,
            name,
            operands: enc.operands(),
            simm16: None,
            hwreg: None,
            imm32: None,
            imm: None,
        };
        let imms = enc.row.opds.iter().filter(|s| s.field == Fld::Imm).count();
        match x.form() {
            Form::Sopk if imms >= 1 => {
                x.simm16 = Some(x.simm16() as u16);
                if name.starts_with("s_getreg") || name.starts_with("s_setreg") {
                    x.hwreg = Some(HwReg::from_simm16(x.simm16()));
                }
                if imms >= 2 {
                    x.imm32 = enc.literal;
                }
            }
            Form::Sopc if imms >= 1 => x.imm = Some(x.ssrc1()),
            Form::Sop1 if imms >= 1 => x.imm = Some(x.ssrc0()),
            _ => {}
        }
        x
    }

    /// The form.
    pub fn form(&self) -> Form {
        self.enc.form
    }

    /// The opcode.
    pub fn op(&self) -> u32 {
        self.enc.op()
    }

    /// SDST (SOP1/SOP2/SOPK).
    pub fn sdst(&self) -> u32 {
        self.enc.bits(16, 7)
    }

    /// SSRC0 (SOP1/SOP2/SOPC).
    pub fn ssrc0(&self) -> u32 {
        self.enc.bits(0, 8)
    }

    /// SSRC1 (SOP2/SOPC).
    pub fn ssrc1(&self) -> u32 {
        self.enc.bits(8, 8)
    }

    /// SIMM16 (SOPK).
    pub fn simm16(&self) -> u32 {
        self.enc.bits(0, 16)
    }

    /// The literal that follows, if any.
    pub fn literal(&self) -> Option<u32> {
        self.enc.literal
    }

    /// The mnemonic.
    pub fn mnemonic(&self) -> &'static str {
        self.enc.row.name
    }

    /// The register and constant operands, in LLVM's order (SOPK's SIMM16,
    /// `s_set_gpr_idx_on`'s mode and `s_sendmsg_rtn`'s message are fields, not
    /// operands).
    pub fn operands(&self) -> Vec<TypedOperand> {
        self.enc.operands()
    }

    /// LLVM 19 syntax.
    pub fn text(&self) -> String {
        let mut imms = 0;
        let parts: Vec<String> = self
            .enc
            .row
            .opds
            .iter()
            .map(|s| {
                if s.field == Fld::Imm {
                    imms += 1;
                    self.imm_text(imms)
                } else {
                    self.enc.slot_text(s)
                }
            })
            .collect();
        if parts.is_empty() {
            self.mnemonic().to_string()
        } else {
            format!("{} {}", self.mnemonic(), parts.join(", "))
        }
    }

    /// The `n`-th (1-based) operand without a register field.
    fn imm_text(&self, n: usize) -> String {
        let gen = self.enc.gen;
        match self.form() {
            // s_setreg_imm32_b32's second operand is its literal, printed as
            // LLVM prints it. On gfx6/gfx7, where text must reassemble, a value
            // LLVM would print as a float is hex: llvm-mc-19 -mcpu=tahiti reads
            // `1.0` there as 0.
            Form::Sopk if n == 2 => self
                .enc
                .literal
                .map(|v| {
                    let t = immediate::literal_text(v, Ty::B32, gen);
                    if gen <= crate::arch::Gen::Gfx7 && t.contains('.') {
                        format!("0x{v:x}")
                    } else {
                        t
                    }
                })
                .unwrap_or_default(),
            Form::Sopk => simm16_text(self.mnemonic(), self.simm16(), gen),
            // s_set_gpr_idx_on's SSRC1 is its mode.
            Form::Sopc => sopp::gpr_idx_text(self.ssrc1()),
            // s_sendmsg_rtn_*'s SSRC0 is the message.
            _ => sopp::sendmsg_text(self.ssrc0(), gen),
        }
    }

    /// Raw fields: `op`, then the form's fields, and `literal` when present.
    pub fn fields(&self) -> Vec<Field> {
        let mut f = vec![Field::int("op", self.op())];
        match self.form() {
            Form::Sop1 => {
                f.push(Field::int("sdst", self.sdst()));
                f.push(Field::int("ssrc0", self.ssrc0()));
            }
            Form::Sop2 => {
                f.push(Field::int("sdst", self.sdst()));
                f.push(Field::int("ssrc0", self.ssrc0()));
                f.push(Field::int("ssrc1", self.ssrc1()));
            }
            Form::Sopk => {
                f.push(Field::int("sdst", self.sdst()));
                f.push(Field::int("simm16", self.simm16()));
            }
            _ => {
                f.push(Field::int("ssrc0", self.ssrc0()));
                f.push(Field::int("ssrc1", self.ssrc1()));
            }
        }
        if let Some(l) = self.enc.literal {
            f.push(Field::int("literal", l));
        }
        f
    }
}

/// Hardware register names of `s_getreg`/`s_setreg` per generation (LLVM
/// `Hwreg::Opr`; swept with llvm-mc-19 over ids 0–63).
fn hwreg_name(id: u32, gen: Gen) -> Option<&'static str> {
    Some(match (id, gen) {
        (1, _) => "HW_REG_MODE",
        (2, _) => "HW_REG_STATUS",
        (3, _) => "HW_REG_TRAPSTS",
        (4, Gen::Gfx6 | Gen::Gfx7 | Gen::Gfx8 | Gen::Gfx9) => "HW_REG_HW_ID",
        (5, _) => "HW_REG_GPR_ALLOC",
        (6, _) => "HW_REG_LDS_ALLOC",
        (7, _) => "HW_REG_IB_STS",
        (15, Gen::Gfx9 | Gen::Gfx10 | Gen::Gfx11) => "HW_REG_SH_MEM_BASES",
        (16, Gen::Gfx9 | Gen::Gfx10) => "HW_REG_TBA_LO",
        (17, Gen::Gfx9 | Gen::Gfx10) => "HW_REG_TBA_HI",
        (18, Gen::Gfx9 | Gen::Gfx10) => "HW_REG_TMA_LO",
        (19, Gen::Gfx9 | Gen::Gfx10) => "HW_REG_TMA_HI",
        (18, Gen::Gfx11) => "HW_REG_PERF_SNAPSHOT_PC_LO",
        (19, Gen::Gfx11) => "HW_REG_PERF_SNAPSHOT_PC_HI",
        (20, Gen::Gfx10 | Gen::Gfx11) => "HW_REG_FLAT_SCR_LO",
        (21, Gen::Gfx10 | Gen::Gfx11) => "HW_REG_FLAT_SCR_HI",
        (23, Gen::Gfx10 | Gen::Gfx11) => "HW_REG_HW_ID1",
        (24, Gen::Gfx10 | Gen::Gfx11) => "HW_REG_HW_ID2",
        (25, Gen::Gfx10) => "HW_REG_POPS_PACKER",
        (27, Gen::Gfx11) => "HW_REG_PERF_SNAPSHOT_DATA",
        (29, Gen::Gfx10 | Gen::Gfx11) => "HW_REG_SHADER_CYCLES",
        _ => return None,
    })
}

/// `hwreg(NAME|id[, offset, width])`: id 5:0, offset 10:6, width − 1 15:11;
/// offset and width are left out when they are 0 and 32 (LLVM `printHwreg`).
pub fn hwreg_text(v: u32, gen: Gen) -> String {
    let id = v & 0x3f;
    let offset = (v >> 6) & 0x1f;
    let width = ((v >> 11) & 0x1f) + 1;
    let name = hwreg_name(id, gen).map_or_else(|| id.to_string(), str::to_string);
    if offset == 0 && width == 32 {
        format!("hwreg({name})")
    } else {
        format!("hwreg({name}, {offset}, {width})")
    }
}

/// `s_version`'s operand (gfx10+; LLVM prints it as an expression): the
/// version (bits 7:0) as a `UC_VERSION_*` name or decimal, or'ed with
/// `UC_VERSION_W64_BIT` (bit 13), `UC_VERSION_W32_BIT` (14) and
/// `UC_VERSION_MDP_BIT` (15) in that order, each earlier expression in
/// parentheses; hex when bits 12:8 are set.
fn version_text(v: u32) -> String {
    if v & 0x1f00 != 0 {
        return format!("0x{v:x}");
    }
    let mut t = match v & 0xff {
        0 => "UC_VERSION_GFX7".to_string(),
        4 => "UC_VERSION_GFX10".to_string(),
        6 => "UC_VERSION_GFX11".to_string(),
        9 => "UC_VERSION_GFX12".to_string(),
        n => n.to_string(),
    };
    for (bit, name) in [
        (13, "UC_VERSION_W64_BIT"),
        (14, "UC_VERSION_W32_BIT"),
        (15, "UC_VERSION_MDP_BIT"),
    ] {
        if v >> bit & 1 == 1 {
            t = if t.contains('|') {
                format!("({t})|{name}")
            } else {
                format!("{t}|{name}")
            };
        }
    }
    t
}

/// SOPK's SIMM16 as LLVM prints it for instruction `name`: `hwreg(…)` for the
/// register accessors, unsigned decimal for branch targets, the version for
/// `s_version`, otherwise hex.
pub fn simm16_text(name: &str, v: u32, gen: Gen) -> String {
    match name {
        "s_getreg_b32" | "s_setreg_b32" | "s_setreg_imm32_b32" => hwreg_text(v, gen),
        "s_cbranch_i_fork" | "s_call_b64" | "s_subvector_loop_begin" | "s_subvector_loop_end" => {
            v.to_string()
        }
        "s_version" => version_text(v),
        _ => format!("0x{v:x}"),
    }
}

fn form_of(enc: super::Encoding) -> Option<Form> {
    use super::Encoding as E;
    Some(match enc {
        E::Sop1 => Form::Sop1,
        E::Sop2 => Form::Sop2,
        E::Sopk => Form::Sopk,
        E::Sopc => Form::Sopc,
        _ => return None,
    })
}

/// Decodes a SOP1/SOP2/SOPK/SOPC instruction (`words` holds exactly its dwords).
/// `None` when the generation has no signature rows for the class.
pub fn decode(enc: super::Encoding, words: &[u32], arch: &Arch) -> Option<Result<Salu, String>> {
    let form = form_of(enc)?;
    Some(Encoded::new(form, words, arch.gen)?.and_then(|e| {
        e.validate()?;
        // SI/CI ("valid" = reassembles): llvm-mc-19 takes registers and
        // inline constants in s_cbranch_g_fork, not a literal.
        if arch.gen <= crate::arch::Gen::Gfx7 && e.row.name == "s_cbranch_g_fork" {
            let s = Salu::new(e);
            if s.operands()
                .iter()
                .any(|o| matches!(o.operand, Operand::Literal(_)))
            {
                return Err("s_cbranch_g_fork: literal operand".into());
            }
        }
        Ok(Salu::new(e))
    }))
}
