//! LDS/GDS: DS instructions, operand by operand.
//!
//! Layout (two dwords): OFFSET0 7:0, OFFSET1 15:8, GDS 16 (gfx8/gfx9) or 17
//! (gfx6/gfx7, gfx10+), OP 24:17 (gfx8/gfx9) or 25:18; ADDR 39:32, DATA0
//! 47:40, DATA1 55:48, VDST 63:56. Operands come from the signature rows; the
//! offset prints as `offset:N` (16 bits), `offset0:N offset1:M` for the
//! two-address forms, or `offset:swizzle(…)` for `ds_swizzle_b32` (LLVM
//! `printSwizzle`), then `gds`.

use super::encoded::Encoded;
use super::operand::TypedOperand;
use super::signature::{row_flags, Fld, Form};
use super::Field;
use crate::arch::{Arch, Gen};

/// A decoded DS instruction: its raw encoding and, filled when it is decoded,
/// its operands as LLVM prints them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Ds {
    /// Form, signature row, raw bits.
    pub enc: Encoded,
    /// The mnemonic.
    pub name: &'static str,
    /// VDST: the VGPRs written (loads, returning atomics), where the opcode has
    /// them.
    pub vdst: Option<TypedOperand>,
    /// ADDR: the LDS/GDS byte address VGPR.
    pub addr: Option<TypedOperand>,
    /// DATA0: the data written or the atomic's operand.
    pub data0: Option<TypedOperand>,
    /// DATA1: the second data operand (write2, compare-and-swap).
    pub data1: Option<TypedOperand>,
    /// The 16-bit byte offset (single-address forms; `ds_swizzle_b32`'s
    /// pattern); 0 where the opcode has none.
    pub offset: u16,
    /// OFFSET0 and OFFSET1 of the two-address forms (`ds_read2*`,
    /// `ds_write2*`, …), in elements (×64 elements for `*st64`).
    pub offset2: Option<(u8, u8)>,
    /// GDS: the access goes to global data share.
    pub gds: bool,
}

impl Ds {
    /// The instruction of `enc`, its decoded fields filled.
    fn new(enc: Encoded) -> Ds {
        let mut x = Ds {
            enc,
            name: enc.row.name,
            vdst: None,
            addr: None,
            data0: None,
            data1: None,
            offset: 0,
            offset2: None,
            gds: false,
        };
        for o in enc.operands() {
            match o.field {
                Fld::Vdst => x.vdst = Some(o),
                Fld::Addr => x.addr = Some(o),
                Fld::Data0 => x.data0 = Some(o),
                Fld::Data1 => x.data1 = Some(o),
                _ => {}
            }
        }
        if enc.row.flags & row_flags::DS_OFFSET2 != 0 {
            x.offset2 = Some((x.offset0() as u8, x.offset1() as u8));
        } else {
            x.offset = x.offset() as u16;
        }
        x.gds = x.gds();
        x
    }

    /// The opcode.
    pub fn op(&self) -> u32 {
        self.enc.op()
    }

    /// The mnemonic.
    pub fn mnemonic(&self) -> &'static str {
        self.enc.row.name
    }

    /// OFFSET0 (0 where the opcode has no offset).
    pub fn offset0(&self) -> u32 {
        self.enc.printed_bits(0, 8)
    }

    /// OFFSET1.
    pub fn offset1(&self) -> u32 {
        self.enc.printed_bits(8, 8)
    }

    /// The 16-bit offset of the single-address forms.
    pub fn offset(&self) -> u32 {
        self.enc.printed_bits(0, 16)
    }

    /// GDS.
    pub fn gds(&self) -> bool {
        let b = if matches!(self.enc.gen, Gen::Gfx8 | Gen::Gfx9) {
            16
        } else {
            17
        };
        self.enc.bit(b) && self.enc.row.bits.ignored >> b & 1 == 0
    }

    /// The register operands, typed.
    pub fn operands(&self) -> Vec<TypedOperand> {
        self.enc.operands()
    }

    /// LLVM 19 syntax.
    pub fn text(&self) -> String {
        let parts: Vec<String> = self
            .enc
            .row
            .opds
            .iter()
            .filter(|s| s.field != Fld::Imm)
            .map(|s| self.enc.slot_text(s))
            .collect();
        let mut t = self.mnemonic().to_string();
        if !parts.is_empty() {
            t.push(' ');
            t.push_str(&parts.join(", "));
        }
        let flags = self.enc.row.flags;
        if flags & row_flags::DS_OFFSET2 != 0 {
            if self.offset0() != 0 {
                t.push_str(&format!(" offset0:{}", self.offset0()));
            }
            if self.offset1() != 0 {
                t.push_str(&format!(" offset1:{}", self.offset1()));
            }
        } else if flags & row_flags::DS_SWIZZLE != 0 {
            let v = self.offset();
            if self.enc.gen <= Gen::Gfx7 && !swizzle_round_trips(v) {
                // SI/CI text must reassemble: a bitmask LLVM's assembler would
                // encode differently prints as the number.
                t.push_str(&format!(" offset:{v}"));
            } else {
                t.push_str(&swizzle_text(v));
            }
        } else if self.offset() != 0 {
            t.push_str(&format!(" offset:{}", self.offset()));
        }
        if self.gds() {
            t.push_str(" gds");
        }
        t
    }

    /// Raw fields.
    pub fn fields(&self) -> Vec<Field> {
        let e = &self.enc;
        vec![
            Field::int("op", self.op()),
            Field::int("offset0", self.offset0()),
            Field::int("offset1", self.offset1()),
            Field::int("gds", u32::from(self.gds())),
            Field::int("addr", e.bits(32, 8)),
            Field::int("data0", e.bits(40, 8)),
            Field::int("data1", e.bits(48, 8)),
            Field::int("vdst", e.bits(56, 8)),
        ]
    }
}

/// ` offset:swizzle(…)` for a `ds_swizzle_b32` offset (LLVM `printSwizzle`):
/// QUAD_PERM when bits 15:8 are `0x80`, otherwise (bit 15 clear) a bitmask
/// permutation shown as SWAP, REVERSE, BROADCAST or BITMASK_PERM; other values
/// in decimal; nothing for 0.
pub fn swizzle_text(v: u32) -> String {
    if v == 0 {
        return String::new();
    }
    let body = if v & 0xff00 == 0x8000 {
        format!(
            "swizzle(QUAD_PERM,{},{},{},{})",
            v & 3,
            (v >> 2) & 3,
            (v >> 4) & 3,
            (v >> 6) & 3
        )
    } else if v & 0x8000 == 0 {
        let and = v & 0x1f;
        let or = (v >> 5) & 0x1f;
        let xor = (v >> 10) & 0x1f;
        if and == 0x1f && or == 0 && xor.count_ones() == 1 {
            format!("swizzle(SWAP,{xor})")
        } else if and == 0x1f && or == 0 && xor > 0 && (xor + 1).is_power_of_two() {
            format!("swizzle(REVERSE,{})", xor + 1)
        } else {
            let group = 0x1f - and + 1;
            if group > 1 && group.is_power_of_two() && or < group && xor == 0 {
                format!("swizzle(BROADCAST,{group},{or})")
            } else {
                let p0 = (or) ^ xor;
                let p1 = ((0x1f & and) | or) ^ xor;
                let mask: String = (0..5)
                    .rev()
                    .map(|i| match ((p0 >> i) & 1, (p1 >> i) & 1) {
                        (0, 0) => '0',
                        (1, 1) => '1',
                        (0, _) => 'p',
                        _ => 'i',
                    })
                    .collect();
                format!("swizzle(BITMASK_PERM,\"{mask}\")")
            }
        }
    } else {
        v.to_string()
    };
    format!(" offset:{body}")
}

/// True when llvm-mc-19 assembles `swizzle_text(v)` back to `v`: every form
/// but a BITMASK_PERM whose masks are not the ones its `"01pi"` string encodes
/// (bit by bit: `0` none, `1` OR, `p` AND, `i` AND and XOR).
pub fn swizzle_round_trips(v: u32) -> bool {
    let t = swizzle_text(v);
    if !t.contains("BITMASK_PERM") {
        return true;
    }
    let (and, or, xor) = (v & 0x1f, (v >> 5) & 0x1f, (v >> 10) & 0x1f);
    (0..5).all(|i| {
        let (a, o, x) = ((and >> i) & 1, (or >> i) & 1, (xor >> i) & 1);
        matches!((a, o, x), (0, 0, 0) | (0, 1, 0) | (1, 0, 0) | (1, 0, 1))
    }) && v & 0x8000 == 0
}

/// Decodes a DS instruction; `None` without signature rows.
pub fn decode(words: &[u32], arch: &Arch) -> Option<Result<Ds, String>> {
    Some(Encoded::new(Form::Ds, words, arch.gen)?.and_then(|enc| {
        enc.validate()?;
        Ok(Ds::new(enc))
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Texts llvm-mc-19 prints for these ds_swizzle_b32 offsets (gfx1100 sweep).
    #[test]
    fn swizzles() {
        assert_eq!(swizzle_text(1), " offset:swizzle(BITMASK_PERM,\"0000p\")");
        assert_eq!(swizzle_text(0x10), " offset:swizzle(BROADCAST,16,0)");
        assert_eq!(swizzle_text(0x20), " offset:swizzle(BROADCAST,32,1)");
        assert_eq!(
            swizzle_text(0x400),
            " offset:swizzle(BITMASK_PERM,\"00001\")"
        );
        assert_eq!(swizzle_text(0x8000), " offset:swizzle(QUAD_PERM,0,0,0,0)");
    }
}
