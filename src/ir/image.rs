//! Image operations as both back ends run them, free of any encoding.
//!
//! A front end resolves its instruction's fields into an [`ImageOp`]: what the
//! operation is ([`Opcode`]: kind and sampling suffixes), which registers hold the
//! data, the address and the descriptors, and the modifiers that change its
//! semantics. The AMD lowering (`gcn::lower`) fills it from a decoded MIMG word;
//! the Intel lowering (`visa::lower`) builds it from a 3D_SAMPLE/3D_LOAD/3D_INFO
//! message. Neither back end sees an encoding.

use super::atomic::AtomicOp;

/// The type of an image resource (its dimensionality, arrayness and
/// multisampling), in the order AMD numbers them (T# TYPE 8 + index, gfx10 DIM
/// = index).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ImageType {
    /// 1D.
    D1,
    /// 2D.
    D2,
    /// 3D.
    D3,
    /// Cube (6 faces as slices).
    Cube,
    /// 1D array.
    D1Array,
    /// 2D array.
    D2Array,
    /// 2D multisampled.
    D2Msaa,
    /// 2D multisampled array.
    D2MsaaArray,
}

impl ImageType {
    /// Every type, in index order.
    pub const ALL: [ImageType; 8] = [
        ImageType::D1,
        ImageType::D2,
        ImageType::D3,
        ImageType::Cube,
        ImageType::D1Array,
        ImageType::D2Array,
        ImageType::D2Msaa,
        ImageType::D2MsaaArray,
    ];

    /// Position in [`ImageType::ALL`].
    pub fn index(self) -> usize {
        self as usize
    }

    /// The type at `index` of [`ImageType::ALL`].
    pub fn from_index(index: usize) -> Option<ImageType> {
        ImageType::ALL.get(index).copied()
    }

    /// The name in AMD's spelling (`SQ_RSRC_IMG_<name>`, `dim:SQ_RSRC_IMG_<name>`).
    pub fn name(self) -> &'static str {
        [
            "1D",
            "2D",
            "3D",
            "CUBE",
            "1D_ARRAY",
            "2D_ARRAY",
            "2D_MSAA",
            "2D_MSAA_ARRAY",
        ][self.index()]
    }

    /// True for the types whose view is a range of array slices (arrays and
    /// cubes): BASE_ARRAY..=last slice applies to them.
    pub fn is_layered(self) -> bool {
        matches!(
            self,
            ImageType::Cube | ImageType::D1Array | ImageType::D2Array | ImageType::D2MsaaArray
        )
    }

    /// True for the multisampled types, whose LAST_LEVEL holds log2(samples)
    /// (sampling.md §1.2).
    pub fn is_msaa(self) -> bool {
        matches!(self, ImageType::D2Msaa | ImageType::D2MsaaArray)
    }
}

/// What an image operation does, independent of its sampling suffixes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ImageKind {
    /// Read texels without a sampler (`image_load*`, Intel `load`).
    Load,
    /// Write texels (`image_store*`).
    Store,
    /// Read-modify-write one texel (`image_atomic_*`).
    Atomic,
    /// Filtered read through a sampler (`image_sample*`, Intel `sample*`).
    Sample,
    /// The four texels of a bilinear footprint, one component (`image_gather4*`).
    Gather4,
    /// The LOD a sample would use (`image_get_lod`, Intel `lod`).
    GetLod,
    /// The resource's dimensions and mip count (`image_get_resinfo`).
    ResInfo,
    /// The samples of one MSAA pixel (`image_msaa_load`).
    MsaaLoad,
    /// Ray/box or ray/triangle test (`image_bvh*_intersect_ray`).
    Bvh,
}

/// Suffix and property flags of an operation (bits of [`Opcode::flags`]).
pub mod flag {
    /// `_c`: a depth-compare value precedes the coordinates.
    pub const C: u16 = 1 << 0;
    /// `_o`: a packed texel offset precedes the coordinates.
    pub const O: u16 = 1 << 1;
    /// `_d`: user derivatives (gradients) precede the coordinates.
    pub const D: u16 = 1 << 2;
    /// `_cd`: coarse user derivatives.
    pub const CD: u16 = 1 << 3;
    /// `_l`: explicit LOD follows the coordinates.
    pub const L: u16 = 1 << 4;
    /// `_b`: an LOD bias precedes the coordinates.
    pub const B: u16 = 1 << 5;
    /// `_lz`: LOD zero.
    pub const LZ: u16 = 1 << 6;
    /// `_cl`: an LOD clamp follows the coordinates.
    pub const CL: u16 = 1 << 7;
    /// `_g16`: 16-bit gradients.
    pub const G16: u16 = 1 << 8;
    /// `_mip` loads/stores and resinfo: a mip level follows the coordinates.
    pub const MIP: u16 = 1 << 9;
    /// `_pck`/`_pck_sgn` loads/stores: no D16 operand (LLVM `HasD16 = 0`).
    pub const NO_D16: u16 = 1 << 10;
    /// `_cmpswap`/`_fcmpswap`: two data dwords per component (LLVM `AtomicX2`).
    pub const X2: u16 = 1 << 11;
    /// `image_bvh64_intersect_ray`: 64-bit node pointer.
    pub const BVH64: u16 = 1 << 12;
    /// gfx10: needs LLVM's `HasGFX10_AEncoding` (gfx10.3, and gfx1013 of
    /// gfx10.1); a decoding property the AMD front end reads.
    pub const GFX10_A: u16 = 1 << 13;
    /// Decodes, but is refused by execution: what it does is not in a public
    /// source (`image_gather4h`'s texel footprint, docs/errata.md S15).
    pub const UNDOCUMENTED: u16 = 1 << 14;
}

/// An operation's identity: its name (for messages), kind and suffix flags.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Opcode {
    /// The mnemonic users know it by (`image_sample_c_lz`).
    pub name: &'static str,
    /// Base operation.
    pub kind: ImageKind,
    /// [`flag`] bits.
    pub flags: u16,
}

impl Opcode {
    /// True when the operation has every bit of `f`.
    pub fn has(&self, f: u16) -> bool {
        self.flags & f == f
    }

    /// Number of extra address words before the coordinates (offset, bias,
    /// z-compare): LLVM `NumExtraArgs`.
    pub fn extra_args(&self) -> u32 {
        [flag::O, flag::B, flag::C]
            .iter()
            .filter(|&&f| self.has(f))
            .count() as u32
    }

    /// True for sample/gather ops with user gradients (`_d`, `_cd`).
    pub fn gradients(&self) -> bool {
        self.flags & (flag::D | flag::CD) != 0
    }

    /// True when one address word follows the coordinates: LOD, clamp or mip
    /// (LLVM `LodOrClampOrMip`).
    pub fn lod_clamp_or_mip(&self) -> bool {
        self.flags & (flag::L | flag::CL | flag::MIP) != 0
    }

    /// True when the op takes a sampler.
    pub fn has_sampler(&self) -> bool {
        matches!(
            self.kind,
            ImageKind::Sample | ImageKind::Gather4 | ImageKind::GetLod
        )
    }

    /// True when the op has the D16 operand (LLVM `HasD16`): loads and stores
    /// except the `_pck` forms, samples, gathers and msaa_load.
    pub fn has_d16(&self) -> bool {
        match self.kind {
            ImageKind::Load | ImageKind::Store => !self.has(flag::NO_D16),
            ImageKind::Sample | ImageKind::Gather4 | ImageKind::MsaaLoad => true,
            ImageKind::Atomic | ImageKind::GetLod | ImageKind::ResInfo | ImageKind::Bvh => false,
        }
    }
}

/// The VGPRs that hold an operation's address dwords.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AddrRegs {
    /// Consecutive VGPRs from this one, as many as the access needs.
    Contiguous(u32),
    /// One VGPR per address dword, in order (AMD's NSA forms; at most
    /// [`AddrRegs::MAX_LISTED`]); an access that needs more dwords than listed
    /// is refused. Kept inline: a program holds one per image instruction.
    List {
        /// How many of `regs` are listed.
        len: u8,
        /// The VGPR numbers (v0–v255).
        regs: [u8; AddrRegs::MAX_LISTED],
    },
}

impl AddrRegs {
    /// The most address VGPRs a listed form names (gfx10 NSA: 13; BVH: 12).
    pub const MAX_LISTED: usize = 16;

    /// A listed form of `regs`, or `None` past [`AddrRegs::MAX_LISTED`] VGPRs
    /// or for a VGPR past v255.
    pub fn list(regs: &[u32]) -> Option<AddrRegs> {
        if regs.len() > Self::MAX_LISTED {
            return None;
        }
        let mut out = [0u8; Self::MAX_LISTED];
        for (o, &r) in out.iter_mut().zip(regs) {
            *o = u8::try_from(r).ok()?;
        }
        Some(AddrRegs::List {
            len: regs.len() as u8,
            regs: out,
        })
    }
}

/// An image operation with its operands resolved.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ImageOp {
    /// What it does.
    pub op: Opcode,
    /// How the address is laid out: `None` takes the layout from the resource's
    /// type (AMD gfx6–gfx9, where it is not encoded), `Some` is the type the
    /// instruction declares (AMD's DIM on gfx10+), which must lay out the same
    /// components as the resource.
    pub dim: Option<ImageType>,
    /// Data-component mask.
    pub dmask: u32,
    /// Unnormalised coordinates.
    pub unorm: bool,
    /// The read-modify-write of an atomic ([`ImageKind::Atomic`]).
    pub atomic: Option<AtomicOp>,
    /// Globally coherent (AMD GLC): atomics return the pre-op value.
    pub glc: bool,
    /// The resource is read as an array (AMD DA, gfx6–gfx9); kept for the
    /// modelled-field checks.
    pub da: bool,
    /// Only dwords 0–3 of the resource descriptor are read (AMD R128).
    pub r128: bool,
    /// 16-bit addresses (A16).
    pub a16: bool,
    /// 16-bit derivatives (the `_g16` forms, and A16 on AMD gfx9, where the
    /// generation ties gradients to the address width).
    pub g16: bool,
    /// Texture-fail enable: a status dword follows the data.
    pub tfe: bool,
    /// LOD-warning enable: a status dword follows the data.
    pub lwe: bool,
    /// 16-bit data.
    pub d16: bool,
    /// First data VGPR.
    pub vdata: u32,
    /// Address VGPRs.
    pub addr: AddrRegs,
    /// First SGPR of the resource descriptor (T#).
    pub srsrc: u32,
    /// First SGPR of the sampler descriptor (S#); 0 without a sampler.
    pub ssamp: u32,
}

impl ImageOp {
    /// The operation's name, for messages.
    pub fn name(&self) -> &'static str {
        self.op.name
    }

    /// How many address VGPRs an access of `dwords` dwords may read: as many
    /// as a listed form lists (which may be fewer or more), else `dwords`.
    pub fn address_count(&self, dwords: u32) -> u32 {
        match self.addr {
            AddrRegs::Contiguous(_) => dwords,
            AddrRegs::List { len, .. } => len.into(),
        }
    }

    /// The VGPR of address dword `k`; for a listed form, `k` must be below
    /// [`ImageOp::address_count`] (past it: v0).
    pub fn address_reg(&self, k: u32) -> u32 {
        match &self.addr {
            AddrRegs::Contiguous(first) => first + k,
            AddrRegs::List { len, regs } => regs[..usize::from(*len)]
                .get(k as usize)
                .map_or(0, |&r| r.into()),
        }
    }

    /// The address VGPRs an access of `dwords` dwords may read: every listed
    /// VGPR of a listed form (which may be fewer or more), or `dwords`
    /// consecutive ones.
    pub fn address_list(&self, dwords: u32) -> Vec<u32> {
        (0..self.address_count(dwords))
            .map(|k| self.address_reg(k))
            .collect()
    }

    /// The VGPRs of the first `dwords` address dwords, or an error naming the
    /// operation when a listed (NSA) form names fewer.
    pub fn address_regs(&self, dwords: u32) -> Result<Vec<u32>, ShortAddress> {
        match self.addr {
            AddrRegs::Contiguous(first) => Ok((0..dwords).map(|k| first + k).collect()),
            AddrRegs::List { len, .. } if u32::from(len) < dwords => Err(ShortAddress {
                op: self.op.name,
                listed: len,
                needed: dwords,
            }),
            AddrRegs::List { .. } => {
                let mut regs = self.address_list(dwords);
                regs.truncate(dwords as usize);
                Ok(regs)
            }
        }
    }
}

/// An NSA (listed) address form that names fewer VGPRs than the access reads
/// ([`ImageOp::address_regs`]).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("`{op}`: the NSA form lists {listed} address VGPRs, the access needs {needed}")]
pub struct ShortAddress {
    /// The operation's mnemonic.
    pub op: &'static str,
    /// The VGPRs the form lists.
    pub listed: u8,
    /// The address dwords the access reads.
    pub needed: u32,
}

/// The operation in a neutral notation, for comments in generated code:
/// `image_sample_l v[4:7] <- addr v[0:2], T# s[8:15], S# s[16:19], dmask 0xf`.
impl std::fmt::Display for ImageOp {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} data v{}, addr ", self.op.name, self.vdata)?;
        match self.addr {
            AddrRegs::Contiguous(first) => write!(f, "v{first}…")?,
            AddrRegs::List { .. } => {
                let regs: Vec<String> = self
                    .address_list(0)
                    .iter()
                    .map(|r| format!("v{r}"))
                    .collect();
                write!(f, "[{}]", regs.join(", "))?
            }
        }
        write!(f, ", T# s{}", self.srsrc)?;
        if self.op.has_sampler() {
            write!(f, ", S# s{}", self.ssamp)?;
        }
        write!(f, ", dmask {:#x}", self.dmask)?;
        if let Some(dim) = self.dim {
            write!(f, ", dim {}", dim.name())?;
        }
        for (on, name) in [
            (self.unorm, "unorm"),
            (self.glc, "glc"),
            (self.r128, "r128"),
            (self.a16, "a16"),
            (self.g16, "g16"),
            (self.tfe, "tfe"),
            (self.lwe, "lwe"),
            (self.d16, "d16"),
        ] {
            if on {
                write!(f, " {name}")?;
            }
        }
        Ok(())
    }
}
