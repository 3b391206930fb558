//! MIMG opcode table: one row per instruction, with its kind, its suffix flags and
//! its opcode number in each generation (data, not code).
//!
//! Sources: LLVM `MIMGInstructions.td` (the `mimgopc<gfx11, gfx10m, vi, si>` rows and
//! the `AMDGPUSampleVariant` suffixes), cross-checked against every llvm-mc-19 row of
//! `../shared/corpus/llvm_mimg_vintrp.tsv` (research/encodings.md, "MIMG opcode
//! numbering per generation": 0 conflicts).

use crate::arch::{Arch, Gen};

use crate::ir::atomic::AtomicOp;
pub use crate::ir::image::{flag, ImageKind as BaseKind, Opcode};

/// "No opcode in this generation".
pub const NONE: u16 = 0xffff;

/// One MIMG instruction: what it does ([`Opcode`], which the row derefs to) and its
/// opcode number per generation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MimgOp {
    /// Mnemonic, kind and suffix flags: the operation the lowering hands on.
    pub sem: Opcode,
    /// Opcode in gfx6, gfx7, gfx8, gfx9, gfx10, gfx11 ([`NONE`] = absent).
    pub opc: [u16; 6],
}

impl std::ops::Deref for MimgOp {
    type Target = Opcode;
    fn deref(&self) -> &Opcode {
        &self.sem
    }
}

impl MimgOp {
    /// The opcode number in `gen`, if the op exists there.
    pub fn opcode(&self, gen: Gen) -> Option<u32> {
        let v = self.opc[gen_index(gen)];
        (v != NONE).then_some(v as u32)
    }
}

/// Column of [`MimgOp::opc`] for a generation.
pub fn gen_index(gen: Gen) -> usize {
    match gen {
        Gen::Gfx6 => 0,
        Gen::Gfx7 => 1,
        Gen::Gfx8 => 2,
        Gen::Gfx9 => 3,
        Gen::Gfx10 => 4,
        Gen::Gfx11 => 5,
    }
}

/// Finds the row whose opcode in `arch`'s generation is `op`. `GFX10_A` rows are
/// skipped on gfx10 parts without them (llvm-mc-19 `-mcpu=gfx1010` rejects them,
/// `-mcpu=gfx1013` accepts them; the g16 samples are NOT marked: llvm-mc-19
/// decodes them with gfx1010 too).
pub fn lookup(op: u32, arch: &Arch) -> Option<&'static MimgOp> {
    OPS.iter().find(|row| {
        row.opcode(arch.gen) == Some(op)
            && !(arch.gen == Gen::Gfx10 && row.has(flag::GFX10_A) && !arch.a_encoding)
    })
}

/// Finds a row by mnemonic.
pub fn by_name(name: &str) -> Option<&'static MimgOp> {
    OPS.iter().find(|row| row.name == name)
}

/// The operation of an `image_atomic_*` mnemonic.
pub fn atomic_op(name: &str) -> Option<AtomicOp> {
    use AtomicOp::*;
    const TABLE: &[(&str, AtomicOp)] = &[
        ("swap", Swap),
        ("cmpswap", CmpSwap),
        ("add", Add),
        ("sub", Sub),
        ("rsub", Rsub),
        ("smin", Smin),
        ("umin", Umin),
        ("smax", Smax),
        ("umax", Umax),
        ("and", And),
        ("or", Or),
        ("xor", Xor),
        ("inc", Inc),
        ("dec", Dec),
        ("fcmpswap", FCmpSwap),
        ("fmin", Fmin),
        ("fmax", Fmax),
    ];
    let op = name.strip_prefix("image_atomic_")?;
    TABLE.iter().find(|(n, _)| *n == op).map(|&(_, o)| o)
}

use flag::*;
use BaseKind::*;

const N: u16 = NONE;

const fn op(name: &'static str, kind: BaseKind, flags: u16, opc: [u16; 6]) -> MimgOp {
    MimgOp {
        sem: Opcode { name, kind, flags },
        opc,
    }
}

/// Every MIMG instruction of gfx6–gfx11. Columns: gfx6, gfx7, gfx8, gfx9, gfx10, gfx11.
#[rustfmt::skip]
pub static OPS: &[MimgOp] = &[
    op("image_load",             Load,  0,            [0x00, 0x00, 0x00, 0x00, 0x00, 0x00]),
    op("image_load_mip",         Load,  MIP,          [0x01, 0x01, 0x01, 0x01, 0x01, 0x01]),
    op("image_load_pck",         Load,  NO_D16,       [0x02, 0x02, 0x02, 0x02, 0x02, 0x02]),
    op("image_load_pck_sgn",     Load,  NO_D16,       [0x03, 0x03, 0x03, 0x03, 0x03, 0x03]),
    op("image_load_mip_pck",     Load,  MIP | NO_D16, [0x04, 0x04, 0x04, 0x04, 0x04, 0x04]),
    op("image_load_mip_pck_sgn", Load,  MIP | NO_D16, [0x05, 0x05, 0x05, 0x05, 0x05, 0x05]),
    op("image_store",            Store, 0,            [0x08, 0x08, 0x08, 0x08, 0x08, 0x06]),
    op("image_store_mip",        Store, MIP,          [0x09, 0x09, 0x09, 0x09, 0x09, 0x07]),
    op("image_store_pck",        Store, NO_D16,       [0x0a, 0x0a, 0x0a, 0x0a, 0x0a, 0x08]),
    op("image_store_mip_pck",    Store, MIP | NO_D16, [0x0b, 0x0b, 0x0b, 0x0b, 0x0b, 0x09]),
    op("image_get_resinfo",      ResInfo, MIP,        [0x0e, 0x0e, 0x0e, 0x0e, 0x0e, 0x17]),
    // Atomics: gfx8/gfx9 shift swap..sub up by one (LLVM `vi` column); rsub is SI/CI only.
    op("image_atomic_swap",      Atomic, 0,   [0x0f, 0x0f, 0x10, 0x10, 0x0f, 0x0a]),
    op("image_atomic_cmpswap",   Atomic, X2,  [0x10, 0x10, 0x11, 0x11, 0x10, 0x0b]),
    op("image_atomic_add",       Atomic, 0,   [0x11, 0x11, 0x12, 0x12, 0x11, 0x0c]),
    op("image_atomic_sub",       Atomic, 0,   [0x12, 0x12, 0x13, 0x13, 0x12, 0x0d]),
    op("image_atomic_rsub",      Atomic, 0,   [0x13, 0x13, N,    N,    N,    N]),
    op("image_atomic_smin",      Atomic, 0,   [0x14, 0x14, 0x14, 0x14, 0x14, 0x0e]),
    op("image_atomic_umin",      Atomic, 0,   [0x15, 0x15, 0x15, 0x15, 0x15, 0x0f]),
    op("image_atomic_smax",      Atomic, 0,   [0x16, 0x16, 0x16, 0x16, 0x16, 0x10]),
    op("image_atomic_umax",      Atomic, 0,   [0x17, 0x17, 0x17, 0x17, 0x17, 0x11]),
    op("image_atomic_and",       Atomic, 0,   [0x18, 0x18, 0x18, 0x18, 0x18, 0x12]),
    op("image_atomic_or",        Atomic, 0,   [0x19, 0x19, 0x19, 0x19, 0x19, 0x13]),
    op("image_atomic_xor",       Atomic, 0,   [0x1a, 0x1a, 0x1a, 0x1a, 0x1a, 0x14]),
    op("image_atomic_inc",       Atomic, 0,   [0x1b, 0x1b, 0x1b, 0x1b, 0x1b, 0x15]),
    op("image_atomic_dec",       Atomic, 0,   [0x1c, 0x1c, 0x1c, 0x1c, 0x1c, 0x16]),
    op("image_atomic_fcmpswap",  Atomic, X2,  [0x1d, 0x1d, N,    N,    0x1d, N]),
    op("image_atomic_fmin",      Atomic, 0,   [0x1e, 0x1e, N,    N,    0x1e, N]),
    op("image_atomic_fmax",      Atomic, 0,   [0x1f, 0x1f, N,    N,    0x1f, N]),
    op("image_sample",           Sample, 0,              [0x20, 0x20, 0x20, 0x20, 0x20, 0x1b]),
    op("image_sample_cl",        Sample, CL,             [0x21, 0x21, 0x21, 0x21, 0x21, 0x40]),
    op("image_sample_d",         Sample, D,              [0x22, 0x22, 0x22, 0x22, 0x22, 0x1c]),
    op("image_sample_d_cl",      Sample, D | CL,         [0x23, 0x23, 0x23, 0x23, 0x23, 0x41]),
    op("image_sample_l",         Sample, L,              [0x24, 0x24, 0x24, 0x24, 0x24, 0x1d]),
    op("image_sample_b",         Sample, B,              [0x25, 0x25, 0x25, 0x25, 0x25, 0x1e]),
    op("image_sample_b_cl",      Sample, B | CL,         [0x26, 0x26, 0x26, 0x26, 0x26, 0x42]),
    op("image_sample_lz",        Sample, LZ,             [0x27, 0x27, 0x27, 0x27, 0x27, 0x1f]),
    op("image_sample_c",         Sample, C,              [0x28, 0x28, 0x28, 0x28, 0x28, 0x20]),
    op("image_sample_c_cl",      Sample, C | CL,         [0x29, 0x29, 0x29, 0x29, 0x29, 0x43]),
    op("image_sample_c_d",       Sample, C | D,          [0x2a, 0x2a, 0x2a, 0x2a, 0x2a, 0x21]),
    op("image_sample_c_d_cl",    Sample, C | D | CL,     [0x2b, 0x2b, 0x2b, 0x2b, 0x2b, 0x44]),
    op("image_sample_c_l",       Sample, C | L,          [0x2c, 0x2c, 0x2c, 0x2c, 0x2c, 0x22]),
    op("image_sample_c_b",       Sample, C | B,          [0x2d, 0x2d, 0x2d, 0x2d, 0x2d, 0x23]),
    op("image_sample_c_b_cl",    Sample, C | B | CL,     [0x2e, 0x2e, 0x2e, 0x2e, 0x2e, 0x45]),
    op("image_sample_c_lz",      Sample, C | LZ,         [0x2f, 0x2f, 0x2f, 0x2f, 0x2f, 0x24]),
    op("image_sample_o",         Sample, O,              [0x30, 0x30, 0x30, 0x30, 0x30, 0x25]),
    op("image_sample_cl_o",      Sample, CL | O,         [0x31, 0x31, 0x31, 0x31, 0x31, 0x46]),
    op("image_sample_d_o",       Sample, D | O,          [0x32, 0x32, 0x32, 0x32, 0x32, 0x26]),
    op("image_sample_d_cl_o",    Sample, D | CL | O,     [0x33, 0x33, 0x33, 0x33, 0x33, 0x47]),
    op("image_sample_l_o",       Sample, L | O,          [0x34, 0x34, 0x34, 0x34, 0x34, 0x27]),
    op("image_sample_b_o",       Sample, B | O,          [0x35, 0x35, 0x35, 0x35, 0x35, 0x28]),
    op("image_sample_b_cl_o",    Sample, B | CL | O,     [0x36, 0x36, 0x36, 0x36, 0x36, 0x48]),
    op("image_sample_lz_o",      Sample, LZ | O,         [0x37, 0x37, 0x37, 0x37, 0x37, 0x29]),
    op("image_sample_c_o",       Sample, C | O,          [0x38, 0x38, 0x38, 0x38, 0x38, 0x2a]),
    op("image_sample_c_cl_o",    Sample, C | CL | O,     [0x39, 0x39, 0x39, 0x39, 0x39, 0x49]),
    op("image_sample_c_d_o",     Sample, C | D | O,      [0x3a, 0x3a, 0x3a, 0x3a, 0x3a, 0x2b]),
    op("image_sample_c_d_cl_o",  Sample, C | D | CL | O, [0x3b, 0x3b, 0x3b, 0x3b, 0x3b, 0x4a]),
    op("image_sample_c_l_o",     Sample, C | L | O,      [0x3c, 0x3c, 0x3c, 0x3c, 0x3c, 0x2c]),
    op("image_sample_c_b_o",     Sample, C | B | O,      [0x3d, 0x3d, 0x3d, 0x3d, 0x3d, 0x2d]),
    op("image_sample_c_b_cl_o",  Sample, C | B | CL | O, [0x3e, 0x3e, 0x3e, 0x3e, 0x3e, 0x4b]),
    op("image_sample_c_lz_o",    Sample, C | LZ | O,     [0x3f, 0x3f, 0x3f, 0x3f, 0x3f, 0x2e]),
    op("image_gather4",          Gather4, 0,              [0x40, 0x40, 0x40, 0x40, 0x40, 0x2f]),
    op("image_gather4_cl",       Gather4, CL,             [0x41, 0x41, 0x41, 0x41, 0x41, 0x60]),
    op("image_gather4h",         Gather4, UNDOCUMENTED,   [N,    N,    N,    0x42, 0x61, 0x90]),
    op("image_gather4_l",        Gather4, L,              [0x44, 0x44, 0x44, 0x44, 0x44, 0x30]),
    op("image_gather4_b",        Gather4, B,              [0x45, 0x45, 0x45, 0x45, 0x45, 0x31]),
    op("image_gather4_b_cl",     Gather4, B | CL,         [0x46, 0x46, 0x46, 0x46, 0x46, 0x61]),
    op("image_gather4_lz",       Gather4, LZ,             [0x47, 0x47, 0x47, 0x47, 0x47, 0x32]),
    op("image_gather4_c",        Gather4, C,              [0x48, 0x48, 0x48, 0x48, 0x48, 0x33]),
    op("image_gather4_c_cl",     Gather4, C | CL,         [0x49, 0x49, 0x49, 0x49, 0x49, 0x62]),
    op("image_gather4_c_l",      Gather4, C | L,          [0x4c, 0x4c, 0x4c, 0x4c, 0x4c, 0x63]),
    op("image_gather4_c_b",      Gather4, C | B,          [0x4d, 0x4d, 0x4d, 0x4d, 0x4d, 0x64]),
    op("image_gather4_c_b_cl",   Gather4, C | B | CL,     [0x4e, 0x4e, 0x4e, 0x4e, 0x4e, 0x65]),
    op("image_gather4_c_lz",     Gather4, C | LZ,         [0x4f, 0x4f, 0x4f, 0x4f, 0x4f, 0x34]),
    op("image_gather4_o",        Gather4, O,              [0x50, 0x50, 0x50, 0x50, 0x50, 0x35]),
    op("image_gather4_cl_o",     Gather4, CL | O,         [0x51, 0x51, 0x51, 0x51, 0x51, N]),
    op("image_gather4_l_o",      Gather4, L | O,          [0x54, 0x54, 0x54, 0x54, 0x54, N]),
    op("image_gather4_b_o",      Gather4, B | O,          [0x55, 0x55, 0x55, 0x55, 0x55, N]),
    op("image_gather4_b_cl_o",   Gather4, B | CL | O,     [0x56, 0x56, 0x56, 0x56, 0x56, N]),
    op("image_gather4_lz_o",     Gather4, LZ | O,         [0x57, 0x57, 0x57, 0x57, 0x57, 0x36]),
    op("image_gather4_c_o",      Gather4, C | O,          [0x58, 0x58, 0x58, 0x58, 0x58, N]),
    op("image_gather4_c_cl_o",   Gather4, C | CL | O,     [0x59, 0x59, 0x59, 0x59, 0x59, N]),
    op("image_gather4_c_l_o",    Gather4, C | L | O,      [0x5c, 0x5c, 0x5c, 0x5c, 0x5c, N]),
    op("image_gather4_c_b_o",    Gather4, C | B | O,      [0x5d, 0x5d, 0x5d, 0x5d, 0x5d, N]),
    op("image_gather4_c_b_cl_o", Gather4, C | B | CL | O, [0x5e, 0x5e, 0x5e, 0x5e, 0x5e, N]),
    op("image_gather4_c_lz_o",   Gather4, C | LZ | O,     [0x5f, 0x5f, 0x5f, 0x5f, 0x5f, 0x37]),
    op("image_get_lod",          GetLod, 0,               [0x60, 0x60, 0x60, 0x60, 0x60, 0x38]),
    op("image_sample_cd",        Sample, CD,              [0x68, 0x68, 0x68, 0x68, 0x68, N]),
    op("image_sample_cd_cl",     Sample, CD | CL,         [0x69, 0x69, 0x69, 0x69, 0x69, N]),
    op("image_sample_c_cd",      Sample, C | CD,          [0x6a, 0x6a, 0x6a, 0x6a, 0x6a, N]),
    op("image_sample_c_cd_cl",   Sample, C | CD | CL,     [0x6b, 0x6b, 0x6b, 0x6b, 0x6b, N]),
    op("image_sample_cd_o",      Sample, CD | O,          [0x6c, 0x6c, 0x6c, 0x6c, 0x6c, N]),
    op("image_sample_cd_cl_o",   Sample, CD | CL | O,     [0x6d, 0x6d, 0x6d, 0x6d, 0x6d, N]),
    op("image_sample_c_cd_o",    Sample, C | CD | O,      [0x6e, 0x6e, 0x6e, 0x6e, 0x6e, N]),
    op("image_sample_c_cd_cl_o", Sample, C | CD | CL | O, [0x6f, 0x6f, 0x6f, 0x6f, 0x6f, N]),
    op("image_msaa_load",        MsaaLoad, GFX10_A,       [N,    N,    N,    N,    0x80, 0x18]),
    // 16-bit-gradient samples (LLVM `HasG16`).
    op("image_sample_d_g16",         Sample, D | G16,              [N, N, N, N, 0xa2, 0x39]),
    op("image_sample_d_cl_g16",      Sample, D | CL | G16,         [N, N, N, N, 0xa3, 0x5f]),
    op("image_sample_c_d_g16",       Sample, C | D | G16,          [N, N, N, N, 0xaa, 0x3a]),
    op("image_sample_c_d_cl_g16",    Sample, C | D | CL | G16,     [N, N, N, N, 0xab, 0x54]),
    op("image_sample_d_o_g16",       Sample, D | O | G16,          [N, N, N, N, 0xb2, 0x3b]),
    op("image_sample_d_cl_o_g16",    Sample, D | CL | O | G16,     [N, N, N, N, 0xb3, 0x55]),
    op("image_sample_c_d_o_g16",     Sample, C | D | O | G16,      [N, N, N, N, 0xba, 0x3c]),
    op("image_sample_c_d_cl_o_g16",  Sample, C | D | CL | O | G16, [N, N, N, N, 0xbb, 0x56]),
    op("image_sample_cd_g16",        Sample, CD | G16,             [N, N, N, N, 0xe8, N]),
    op("image_sample_cd_cl_g16",     Sample, CD | CL | G16,        [N, N, N, N, 0xe9, N]),
    op("image_sample_c_cd_g16",      Sample, C | CD | G16,         [N, N, N, N, 0xea, N]),
    op("image_sample_c_cd_cl_g16",   Sample, C | CD | CL | G16,    [N, N, N, N, 0xeb, N]),
    op("image_sample_cd_o_g16",      Sample, CD | O | G16,         [N, N, N, N, 0xec, N]),
    op("image_sample_cd_cl_o_g16",   Sample, CD | CL | O | G16,    [N, N, N, N, 0xed, N]),
    op("image_sample_c_cd_o_g16",    Sample, C | CD | O | G16,     [N, N, N, N, 0xee, N]),
    op("image_sample_c_cd_cl_o_g16", Sample, C | CD | CL | O | G16, [N, N, N, N, 0xef, N]),
    op("image_bvh_intersect_ray",    Bvh, GFX10_A,         [N, N, N, N, 0xe6, 0x19]),
    op("image_bvh64_intersect_ray",  Bvh, GFX10_A | BVH64, [N, N, N, N, 0xe7, 0x1a]),
];

#[cfg(test)]
mod tests {
    use super::*;

    /// No two rows share an opcode within a generation (the gfx10.3 flag does not
    /// make a duplicate legal: gfx1030 decodes every gfx10 row).
    #[test]
    fn opcodes_unique_per_generation() {
        for g in [
            Gen::Gfx6,
            Gen::Gfx7,
            Gen::Gfx8,
            Gen::Gfx9,
            Gen::Gfx10,
            Gen::Gfx11,
        ] {
            let mut seen = std::collections::HashMap::new();
            for row in OPS {
                if let Some(o) = row.opcode(g) {
                    if let Some(prev) = seen.insert(o, row.name) {
                        panic!("{g:?}: opcode {o:#x} is both {prev} and {}", row.name);
                    }
                }
            }
        }
    }

    /// The suffix flags agree with the mnemonic's spelling.
    #[test]
    fn flags_match_mnemonic() {
        for row in OPS {
            let parts: Vec<&str> = row.name.split('_').collect();
            let has = |s: &str| parts.iter().skip(2).any(|p| *p == s);
            if matches!(row.kind, BaseKind::Sample | BaseKind::Gather4) {
                assert_eq!(has("c"), row.has(flag::C), "{}", row.name);
                assert_eq!(has("o"), row.has(flag::O), "{}", row.name);
                assert_eq!(has("d"), row.has(flag::D), "{}", row.name);
                assert_eq!(has("cd"), row.has(flag::CD), "{}", row.name);
                assert_eq!(has("l"), row.has(flag::L), "{}", row.name);
                assert_eq!(has("b"), row.has(flag::B), "{}", row.name);
                assert_eq!(has("lz"), row.has(flag::LZ), "{}", row.name);
                assert_eq!(has("cl"), row.has(flag::CL), "{}", row.name);
                assert_eq!(has("g16"), row.has(flag::G16), "{}", row.name);
            }
            if matches!(row.kind, BaseKind::Load | BaseKind::Store) {
                assert_eq!(has("mip"), row.has(flag::MIP), "{}", row.name);
            }
        }
    }
}
