//! GPU generations and processors, and what changes between them.
//!
//! A user names either a generation (`gfx8`, alias `gcn1.2`) or a processor
//! (`tonga`, `gfx810`). Most decoding depends only on the generation; the few
//! sub-generation differences (packed D16 on gfx8.1, the gfx10.3 additions) are
//! flags on [`Arch`]. The processor table below is data: one row per name.

use std::fmt;

/// A GCN/RDNA instruction-set generation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Gen {
    /// GCN 1.0, Southern Islands (SI).
    Gfx6,
    /// GCN 1.1, Sea Islands (CI).
    Gfx7,
    /// GCN 1.2, Volcanic Islands (VI).
    Gfx8,
    /// GCN 1.4, Vega.
    Gfx9,
    /// RDNA 1 and RDNA 2.
    Gfx10,
    /// RDNA 3.
    Gfx11,
}

impl Gen {
    /// The generation's short name as used on the command line (`gfx6` … `gfx11`).
    pub fn name(self) -> &'static str {
        match self {
            Gen::Gfx6 => "gfx6",
            Gen::Gfx7 => "gfx7",
            Gen::Gfx8 => "gfx8",
            Gen::Gfx9 => "gfx9",
            Gen::Gfx10 => "gfx10",
            Gen::Gfx11 => "gfx11",
        }
    }
}

/// A concrete target: a generation plus the sub-generation features that change
/// how instructions decode or execute.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Arch {
    /// The instruction-set generation.
    pub gen: Gen,
    /// The processor name LLVM uses for `-mcpu` (e.g. `tahiti`, `gfx1030`).
    pub mcpu: &'static str,
    /// D16 data is packed two halves per VGPR (gfx8.1 = gfx810, and gfx9+);
    /// gfx8.0 parts (gfx801/802/803/805) use one VGPR per 16-bit component.
    pub packed_d16: bool,
    /// gfx10.3 (RDNA 2) additions: G16 samples, `image_msaa_load`,
    /// `image_bvh*_intersect_ray`. Also set on gfx11, which has all three.
    pub gfx10_3: bool,
    /// LLVM's `HasGFX10_AEncoding`: `image_msaa_load` and `image_bvh*_intersect_ray`
    /// exist. Set on gfx10.3 and gfx11, and on gfx1013, a gfx10.1 part with them.
    pub a_encoding: bool,
    /// Wave64 is the only mode before gfx10; gfx10+ may also run wave32.
    pub wave32_capable: bool,
}

/// One row of the processor table: name, generation, packed D16, gfx10.3 features,
/// and the `EF_AMDGPU_MACH` value of an ELF code object for that processor.
struct Proc {
    name: &'static str,
    gen: Gen,
    packed_d16: bool,
    gfx10_3: bool,
    a_encoding: bool,
    elf_mach: Option<u32>,
}

const fn p(name: &'static str, gen: Gen, packed_d16: bool, gfx10_3: bool, mach: u32) -> Proc {
    Proc {
        name,
        gen,
        packed_d16,
        gfx10_3,
        a_encoding: gfx10_3,
        elf_mach: if mach == 0 { None } else { Some(mach) },
    }
}

use Gen::*;

/// Processors, with the `EF_AMDGPU_MACH_AMDGCN_*` codes of the AMDGPU ELF ABI
/// (LLVM `BinaryFormat/ELF.h`; 0 = no code of its own). The first row of each
/// generation is the one a bare generation name selects. Every value was checked
/// against `llvm-mc-19 -filetype=obj -mcpu=NAME` (e_flags bits 7:0); tahiti is
/// gfx600 (0x020), not gfx601.
const PROCS: &[Proc] = &[
    p("tahiti", Gfx6, false, false, 0x020),
    p("gfx600", Gfx6, false, false, 0x020),
    p("gfx601", Gfx6, false, false, 0x021),
    p("gfx602", Gfx6, false, false, 0x03a),
    p("pitcairn", Gfx6, false, false, 0x021),
    p("verde", Gfx6, false, false, 0x021),
    p("oland", Gfx6, false, false, 0x03a),
    p("hainan", Gfx6, false, false, 0x03a),
    p("bonaire", Gfx7, false, false, 0x026),
    p("gfx700", Gfx7, false, false, 0x022),
    p("gfx701", Gfx7, false, false, 0x023),
    p("gfx702", Gfx7, false, false, 0x024),
    p("gfx703", Gfx7, false, false, 0x025),
    p("gfx704", Gfx7, false, false, 0x026),
    p("gfx705", Gfx7, false, false, 0x03b),
    p("kaveri", Gfx7, false, false, 0x022),
    p("hawaii", Gfx7, false, false, 0x023),
    p("kabini", Gfx7, false, false, 0x025),
    p("mullins", Gfx7, false, false, 0x025),
    p("tonga", Gfx8, false, false, 0x029),
    p("gfx801", Gfx8, false, false, 0x028),
    p("gfx802", Gfx8, false, false, 0x029),
    p("gfx803", Gfx8, false, false, 0x02a),
    p("gfx805", Gfx8, false, false, 0x03c),
    p("gfx810", Gfx8, true, false, 0x02b),
    p("carrizo", Gfx8, false, false, 0x028),
    p("iceland", Gfx8, false, false, 0x029),
    p("fiji", Gfx8, false, false, 0x02a),
    p("polaris10", Gfx8, false, false, 0x02a),
    p("polaris11", Gfx8, false, false, 0x02a),
    p("tongapro", Gfx8, false, false, 0x03c),
    p("stoney", Gfx8, true, false, 0x02b),
    p("gfx900", Gfx9, true, false, 0x02c),
    p("gfx902", Gfx9, true, false, 0x02d),
    p("gfx904", Gfx9, true, false, 0x02e),
    p("gfx906", Gfx9, true, false, 0x02f),
    p("gfx908", Gfx9, true, false, 0x030),
    p("gfx909", Gfx9, true, false, 0x031),
    p("gfx90c", Gfx9, true, false, 0x032),
    p("gfx1030", Gfx10, true, true, 0x036),
    p("gfx1010", Gfx10, true, false, 0x033),
    p("gfx1011", Gfx10, true, false, 0x034),
    p("gfx1012", Gfx10, true, false, 0x035),
    // gfx1013 is gfx10.1 with LLVM's FeatureGFX10_AEncoding: llvm-mc-19 assembles
    // image_msaa_load and the BVH ops for it (and rejects them for gfx1010-1012).
    Proc {
        a_encoding: true,
        ..p("gfx1013", Gfx10, true, false, 0x042)
    },
    p("gfx1031", Gfx10, true, true, 0x037),
    p("gfx1032", Gfx10, true, true, 0x038),
    p("gfx1033", Gfx10, true, true, 0x039),
    p("gfx1034", Gfx10, true, true, 0x03e),
    p("gfx1035", Gfx10, true, true, 0x03d),
    p("gfx1036", Gfx10, true, true, 0x045),
    p("gfx1100", Gfx11, true, true, 0x041),
    p("gfx1101", Gfx11, true, true, 0x046),
    p("gfx1102", Gfx11, true, true, 0x047),
    p("gfx1103", Gfx11, true, true, 0x044),
    p("gfx1150", Gfx11, true, true, 0x043),
    p("gfx1151", Gfx11, true, true, 0x04a),
];

/// Generation names and aliases (SPEC.md): each maps to the first processor row of
/// its generation. `gfx10`/`rdna2` select gfx1030, the superset of gfx10 decoding.
const ALIASES: &[(&str, &str)] = &[
    ("gfx6", "tahiti"),
    ("si", "tahiti"),
    ("gcn1.0", "tahiti"),
    ("gcn1", "tahiti"),
    ("gfx7", "bonaire"),
    ("ci", "bonaire"),
    ("gcn1.1", "bonaire"),
    ("gfx8", "tonga"),
    ("vi", "tonga"),
    ("gcn1.2", "tonga"),
    ("gfx9", "gfx900"),
    ("gcn1.4", "gfx900"),
    ("vega", "gfx900"),
    ("gfx10", "gfx1030"),
    ("rdna1", "gfx1010"),
    ("rdna2", "gfx1030"),
    ("gfx11", "gfx1100"),
    ("rdna3", "gfx1100"),
];

impl Arch {
    fn from_proc(p: &Proc) -> Arch {
        Arch {
            gen: p.gen,
            mcpu: p.name,
            packed_d16: p.packed_d16,
            gfx10_3: p.gfx10_3,
            a_encoding: p.a_encoding,
            wave32_capable: p.gen >= Gen::Gfx10,
        }
    }

    /// Parses a generation name, an alias (`gcn1.2`, `rdna2`) or a processor name
    /// (`tonga`, `gfx810`), case-insensitively.
    pub fn parse(name: &str) -> Option<Arch> {
        let lower = name.trim().to_ascii_lowercase();
        let proc_name = ALIASES
            .iter()
            .find(|(alias, _)| *alias == lower)
            .map(|(_, proc_name)| *proc_name)
            .unwrap_or(lower.as_str());
        PROCS
            .iter()
            .find(|p| p.name == proc_name)
            .map(Arch::from_proc)
    }

    /// The arch of an AMDGPU ELF code object, from the `EF_AMDGPU_MACH` bits of
    /// `e_flags` (bits 7:0).
    pub fn from_elf_mach(mach: u32) -> Option<Arch> {
        PROCS
            .iter()
            .find(|p| p.elf_mach == Some(mach))
            .map(Arch::from_proc)
    }

    /// The default target when nothing else says: gfx6, as LLVM's default.
    pub fn default_arch() -> Arch {
        Arch::from_proc(&PROCS[0])
    }

    /// Every name `parse` accepts, for error messages and `--help`.
    pub fn known_names() -> Vec<&'static str> {
        let mut names: Vec<&'static str> = ALIASES.iter().map(|(a, _)| *a).collect();
        names.extend(PROCS.iter().map(|p| p.name));
        names
    }
}

impl fmt::Display for Arch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.gen.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn aliases_and_processors() {
        assert_eq!(Arch::parse("gcn1.2").unwrap().gen, Gen::Gfx8);
        assert!(!Arch::parse("tonga").unwrap().packed_d16);
        assert!(Arch::parse("gfx810").unwrap().packed_d16);
        assert!(Arch::parse("gfx9").unwrap().packed_d16);
        assert!(!Arch::parse("rdna1").unwrap().gfx10_3);
        assert!(Arch::parse("RDNA2").unwrap().gfx10_3);
        assert_eq!(Arch::parse("gfx11").unwrap().mcpu, "gfx1100");
        assert_eq!(Arch::parse("gfx7").unwrap().mcpu, "bonaire");
        assert!(Arch::parse("gfx12").is_none());
        assert_eq!(Arch::default_arch().gen, Gen::Gfx6);
    }

    #[test]
    fn every_alias_resolves() {
        for name in Arch::known_names() {
            assert!(Arch::parse(name).is_some(), "{name}");
        }
    }
}
