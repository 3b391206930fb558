//! SOPP: program control (`s_endpgm`, `s_waitcnt`, `s_nop`, `s_branch`, …).
//!
//! One dword: bits 31:23 = `0x17F`, OP 22:16, SIMM16 15:0. The opcode → name
//! tables are the generated per-generation tables ([`super::ops_tables`]); how
//! LLVM 19 prints SIMM16 depends only on the instruction, and is described by
//! [`FORMATS`]. Every format rule below was established by sweeping SIMM16
//! through `llvm-mc-19 -disassemble` on tonga, gfx900, gfx1030 and gfx1100.

use super::{ops, Encoding, Field};
use crate::arch::{Arch, Gen};

/// How an instruction's SIMM16 operand is printed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Simm {
    /// No operand; LLVM rejects a non-zero SIMM16.
    None,
    /// Decimal up to 64, hex above (LLVM prints u16 immediates this way).
    U16,
    /// Always hex (`s_clause 0x0`).
    Hex,
    /// Unsigned decimal (branch offsets are printed raw, not as targets).
    Dec,
    /// `s_endpgm`: nothing for 0, else unsigned decimal.
    Endpgm,
    /// `s_waitcnt vmcnt(..) expcnt(..) lgkmcnt(..)`.
    Waitcnt,
    /// `sendmsg(MSG_…, OP, stream)`.
    Sendmsg,
    /// `gpr_idx(SRC0,…)`.
    GprIdx,
    /// `depctr_*(n)` fields of `s_waitcnt_depctr`.
    Depctr,
    /// `instid0(…) | instskip(…) | instid1(…)` of gfx11 `s_delay_alu`.
    DelayAlu,
}

/// Operand format per mnemonic; names not listed print as [`Simm::U16`].
pub const FORMATS: &[(&str, Simm)] = &[
    ("s_endpgm", Simm::Endpgm),
    ("s_branch", Simm::Dec),
    ("s_cbranch_scc0", Simm::Dec),
    ("s_cbranch_scc1", Simm::Dec),
    ("s_cbranch_vccz", Simm::Dec),
    ("s_cbranch_vccnz", Simm::Dec),
    ("s_cbranch_execz", Simm::Dec),
    ("s_cbranch_execnz", Simm::Dec),
    ("s_cbranch_cdbgsys", Simm::Dec),
    ("s_cbranch_cdbguser", Simm::Dec),
    ("s_cbranch_cdbgsys_or_user", Simm::Dec),
    ("s_cbranch_cdbgsys_and_user", Simm::Dec),
    ("s_wakeup", Simm::None),
    ("s_barrier", Simm::None),
    ("s_icache_inv", Simm::None),
    ("s_ttracedata", Simm::None),
    ("s_endpgm_saved", Simm::None),
    ("s_set_gpr_idx_off", Simm::None),
    ("s_endpgm_ordered_ps_done", Simm::None),
    ("s_code_end", Simm::None),
    ("s_wait_idle", Simm::None),
    ("s_inst_prefetch", Simm::Hex),
    ("s_set_inst_prefetch_distance", Simm::Hex),
    ("s_clause", Simm::Hex),
    ("s_round_mode", Simm::Hex),
    ("s_ttracedata_imm", Simm::Hex),
    ("s_wait_event", Simm::Hex),
    ("s_waitcnt", Simm::Waitcnt),
    ("s_sendmsg", Simm::Sendmsg),
    ("s_sendmsghalt", Simm::Sendmsg),
    ("s_set_gpr_idx_mode", Simm::GprIdx),
    ("s_waitcnt_depctr", Simm::Depctr),
    ("s_delay_alu", Simm::DelayAlu),
];

/// The format of a mnemonic's operand.
pub fn format_of(name: &str) -> Simm {
    FORMATS
        .iter()
        .find(|(n, _)| *n == name)
        .map_or(Simm::U16, |&(_, f)| f)
}

/// A decoded SOPP instruction.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Sopp {
    /// Opcode (bits 22:16).
    pub op: u32,
    /// SIMM16 (bits 15:0).
    pub simm16: u32,
    /// Mnemonic.
    pub name: &'static str,
    /// The generation (the meaning of SIMM16 of waitcnt/sendmsg depends on it).
    pub gen: Gen,
}

impl Sopp {
    /// The mnemonic.
    pub fn mnemonic(&self) -> &str {
        self.name
    }

    /// LLVM 19 syntax.
    pub fn text(&self) -> String {
        let operand = operand_text(format_of(self.name), self.simm16, self.gen);
        if operand.is_empty() {
            self.name.to_string()
        } else {
            format!("{} {operand}", self.name)
        }
    }

    /// Raw fields.
    pub fn fields(&self) -> Vec<Field> {
        vec![Field::int("op", self.op), Field::int("simm16", self.simm16)]
    }

    /// The `s_waitcnt` counters (vmcnt, expcnt, lgkmcnt) this SIMM16 encodes.
    pub fn waitcnt(&self) -> Waitcnt {
        Waitcnt::decode(self.simm16, self.gen)
    }
}

/// Decodes one SOPP dword.
pub fn decode(words: &[u32], arch: &Arch) -> Result<Sopp, String> {
    let w = *words.first().ok_or("no words")?;
    let op = (w >> 16) & 0x7f;
    let simm16 = w & 0xffff;
    let name = ops::name(arch.gen, Encoding::Sopp, op)
        .ok_or_else(|| format!("unknown SOPP opcode {op:#x} on {}", arch.gen.name()))?;
    if format_of(name) == Simm::None && simm16 != 0 {
        return Err(format!("{name} takes no operand (simm16 {simm16:#x})"));
    }
    Ok(Sopp {
        op,
        simm16,
        name,
        gen: arch.gen,
    })
}

fn hex(v: u32) -> String {
    format!("0x{v:x}")
}

/// The text of SIMM16 in format `f`; empty when nothing is printed.
pub fn operand_text(f: Simm, v: u32, gen: Gen) -> String {
    match f {
        Simm::None => String::new(),
        Simm::U16 if v <= 64 => v.to_string(),
        Simm::U16 | Simm::Hex => hex(v),
        Simm::Dec => v.to_string(),
        Simm::Endpgm if v == 0 => String::new(),
        Simm::Endpgm => v.to_string(),
        Simm::Waitcnt => Waitcnt::decode(v, gen).text(gen),
        Simm::Sendmsg => sendmsg_text(v, gen),
        Simm::GprIdx => gpr_idx_text(v),
        Simm::Depctr => depctr_text(v),
        Simm::DelayAlu => delay_alu_text(v),
    }
}

/// The three counters of `s_waitcnt`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Waitcnt {
    /// Vector memory operations outstanding.
    pub vmcnt: u32,
    /// Exports / GDS outstanding.
    pub expcnt: u32,
    /// LDS, GDS, constant and message operations outstanding.
    pub lgkmcnt: u32,
}

impl Waitcnt {
    /// The largest value of each counter (= "don't wait") on `gen`.
    pub fn max(gen: Gen) -> Waitcnt {
        let (vmcnt, lgkmcnt) = match gen {
            Gen::Gfx6 | Gen::Gfx7 | Gen::Gfx8 => (15, 15),
            Gen::Gfx9 => (63, 15),
            Gen::Gfx10 | Gen::Gfx11 => (63, 63),
        };
        Waitcnt {
            vmcnt,
            expcnt: 7,
            lgkmcnt,
        }
    }

    /// Decodes SIMM16. Layouts (AMD ISA manuals; LLVM `AMDGPUBaseInfo`
    /// `getVmcntBitShiftLo` etc.; checked with llvm-mc-19): gfx6–8 vmcnt 3:0,
    /// expcnt 6:4, lgkmcnt 11:8; gfx9 adds vmcnt\[5:4\] in bits 15:14; gfx10 widens
    /// lgkmcnt to 13:8; gfx11 moves to expcnt 2:0, lgkmcnt 9:4, vmcnt 15:10.
    pub fn decode(v: u32, gen: Gen) -> Waitcnt {
        match gen {
            Gen::Gfx6 | Gen::Gfx7 | Gen::Gfx8 => Waitcnt {
                vmcnt: v & 0xf,
                expcnt: (v >> 4) & 7,
                lgkmcnt: (v >> 8) & 0xf,
            },
            Gen::Gfx9 | Gen::Gfx10 => Waitcnt {
                vmcnt: (v & 0xf) | ((v >> 14) & 3) << 4,
                expcnt: (v >> 4) & 7,
                lgkmcnt: (v >> 8) & if gen == Gen::Gfx9 { 0xf } else { 0x3f },
            },
            Gen::Gfx11 => Waitcnt {
                vmcnt: (v >> 10) & 0x3f,
                expcnt: v & 7,
                lgkmcnt: (v >> 4) & 0x3f,
            },
        }
    }

    /// LLVM prints each counter that is not at its maximum, or all three when
    /// every counter is at its maximum.
    pub fn text(&self, gen: Gen) -> String {
        let max = Waitcnt::max(gen);
        let all = *self == max;
        let mut parts = Vec::new();
        if all || self.vmcnt != max.vmcnt {
            parts.push(format!("vmcnt({})", self.vmcnt));
        }
        if all || self.expcnt != max.expcnt {
            parts.push(format!("expcnt({})", self.expcnt));
        }
        if all || self.lgkmcnt != max.lgkmcnt {
            parts.push(format!("lgkmcnt({})", self.lgkmcnt));
        }
        parts.join(" ")
    }
}

/// Message names by id, per generation (LLVM AMDGPUAsmUtils `MsgOperands`,
/// checked by sweeping ids through llvm-mc-19 on tonga/gfx900/gfx1030/gfx1100;
/// gfx6/gfx7 assumed to be gfx8's set without MSG_SAVEWAVE, which LLVM gates on
/// gfx8+).
fn msg_name(id: u32, gen: Gen) -> Option<&'static str> {
    if gen == Gen::Gfx11 {
        return Some(match id {
            1 => "MSG_INTERRUPT",
            2 => "MSG_HS_TESSFACTOR",
            3 => "MSG_DEALLOC_VGPRS",
            5 => "MSG_STALL_WAVE_GEN",
            6 => "MSG_HALT_WAVES",
            9 => "MSG_GS_ALLOC_REQ",
            0x80 => "MSG_RTN_GET_DOORBELL",
            0x81 => "MSG_RTN_GET_DDID",
            0x82 => "MSG_RTN_GET_TMA",
            0x83 => "MSG_RTN_GET_REALTIME",
            0x84 => "MSG_RTN_SAVE_WAVE",
            0x85 => "MSG_RTN_GET_TBA",
            0x86 => "MSG_RTN_GET_TBA_TO_PC",
            _ => return None,
        });
    }
    let gfx9_plus = gen >= Gen::Gfx9;
    Some(match id {
        1 => "MSG_INTERRUPT",
        2 => "MSG_GS",
        3 => "MSG_GS_DONE",
        4 if gen >= Gen::Gfx8 => "MSG_SAVEWAVE",
        5 if gfx9_plus => "MSG_STALL_WAVE_GEN",
        6 if gfx9_plus => "MSG_HALT_WAVES",
        7 if gfx9_plus => "MSG_ORDERED_PS_DONE",
        8 if gfx9_plus => "MSG_EARLY_PRIM_DEALLOC",
        9 if gfx9_plus => "MSG_GS_ALLOC_REQ",
        10 if gfx9_plus => "MSG_GET_DOORBELL",
        11 if gen == Gen::Gfx10 => "MSG_GET_DDID",
        15 => "MSG_SYSMSG",
        _ => return None,
    })
}

const GS_OPS: [&str; 4] = ["GS_OP_NOP", "GS_OP_CUT", "GS_OP_EMIT", "GS_OP_EMIT_CUT"];
const SYSMSG_OPS: [&str; 5] = [
    "",
    "SYSMSG_OP_ECC_ERR_INTERRUPT",
    "SYSMSG_OP_REG_RD",
    "SYSMSG_OP_HOST_TRAP_ACK",
    "SYSMSG_OP_TTRACE_PC",
];

/// `sendmsg(...)` as LLVM prints it. Pre-gfx11 SIMM16 is id 3:0, op 6:4, stream
/// 9:8; gfx11 is an 8-bit id with no op or stream. A known message with a valid
/// op/stream prints by name (other bits ignored); otherwise, if the fields
/// re-encode to SIMM16 exactly, `sendmsg(id, op, stream)`; otherwise decimal.
pub(crate) fn sendmsg_text(v: u32, gen: Gen) -> String {
    let (id, op, stream) = if gen == Gen::Gfx11 {
        (v & 0xff, 0, 0)
    } else {
        (v & 0xf, (v >> 4) & 7, (v >> 8) & 3)
    };
    if let Some(name) = msg_name(id, gen) {
        let is_gs = gen != Gen::Gfx11 && (id == 2 || id == 3);
        let is_sys = gen != Gen::Gfx11 && id == 15;
        let named = if is_gs {
            let op_ok = if id == 2 {
                (1..=3).contains(&op)
            } else {
                op <= 3
            };
            // GS_OP_NOP (valid only with MSG_GS_DONE) takes no stream.
            (op_ok && (op != 0 || stream == 0)).then(|| {
                let op_name = GS_OPS[op as usize];
                if op == 0 {
                    format!("sendmsg({name}, {op_name})")
                } else {
                    format!("sendmsg({name}, {op_name}, {stream})")
                }
            })
        } else if is_sys {
            // SYSMSG_OP_HOST_TRAP_ACK (3) is gone from gfx9 on (llvm-mc-19 prints
            // `sendmsg(15, 3, 0)` and rejects the name there).
            let op_ok = (1..=4).contains(&op) && (op != 3 || gen <= Gen::Gfx8);
            (op_ok && stream == 0).then(|| format!("sendmsg({name}, {})", SYSMSG_OPS[op as usize]))
        } else {
            (op == 0 && stream == 0).then(|| format!("sendmsg({name})"))
        };
        if let Some(t) = named {
            return t;
        }
    }
    if id | op << 4 | stream << 8 == v {
        format!("sendmsg({id}, {op}, {stream})")
    } else {
        v.to_string()
    }
}

/// `gpr_idx(SRC0,SRC1,SRC2,DST)` for the enable bits 3:0; other values in hex.
pub(crate) fn gpr_idx_text(v: u32) -> String {
    if v > 0xf {
        return hex(v);
    }
    let names = ["SRC0", "SRC1", "SRC2", "DST"];
    let set: Vec<&str> = (0..4)
        .filter(|i| v >> i & 1 != 0)
        .map(|i| names[i])
        .collect();
    format!("gpr_idx({})", set.join(","))
}

/// `s_waitcnt_depctr` fields in LLVM's print order: name, shift, width, default
/// (the value that means "no wait"). Bits 6:5 belong to no field: a SIMM16 with
/// them set prints in hex. Verified bit by bit with llvm-mc-19 (gfx1030/gfx1100).
const DEPCTR: [(&str, u32, u32, u32); 7] = [
    ("depctr_hold_cnt", 7, 1, 1),
    ("depctr_sa_sdst", 0, 1, 1),
    ("depctr_va_vdst", 12, 4, 15),
    ("depctr_va_sdst", 9, 3, 7),
    ("depctr_va_ssrc", 8, 1, 1),
    ("depctr_va_vcc", 1, 1, 1),
    ("depctr_vm_vsrc", 2, 3, 7),
];

/// The fields that differ from their default, or all of them when none does.
fn depctr_text(v: u32) -> String {
    if v & 0x60 != 0 {
        return hex(v);
    }
    let vals: Vec<(&str, u32, bool)> = DEPCTR
        .iter()
        .map(|&(n, sh, w, def)| {
            let x = (v >> sh) & ((1 << w) - 1);
            (n, x, x == def)
        })
        .collect();
    let any_non_default = vals.iter().any(|&(_, _, d)| !d);
    vals.iter()
        .filter(|&&(_, _, d)| !d || !any_non_default)
        .map(|&(n, x, _)| format!("{n}({x})"))
        .collect::<Vec<_>>()
        .join(" ")
}

/// gfx11 `s_delay_alu` dependency names (instid 0–11) and skip names (0–5).
const INSTID: [&str; 12] = [
    "NO_DEP",
    "VALU_DEP_1",
    "VALU_DEP_2",
    "VALU_DEP_3",
    "VALU_DEP_4",
    "TRANS32_DEP_1",
    "TRANS32_DEP_2",
    "TRANS32_DEP_3",
    "FMA_ACCUM_CYCLE_1",
    "SALU_CYCLE_1",
    "SALU_CYCLE_2",
    "SALU_CYCLE_3",
];
const INSTSKIP: [&str; 6] = ["SAME", "NEXT", "SKIP_1", "SKIP_2", "SKIP_3", "SKIP_4"];

/// instid0 3:0, instskip 6:4, instid1 10:7; zero parts are omitted, all zero
/// prints `0`, bits 15:11 are ignored (llvm-mc-19 -mcpu=gfx1100).
fn delay_alu_text(v: u32) -> String {
    let id0 = v & 0xf;
    let skip = (v >> 4) & 7;
    let id1 = (v >> 7) & 0xf;
    let id = |x: u32| {
        INSTID
            .get(x as usize)
            .copied()
            .unwrap_or("/* invalid instid value */")
    };
    let mut parts = Vec::new();
    if id0 != 0 {
        parts.push(format!("instid0({})", id(id0)));
    }
    if skip != 0 {
        let s = INSTSKIP
            .get(skip as usize)
            .copied()
            .unwrap_or("/* invalid instskip value */");
        parts.push(format!("instskip({s})"));
    }
    if id1 != 0 {
        parts.push(format!("instid1({})", id(id1)));
    }
    if parts.is_empty() {
        "0".to_string()
    } else {
        parts.join(" | ")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text(mcpu: &str, w: u32) -> Result<String, String> {
        decode(&[w], &Arch::parse(mcpu).unwrap()).map(|s| s.text())
    }

    /// Texts printed by llvm-mc-19 -disassemble for these words.
    #[test]
    fn llvm_examples() {
        let cases = [
            (
                "tonga",
                0xbf8c_1234,
                "s_waitcnt vmcnt(4) expcnt(3) lgkmcnt(2)",
            ),
            ("tonga", 0xbf8c_0f70, "s_waitcnt vmcnt(0)"),
            ("gfx900", 0xbf8c_cf70, "s_waitcnt vmcnt(48)"),
            (
                "gfx1100",
                0xbf89_1234,
                "s_waitcnt vmcnt(4) expcnt(4) lgkmcnt(35)",
            ),
            ("tonga", 0xbf81_0000, "s_endpgm"),
            ("gfx1100", 0xbfb0_0001, "s_endpgm 1"),
            ("tonga", 0xbf82_ffff, "s_branch 65535"),
            ("tonga", 0xbf80_0041, "s_nop 0x41"),
            ("tonga", 0xbf80_0040, "s_nop 64"),
            (
                "tonga",
                0xbf90_0083,
                "s_sendmsg sendmsg(MSG_GS_DONE, GS_OP_NOP)",
            ),
            ("tonga", 0xbf90_0103, "s_sendmsg sendmsg(3, 0, 1)"),
            ("tonga", 0xbf90_1234, "s_sendmsg 4660"),
            (
                "tonga",
                0xbf90_0192,
                "s_sendmsg sendmsg(MSG_GS, GS_OP_CUT, 1)",
            ),
            (
                "gfx1100",
                0xbfb6_0181,
                "s_sendmsg sendmsg(MSG_RTN_GET_DDID)",
            ),
            ("gfx1100", 0xbfb6_0010, "s_sendmsg sendmsg(16, 0, 0)"),
            (
                "tonga",
                0xbf9d_000f,
                "s_set_gpr_idx_mode gpr_idx(SRC0,SRC1,SRC2,DST)",
            ),
            (
                "gfx1100",
                0xbf87_1234,
                "s_delay_alu instid0(VALU_DEP_4) | instskip(SKIP_2) | instid1(VALU_DEP_4)",
            ),
            ("gfx1100", 0xbf87_0800, "s_delay_alu 0"),
            ("gfx1100", 0xbf88_fffe, "s_waitcnt_depctr 0xfffe"),
            (
                "gfx1100",
                0xbf88_0004,
                "s_waitcnt_depctr depctr_hold_cnt(0) depctr_sa_sdst(0) depctr_va_vdst(0) \
                 depctr_va_sdst(0) depctr_va_ssrc(0) depctr_va_vcc(0) depctr_vm_vsrc(1)",
            ),
            ("gfx1030", 0xbfa1_0001, "s_clause 0x1"),
        ];
        for (mcpu, w, want) in cases {
            assert_eq!(text(mcpu, w).as_deref(), Ok(want), "{mcpu} {w:#x}");
        }
    }

    #[test]
    fn llvm_rejects() {
        // s_barrier with an operand; opcode 0x7f; s_set_gpr_idx_mode on gfx10.
        for (mcpu, w) in [
            ("tonga", 0xbf8a_0001),
            ("tonga", 0xbfff_0000),
            ("gfx1030", 0xbf9d_0000),
        ] {
            assert!(text(mcpu, w).is_err(), "{mcpu} {w:#x}");
        }
    }
}
