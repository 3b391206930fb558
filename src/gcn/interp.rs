//! Interpolation: VINTRP, the VOP3-encoded interps (gfx8–gfx10), gfx11 VINTERP
//! and LDSDIR.
//!
//! Bit layouts (research/encodings.md; each field toggled in llvm-mc-19 and read
//! back):
//! - VINTRP (one dword): VSRC 7:0, ATTRCHAN 9:8, ATTR 15:10, OP 17:16, VDST 25:18.
//!   `v_interp_mov_f32` reads VSRC as the parameter select 0 = `p10`, 1 = `p20`,
//!   2 = `p0`.
//! - VOP3 interp (two dwords): the usual VOP3 fields (VDST 7:0, ABS 10:8, CLAMP 15,
//!   OP 25:16, SRC0 40:32, SRC1 49:41, SRC2 58:50, OMOD 60:59, NEG 63:61), but SRC0
//!   holds the attribute: bits 5:0 ATTR, 7:6 ATTRCHAN, 8 `high`. SRC1 holds the
//!   I/J VGPR (for `v_interp_mov_f32_e64` the parameter select), SRC2 the VGPR of
//!   p1lv/p2 f16.
//! - VINTERP (gfx11, two dwords): VDST 7:0, WAIT_EXP 10:8, OP_SEL 14:11, CLAMP 15,
//!   OP 22:16, byte 3 = 0xCD; SRC0/1/2 as in VOP3, NEG 63:61.
//! - LDSDIR (gfx11, one dword): VDST 7:0, ATTRCHAN 9:8, ATTR 15:10, WAIT_VDST
//!   19:16, OP 21:20 (0 = `lds_param_load`, 1 = `lds_direct_load`), byte 3 = 0xCE.
//!
//! Validity follows what llvm-mc-19 decodes: reserved bits set (modifiers on the
//! attribute operand, `high` on an f32 op, an unused SRC2, op_sel on an f32
//! VINTERP, LDSDIR bits 23:22) make the words invalid. Where LLVM prints an
//! operand it cannot spell (`invalid_param_3`, an SGPR where a VGPR is required,
//! printed with an "Invalid register" comment) gcnrun reports the words invalid.

use super::{Encoding, Field};
use crate::arch::{Arch, Gen};

/// What an interpolation instruction computes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum InterpOp {
    /// `v_interp_p1_f32`: `P0 + i * P10` (VINTRP, or its VOP3 `_e64` form).
    P1F32,
    /// `v_interp_p2_f32`: `vdst + j * P20` (VINTRP, or `_e64`).
    P2F32,
    /// `v_interp_mov_f32`: one parameter (`p10`, `p20`, `p0`) unchanged.
    MovF32,
    /// `v_interp_p1ll_f16`: first step of f16 interpolation, f32 result.
    P1llF16,
    /// `v_interp_p1lv_f16`: first step with the f16 parameter in a VGPR (`vsrc2`).
    P1lvF16,
    /// `v_interp_p2_f16`: second step, f16 result.
    P2F16,
    /// `v_interp_p2_legacy_f16` (gfx9 only, VOP3 0x276).
    P2LegacyF16,
    /// gfx11 `v_interp_p10_f32`: `fma(P10, I, P0)` on the parameters
    /// `lds_param_load` put in the quad's lanes (VINTERP op 0;
    /// cpu::interp_gfx11).
    P10F32,
    /// gfx11 `v_interp_p2_f32` (VINTERP op 1).
    P2F32Vinterp,
    /// gfx11 `v_interp_p10_f16_f32` (VINTERP op 2).
    P10F16F32,
    /// gfx11 `v_interp_p2_f16_f32` (VINTERP op 3).
    P2F16F32,
    /// gfx11 `v_interp_p10_rtz_f16_f32` (VINTERP op 4).
    P10RtzF16F32,
    /// gfx11 `v_interp_p2_rtz_f16_f32` (VINTERP op 5).
    P2RtzF16F32,
    /// gfx11 `lds_param_load`: the attribute's parameters from LDS into a VGPR.
    LdsParamLoad,
    /// gfx11 `lds_direct_load`: one dword from LDS at M0 into a VGPR.
    LdsDirectLoad,
}

/// The VOP3 interp opcodes per generation (LLVM VOP3Instructions.td
/// `VOP3Interp_*`; research/encodings.md table, checked with llvm-mc-19).
const VOP3_INTERP: &[(Gen, u32, InterpOp, &str)] = &[
    (Gen::Gfx8, 0x270, InterpOp::P1F32, "v_interp_p1_f32_e64"),
    (Gen::Gfx8, 0x271, InterpOp::P2F32, "v_interp_p2_f32_e64"),
    (Gen::Gfx8, 0x272, InterpOp::MovF32, "v_interp_mov_f32_e64"),
    (Gen::Gfx8, 0x274, InterpOp::P1llF16, "v_interp_p1ll_f16"),
    (Gen::Gfx8, 0x275, InterpOp::P1lvF16, "v_interp_p1lv_f16"),
    (Gen::Gfx8, 0x276, InterpOp::P2F16, "v_interp_p2_f16"),
    (Gen::Gfx9, 0x270, InterpOp::P1F32, "v_interp_p1_f32_e64"),
    (Gen::Gfx9, 0x271, InterpOp::P2F32, "v_interp_p2_f32_e64"),
    (Gen::Gfx9, 0x272, InterpOp::MovF32, "v_interp_mov_f32_e64"),
    (Gen::Gfx9, 0x274, InterpOp::P1llF16, "v_interp_p1ll_f16"),
    (Gen::Gfx9, 0x275, InterpOp::P1lvF16, "v_interp_p1lv_f16"),
    (
        Gen::Gfx9,
        0x276,
        InterpOp::P2LegacyF16,
        "v_interp_p2_legacy_f16",
    ),
    (Gen::Gfx9, 0x277, InterpOp::P2F16, "v_interp_p2_f16"),
    (Gen::Gfx10, 0x200, InterpOp::P1F32, "v_interp_p1_f32_e64"),
    (Gen::Gfx10, 0x201, InterpOp::P2F32, "v_interp_p2_f32_e64"),
    (Gen::Gfx10, 0x202, InterpOp::MovF32, "v_interp_mov_f32_e64"),
    (Gen::Gfx10, 0x342, InterpOp::P1llF16, "v_interp_p1ll_f16"),
    (Gen::Gfx10, 0x343, InterpOp::P1lvF16, "v_interp_p1lv_f16"),
    (Gen::Gfx10, 0x35a, InterpOp::P2F16, "v_interp_p2_f16"),
];

/// VINTRP opcodes 0–2 (opcode 3 is not an instruction): op, name without the
/// `_e32` suffix LLVM adds on gfx8+.
const VINTRP_OPS: [(InterpOp, &str); 3] = [
    (InterpOp::P1F32, "v_interp_p1_f32"),
    (InterpOp::P2F32, "v_interp_p2_f32"),
    (InterpOp::MovF32, "v_interp_mov_f32"),
];

/// gfx11 VINTERP opcodes 0–5 (LLVM VINTERPInstructions.td).
const VINTERP_OPS: [(InterpOp, &str); 6] = [
    (InterpOp::P10F32, "v_interp_p10_f32"),
    (InterpOp::P2F32Vinterp, "v_interp_p2_f32"),
    (InterpOp::P10F16F32, "v_interp_p10_f16_f32"),
    (InterpOp::P2F16F32, "v_interp_p2_f16_f32"),
    (InterpOp::P10RtzF16F32, "v_interp_p10_rtz_f16_f32"),
    (InterpOp::P2RtzF16F32, "v_interp_p2_rtz_f16_f32"),
];

/// gfx11 LDSDIR opcodes 0–1.
const LDSDIR_OPS: [(InterpOp, &str); 2] = [
    (InterpOp::LdsParamLoad, "lds_param_load"),
    (InterpOp::LdsDirectLoad, "lds_direct_load"),
];

/// The parameter names of `v_interp_mov_f32`'s select operand.
const PARAMS: [&str; 3] = ["p10", "p20", "p0"];
/// Attribute channel suffixes.
const CHANS: [char; 4] = ['x', 'y', 'z', 'w'];
/// VOP3 output-modifier spellings for OMOD 1..3 (0 prints nothing).
const OMOD: [&str; 4] = ["", " mul:2", " mul:4", " div:2"];
/// First VGPR in the 9-bit source-operand encoding.
const VGPR0: u32 = 256;

/// A decoded interpolation instruction: everything the CPU interpreter needs,
/// plus the raw encoding fields.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Interp {
    /// The encoding class (VINTRP, VOP3, VINTERP or LDSDIR).
    pub encoding: Encoding,
    /// What it computes.
    pub op: InterpOp,
    /// The raw opcode field.
    pub opcode: u32,
    /// The mnemonic as LLVM 19 prints it.
    pub name: &'static str,
    /// Destination VGPR.
    pub vdst: u32,
    /// The VGPR holding the I or J barycentric (VINTRP VSRC, VOP3 SRC1 − 256);
    /// `None` for `v_interp_mov_f32`, VINTERP and LDSDIR, and for a VOP3 SRC1
    /// that names a special register ([`special_src`]).
    pub ij: Option<u32>,
    /// `v_interp_mov_f32`'s parameter select: 0 = p10, 1 = p20, 2 = p0.
    pub param: Option<u32>,
    /// Attribute number (0–63); 0 where the instruction has none.
    pub attr: u32,
    /// Attribute channel (0–3 = x, y, z, w).
    pub chan: u32,
    /// VOP3 f16 interps: read the high half of the attribute's parameters.
    pub high: bool,
    /// VGPR of the second source of p1lv/p2 f16 (VOP3 SRC2 − 256).
    pub vsrc2: Option<u32>,
    /// VINTERP: the three source VGPRs (SRC0/1/2 − 256); `None` for a special
    /// register LLVM accepts in the slot ([`special_src`]).
    pub vsrcs: [Option<u32>; 3],
    /// Raw VOP3/VINTERP source fields (SRC0, SRC1, SRC2); zero for VINTRP/LDSDIR.
    pub src: [u32; 3],
    /// Negate bits per source (bit n = SRC n).
    pub neg: u32,
    /// Absolute-value bits per source (VOP3 only).
    pub abs: u32,
    /// Clamp the result.
    pub clamp: bool,
    /// Output modifier (VOP3): 0 none, 1 ×2, 2 ×4, 3 ÷2.
    pub omod: u32,
    /// OP_SEL bits (VINTERP: which halves; VOP3: raw bits 14:11, ignored by LLVM).
    pub op_sel: u32,
    /// VINTERP `wait_exp` or LDSDIR `wait_vdst`.
    pub wait: u32,
    /// The generation (the spelling of special-register sources depends on it).
    pub gen: Gen,
}

impl Interp {
    fn new(encoding: Encoding, op: InterpOp, opcode: u32, name: &'static str, gen: Gen) -> Interp {
        Interp {
            gen,
            encoding,
            op,
            opcode,
            name,
            vdst: 0,
            ij: None,
            param: None,
            attr: 0,
            chan: 0,
            high: false,
            vsrc2: None,
            vsrcs: [None; 3],
            src: [0; 3],
            neg: 0,
            abs: 0,
            clamp: false,
            omod: 0,
            op_sel: 0,
            wait: 0,
        }
    }

    /// The mnemonic.
    pub fn mnemonic(&self) -> &str {
        self.name
    }

    /// `attrN.c`.
    fn attr_text(&self) -> String {
        let c = CHANS.get(self.chan as usize).copied().unwrap_or('?');
        format!("attr{}.{c}", self.attr)
    }

    /// VOP3 source `i` (1 or 2) with its modifiers: a VGPR, or one of the
    /// special registers LLVM also accepts in a VGPR slot ([`special_src`]).
    fn vop3_src(&self, i: u32) -> String {
        let raw = self.src.get(i as usize).copied().unwrap_or(0);
        let base = match raw.checked_sub(VGPR0) {
            Some(v) => format!("v{v}"),
            None => special_src(raw, self.gen).unwrap_or("?").to_string(),
        };
        let neg = if self.neg >> i & 1 != 0 { "-" } else { "" };
        if self.abs >> i & 1 != 0 {
            format!("{neg}|{base}|")
        } else {
            format!("{neg}{base}")
        }
    }

    fn param_text(&self) -> &'static str {
        self.param
            .and_then(|p| PARAMS.get(p as usize))
            .copied()
            .unwrap_or("p10")
    }

    /// LLVM 19 syntax.
    pub fn text(&self) -> String {
        let n = self.name;
        let d = self.vdst;
        match self.encoding {
            Encoding::Vintrp => match self.ij {
                Some(v) => format!("{n} v{d}, v{v}, {}", self.attr_text()),
                None => format!("{n} v{d}, {}, {}", self.param_text(), self.attr_text()),
            },
            Encoding::Ldsdir => match self.op {
                InterpOp::LdsDirectLoad => format!("{n} v{d} wait_vdst:{}", self.wait),
                _ => format!("{n} v{d}, {} wait_vdst:{}", self.attr_text(), self.wait),
            },
            Encoding::Vinterp => {
                let mut s = format!(
                    "{n} v{d}, {}, {}, {}",
                    self.vop3_src(0),
                    self.vop3_src(1),
                    self.vop3_src(2)
                );
                if self.clamp {
                    s.push_str(" clamp");
                }
                if self.op_sel != 0 {
                    let bit = |i: u32| self.op_sel >> i & 1;
                    s.push_str(&format!(
                        " op_sel:[{},{},{},{}]",
                        bit(0),
                        bit(1),
                        bit(2),
                        bit(3)
                    ));
                }
                s.push_str(&format!(" wait_exp:{}", self.wait));
                s
            }
            _ => {
                let first = match self.param {
                    Some(_) => self.param_text().to_string(),
                    None => self.vop3_src(1),
                };
                let mut s = format!("{n} v{d}, {first}, {}", self.attr_text());
                if has_vop3_src2(self.op) {
                    s.push_str(", ");
                    s.push_str(&self.vop3_src(2));
                }
                if self.high {
                    s.push_str(" high");
                }
                if self.clamp {
                    s.push_str(" clamp");
                }
                s.push_str(OMOD.get(self.omod as usize).copied().unwrap_or(""));
                s
            }
        }
    }

    /// Raw fields by ISA name.
    pub fn fields(&self) -> Vec<Field> {
        let mut f = vec![Field::int("op", self.opcode), Field::int("vdst", self.vdst)];
        match self.encoding {
            Encoding::Vintrp => {
                let vsrc = self.ij.or(self.param).unwrap_or(0);
                f.push(Field::int("vsrc", vsrc));
                f.push(Field::int("attr", self.attr));
                f.push(Field::int("attrchan", self.chan));
            }
            Encoding::Ldsdir => {
                f.push(Field::int("attr", self.attr));
                f.push(Field::int("attrchan", self.chan));
                f.push(Field::int("wait_vdst", self.wait));
            }
            _ => {
                f.push(Field::int("src0", self.src[0]));
                f.push(Field::int("src1", self.src[1]));
                f.push(Field::int("src2", self.src[2]));
                f.push(Field::int("neg", self.neg));
                f.push(Field::int("clamp", u32::from(self.clamp)));
                f.push(Field::int("op_sel", self.op_sel));
                if self.encoding == Encoding::Vinterp {
                    f.push(Field::int("wait_exp", self.wait));
                } else {
                    f.push(Field::int("abs", self.abs));
                    f.push(Field::int("omod", self.omod));
                    f.push(Field::int("attr", self.attr));
                    f.push(Field::int("attrchan", self.chan));
                    f.push(Field::int("high", u32::from(self.high)));
                }
            }
        }
        f
    }
}

/// True when VOP3 opcode `op` is an interp on `gen`: its SRC0 field holds the
/// attribute, not a source operand (so 255 there is attr63.w, not a literal).
pub fn is_vop3_interp(gen: Gen, op: u32) -> bool {
    VOP3_INTERP.iter().any(|&(g, o, _, _)| g == gen && o == op)
}

/// Decodes an interpolation instruction; `None` when `words` is not one (so the
/// caller falls through to the generic classes).
pub fn decode(enc: Encoding, words: &[u32], arch: &Arch) -> Option<Result<Interp, String>> {
    let &w0 = words.first()?;
    match enc {
        Encoding::Vintrp => Some(decode_vintrp(w0, arch)),
        Encoding::Ldsdir => Some(decode_ldsdir(w0, arch.gen)),
        Encoding::Vinterp => Some(match words.get(1) {
            Some(&w1) => decode_vinterp(w0, w1, arch.gen),
            None => Err("truncated VINTERP".into()),
        }),
        Encoding::Vop3 => {
            let opcode = (w0 >> 16) & 0x3ff;
            let &(_, _, op, name) = VOP3_INTERP
                .iter()
                .find(|&&(g, o, _, _)| g == arch.gen && o == opcode)?;
            Some(match words.get(1) {
                Some(&w1) => decode_vop3(w0, w1, op, opcode, name, arch.gen),
                None => Err("truncated VOP3".into()),
            })
        }
        _ => None,
    }
}

fn decode_vintrp(w: u32, arch: &Arch) -> Result<Interp, String> {
    let opcode = (w >> 16) & 3;
    let &(op, base) = VINTRP_OPS
        .get(opcode as usize)
        .ok_or("VINTRP opcode 3 is not an instruction")?;
    // LLVM prints the `_e32` suffix from gfx8 on (VI added the VOP3 form).
    let name = if arch.gen >= Gen::Gfx8 {
        match op {
            InterpOp::P1F32 => "v_interp_p1_f32_e32",
            InterpOp::P2F32 => "v_interp_p2_f32_e32",
            _ => "v_interp_mov_f32_e32",
        }
    } else {
        base
    };
    let mut i = Interp::new(Encoding::Vintrp, op, opcode, name, arch.gen);
    let vsrc = w & 0xff;
    i.vdst = (w >> 18) & 0xff;
    i.attr = (w >> 10) & 0x3f;
    i.chan = (w >> 8) & 3;
    if op == InterpOp::MovF32 {
        if vsrc > 2 {
            return Err(format!(
                "v_interp_mov_f32 parameter select {vsrc} (0-2 only)"
            ));
        }
        i.param = Some(vsrc);
    } else {
        i.ij = Some(vsrc);
    }
    Ok(i)
}

fn decode_ldsdir(w: u32, gen: Gen) -> Result<Interp, String> {
    let opcode = (w >> 20) & 0xf;
    let &(op, name) = LDSDIR_OPS
        .get(opcode as usize)
        .ok_or_else(|| format!("LDSDIR opcode {opcode} is not an instruction"))?;
    let mut i = Interp::new(Encoding::Ldsdir, op, opcode, name, gen);
    i.vdst = w & 0xff;
    i.wait = (w >> 16) & 0xf;
    // lds_direct_load has no attribute operand: LLVM ignores bits 15:8.
    if op == InterpOp::LdsParamLoad {
        i.attr = (w >> 10) & 0x3f;
        i.chan = (w >> 8) & 3;
    }
    Ok(i)
}

/// The special registers llvm-mc-19 accepts (and prints by name, without an
/// "Invalid register" comment) in the VGPR slots of the VOP3 interps: `null`
/// (125 on gfx8–gfx10), 235–239 and 251–253 (found by sweeping SRC1 of
/// v_interp_p1_f32_e64 on tonga, gfx900 and gfx1030). Such an operand has no
/// VGPR, so `ij`/`vsrc2` are `None` for it and the interpreter must refuse it.
///
/// gfx11 VINTERP accepts the same set, with gfx11's `null` code (124).
pub fn special_src(code: u32, gen: Gen) -> Option<&'static str> {
    let null = if gen == Gen::Gfx11 { 124 } else { 125 };
    Some(match code {
        c if c == null => "null",
        235 => "src_shared_base",
        236 => "src_shared_limit",
        237 => "src_private_base",
        238 => "src_private_limit",
        239 => "src_pops_exiting_wave_id",
        251 => "src_vccz",
        252 => "src_execz",
        253 => "src_scc",
        _ => return None,
    })
}

/// The VOP3 interps with a second VGPR source (SRC2).
fn has_vop3_src2(op: InterpOp) -> bool {
    matches!(
        op,
        InterpOp::P1lvF16 | InterpOp::P2F16 | InterpOp::P2LegacyF16
    )
}

/// A VOP3 interp VGPR slot: `Some(vgpr)`, `None` for a special register LLVM
/// accepts there, or an error.
fn vgpr_slot(src: u32, gen: Gen, what: &str) -> Result<Option<u32>, String> {
    match src.checked_sub(VGPR0) {
        Some(v) => Ok(Some(v)),
        None if special_src(src, gen).is_some() => Ok(None),
        None => Err(format!("{what} must be a VGPR (source code {src})")),
    }
}

fn decode_vinterp(w0: u32, w1: u32, gen: Gen) -> Result<Interp, String> {
    // OP is bits 22:16; LLVM ignores bit 23 and bits 60:59 (llvm-mc-19 gfx1100).
    let opcode = (w0 >> 16) & 0x7f;
    let &(op, name) = VINTERP_OPS
        .get(opcode as usize)
        .ok_or_else(|| format!("VINTERP opcode {opcode} is not an instruction"))?;
    let mut i = Interp::new(Encoding::Vinterp, op, opcode, name, gen);
    i.vdst = w0 & 0xff;
    i.wait = (w0 >> 8) & 7;
    i.op_sel = (w0 >> 11) & 0xf;
    i.clamp = w0 >> 15 & 1 != 0;
    i.src = [w1 & 0x1ff, (w1 >> 9) & 0x1ff, (w1 >> 18) & 0x1ff];
    i.neg = w1 >> 29;
    let f16 = !matches!(op, InterpOp::P10F32 | InterpOp::P2F32Vinterp);
    if !f16 && i.op_sel != 0 {
        return Err(format!("{name} takes no op_sel"));
    }
    i.vsrcs = [
        vgpr_slot(i.src[0], gen, "src0")?,
        vgpr_slot(i.src[1], gen, "src1")?,
        vgpr_slot(i.src[2], gen, "src2")?,
    ];
    Ok(i)
}

fn decode_vop3(
    w0: u32,
    w1: u32,
    op: InterpOp,
    opcode: u32,
    name: &'static str,
    gen: Gen,
) -> Result<Interp, String> {
    let mut i = Interp::new(Encoding::Vop3, op, opcode, name, gen);
    i.vdst = w0 & 0xff;
    i.abs = (w0 >> 8) & 7;
    i.op_sel = (w0 >> 11) & 0xf;
    i.clamp = w0 >> 15 & 1 != 0;
    i.src = [w1 & 0x1ff, (w1 >> 9) & 0x1ff, (w1 >> 18) & 0x1ff];
    i.omod = (w1 >> 27) & 3;
    i.neg = w1 >> 29;
    let [s0, s1, s2] = i.src;
    i.attr = s0 & 0x3f;
    i.chan = (s0 >> 6) & 3;
    i.high = s0 >> 8 != 0;
    let f16 = matches!(
        op,
        InterpOp::P1llF16 | InterpOp::P1lvF16 | InterpOp::P2F16 | InterpOp::P2LegacyF16
    );
    if i.high && !f16 {
        return Err(format!("{name} has no high operand"));
    }
    if (i.neg | i.abs) & 1 != 0 {
        return Err("the attribute operand takes no neg/abs".into());
    }
    let has_src2 = has_vop3_src2(op);
    // The f16 p2 results are f16: LLVM accepts no output modifier on them.
    if i.omod != 0 && matches!(op, InterpOp::P2F16 | InterpOp::P2LegacyF16) {
        return Err(format!("{name} takes no output modifier"));
    }
    if has_src2 {
        i.vsrc2 = vgpr_slot(s2, gen, "src2")?;
    } else if s2 != 0 || (i.neg | i.abs) & 4 != 0 {
        return Err(format!("{name} has no src2"));
    }
    if op == InterpOp::MovF32 {
        if s1 > 2 || (i.neg | i.abs) & 2 != 0 {
            return Err(format!("v_interp_mov_f32 parameter select {s1} (0-2 only)"));
        }
        i.param = Some(s1);
    } else {
        i.ij = vgpr_slot(s1, gen, "src1")?;
    }
    Ok(i)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gcn::encoding::classify;

    fn text(mcpu: &str, words: &[u32]) -> Result<String, String> {
        let arch = Arch::parse(mcpu).unwrap();
        let enc = classify(words, &arch);
        decode(enc, words, &arch)
            .expect("an interp")
            .map(|i| i.text())
    }

    /// Encodings and texts printed by llvm-mc-19 (see the corpus and module docs).
    #[test]
    fn llvm_examples() {
        let cases: &[(&str, &[u32], &str)] = &[
            ("tahiti", &[0xc814_0001], "v_interp_p1_f32 v5, v1, attr0.x"),
            (
                "tonga",
                &[0xd7fe_1f02],
                "v_interp_mov_f32_e32 v255, p0, attr7.w",
            ),
            (
                "gfx900",
                &[0xd274_8005, 0x0802_0500],
                "v_interp_p1ll_f16 v5, v2, attr0.x high clamp mul:2",
            ),
            (
                "gfx1030",
                &[0xd75a_8405, 0x440e_04e0],
                "v_interp_p2_f16 v5, -v2, attr32.w, |v3| clamp",
            ),
            (
                "gfx1100",
                &[0xcd00_8005, 0xe412_0702],
                "v_interp_p10_f32 v5, -v2, -v3, -v4 clamp wait_exp:0",
            ),
            (
                "gfx1100",
                &[0xce0f_8301],
                "lds_param_load v1, attr32.w wait_vdst:15",
            ),
            ("gfx1100", &[0xce12_0001], "lds_direct_load v1 wait_vdst:2"),
        ];
        for &(mcpu, words, want) in cases {
            assert_eq!(text(mcpu, words).as_deref(), Ok(want), "{mcpu} {words:x?}");
        }
    }

    /// Encodings llvm-mc-19 rejects (or prints only with an "invalid" operand).
    #[test]
    fn llvm_rejects() {
        let cases: &[(&str, &[u32])] = &[
            ("tonga", &[0xd403_0001]),                // VINTRP opcode 3
            ("tonga", &[0xd402_0003]),                // mov select 3
            ("gfx900", &[0xd274_0005, 0x2002_0400]),  // neg on the attribute
            ("gfx900", &[0xd270_0005, 0x0002_0500]),  // high on an f32 op
            ("gfx1100", &[0xcd00_7805, 0x0412_0702]), // op_sel on p10_f32
            ("gfx1100", &[0xcd06_0005, 0x0412_0702]), // VINTERP opcode 6
            ("gfx1100", &[0xce20_0001]),              // LDSDIR opcode 2
        ];
        for &(mcpu, words) in cases {
            assert!(text(mcpu, words).is_err(), "{mcpu} {words:x?}");
        }
    }

    #[test]
    fn non_interp_vop3_is_none() {
        let arch = Arch::parse("gfx900").unwrap();
        // v_mov_b32_e64 (VOP3 0x141) is not an interp.
        assert!(decode(Encoding::Vop3, &[0xd141_0005, 0x101], &arch).is_none());
        assert!(decode(Encoding::Sop1, &[0xbe80_0000], &arch).is_none());
    }
}
