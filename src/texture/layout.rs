//! The reference linear layout: where texel (x, y, z, slice, level) lives in
//! memory (research/sampling.md §4.2, "reference linear layout").
//!
//! gcnrun implements linear surfaces only. Real GPUs usually tile images
//! (GB_TILE_MODE tables on gfx6–8, swizzle modes on gfx9+); a tiled T# is refused
//! by the interpreter rather than read in the wrong order, and an image captured
//! from a driver must be linearised first (README, "Feeding images").
//!
//! The pitch comes from the T# PITCH field on gfx6–gfx9. gfx10 has no PITCH field
//! (the hardware derives the pitch of a linear surface from its width with
//! addrlib2's alignment rule, which gcnrun has not verified): the gfx10 model
//! carries `pitch = width` ([`super::descriptor::ImageDesc`]), so a gfx10 image
//! laid out here is unpadded — a known difference, like tiling
//! (docs/errata.md X11).
//!
//! All arithmetic is checked u64: a descriptor's fields cannot make an address
//! or a size overflow silently.

/// The geometry of one linear surface.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Surface {
    /// Bytes per element (per texel; per 4×4 block for block-compressed formats).
    pub bpe: u32,
    /// True for block-compressed formats: sizes count 4×4 blocks.
    pub block: bool,
    /// Width, height and depth of resource level 0, in texels.
    pub width: u32,
    /// Height of level 0.
    pub height: u32,
    /// Depth of level 0 (3D; 1 otherwise).
    pub depth: u32,
    /// Array slices (1 for non-arrays; faces for cubes).
    pub slices: u32,
    /// Level-0 row pitch in elements (the T# PITCH + 1).
    pub pitch: u32,
    /// Number of mip levels stored.
    pub levels: u32,
}

impl Surface {
    /// Row pitch alignment of levels above 0, in elements: `max(8, 64 / bpe)`
    /// (sampling.md §4.2, linear-aligned rule).
    pub fn pitch_align(&self) -> u32 {
        (64 / self.bpe.max(1)).max(8)
    }

    /// Size of level `m` in texels: `max(1, size >> m)` per axis.
    pub fn level_dims(&self, m: u32) -> (u32, u32, u32) {
        let s = |v: u32| (v.checked_shr(m).unwrap_or(0)).max(1);
        (s(self.width), s(self.height), s(self.depth))
    }

    /// Level `m` in elements (4×4 blocks round up for BCn).
    fn level_elems(&self, m: u32) -> (u64, u64, u64) {
        let (w, h, d) = self.level_dims(m);
        if self.block {
            (w.div_ceil(4).into(), h.div_ceil(4).into(), d.into())
        } else {
            (w.into(), h.into(), d.into())
        }
    }

    /// Row pitch of level `m` in bytes: `PITCH * bpe` for level 0, and
    /// `max(w_m, pitch_align) * bpe` above (elements, not rounded up to the
    /// alignment: the rule of sampling.md §4.2).
    pub fn row_pitch(&self, m: u32) -> u64 {
        let (w, _, _) = self.level_elems(m);
        let elems = if m == 0 {
            u64::from(self.pitch).max(w)
        } else {
            w.max(self.pitch_align().into())
        };
        elems * u64::from(self.bpe)
    }

    /// Bytes of one 2D slice of level `m` (`None` on overflow).
    pub fn slice_pitch(&self, m: u32) -> Option<u64> {
        self.row_pitch(m).checked_mul(self.level_elems(m).1)
    }

    /// Bytes of level `m` over all depth planes and slices.
    pub fn level_bytes(&self, m: u32) -> Option<u64> {
        self.slice_pitch(m)?
            .checked_mul(self.level_elems(m).2)?
            .checked_mul(self.slices.into())
    }

    /// Byte offset of level `m` from the base: the sum of the levels before it.
    pub fn level_offset(&self, m: u32) -> Option<u64> {
        (0..m).try_fold(0u64, |acc, k| acc.checked_add(self.level_bytes(k)?))
    }

    /// Bytes the whole surface occupies.
    pub fn total_bytes(&self) -> Option<u64> {
        self.level_offset(self.levels)
    }

    /// Byte offset of element (x, y, z) of `slice` at level `m`, or `None` when
    /// any coordinate is out of bounds (the caller applies the out-of-bounds rule).
    /// For BCn, x and y are block coordinates.
    pub fn texel_offset(&self, m: u32, slice: u32, x: u32, y: u32, z: u32) -> Option<u64> {
        let (w, h, d) = self.level_elems(m);
        if m >= self.levels
            || slice >= self.slices
            || u64::from(x) >= w
            || u64::from(y) >= h
            || u64::from(z) >= d
        {
            return None;
        }
        let plane = u64::from(slice) * d + u64::from(z);
        self.level_offset(m)?
            .checked_add(plane.checked_mul(self.slice_pitch(m)?)?)?
            .checked_add(u64::from(y).checked_mul(self.row_pitch(m))?)?
            .checked_add(u64::from(x) * u64::from(self.bpe))
    }

    /// Byte offset of the element holding texel (x, y, z) — texel coordinates
    /// for every format. For BCn the texel itself must lie inside level `m`
    /// (not merely its 4×4 block; docs/errata.md X13) and the element is its
    /// block; other formats are [`Surface::texel_offset`].
    pub fn element_of_texel(&self, m: u32, slice: u32, x: u32, y: u32, z: u32) -> Option<u64> {
        self.element_with(m, slice, x, y, z, |m, slice, x, y, z| {
            self.texel_offset(m, slice, x, y, z)
        })
    }

    /// [`Surface::element_of_texel`] with `element` as the element offset
    /// ([`Surface::texel_offset`], or [`Levels::texel_offset`]). Inlined
    /// into its callers, so a sampler's texel address (`Levels`) is one
    /// stretch of code: as a call it took about 50 instructions a texel row.
    #[inline(always)]
    fn element_with(
        &self,
        m: u32,
        slice: u32,
        x: u32,
        y: u32,
        z: u32,
        element: impl Fn(u32, u32, u32, u32, u32) -> Option<u64>,
    ) -> Option<u64> {
        if !self.block {
            return element(m, slice, x, y, z);
        }
        let (w, h, _) = self.level_dims(m);
        if x >= w || y >= h {
            return None;
        }
        element(m, slice, x / 4, y / 4, z)
    }
}

/// One level's geometry, computed once ([`Levels`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct LevelGeometry {
    /// Elements along x, y, z.
    elems: (u64, u64, u64),
    /// Byte offset of the level, bytes of one slice, bytes of one row;
    /// `None` where [`Surface::texel_offset`] would overflow.
    offset: Option<u64>,
    slice_pitch: Option<u64>,
    row_pitch: u64,
}

/// A surface's levels with their offsets and pitches worked out once: the
/// same addresses as [`Surface::texel_offset`] (checked by
/// `levels_give_the_surfaces_offsets`), without summing the levels below
/// on every texel (a sampling instruction builds it once per wave).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Levels {
    surface: Surface,
    levels: Vec<LevelGeometry>,
}

impl Levels {
    /// The levels of `surface`.
    pub fn of(surface: &Surface) -> Levels {
        let levels = (0..surface.levels.min(32))
            .map(|m| LevelGeometry {
                elems: surface.level_elems(m),
                offset: surface.level_offset(m),
                slice_pitch: surface.slice_pitch(m),
                row_pitch: surface.row_pitch(m),
            })
            .collect();
        Levels {
            surface: *surface,
            levels,
        }
    }

    /// The surface the levels are of.
    pub fn surface(&self) -> &Surface {
        &self.surface
    }

    /// [`Surface::texel_offset`].
    #[inline(always)]
    pub fn texel_offset(&self, m: u32, slice: u32, x: u32, y: u32, z: u32) -> Option<u64> {
        let Some(g) = self.levels.get(m as usize) else {
            // Past the levels worked out (none: a T# has at most 16).
            return self.surface.texel_offset(m, slice, x, y, z);
        };
        let (w, h, d) = g.elems;
        if slice >= self.surface.slices
            || u64::from(x) >= w
            || u64::from(y) >= h
            || u64::from(z) >= d
        {
            return None;
        }
        let plane = u64::from(slice) * d + u64::from(z);
        g.offset?
            .checked_add(plane.checked_mul(g.slice_pitch?)?)?
            .checked_add(u64::from(y).checked_mul(g.row_pitch)?)?
            .checked_add(u64::from(x) * u64::from(self.surface.bpe))
    }

    /// [`Surface::element_of_texel`].
    #[inline(always)]
    pub fn element_of_texel(&self, m: u32, slice: u32, x: u32, y: u32, z: u32) -> Option<u64> {
        self.surface
            .element_with(m, slice, x, y, z, |m, slice, x, y, z| {
                self.texel_offset(m, slice, x, y, z)
            })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn levels_give_the_surfaces_offsets() {
        let mut seed = 0x1234_5678_u32;
        let mut next = |n: u32| {
            seed ^= seed << 13;
            seed ^= seed >> 17;
            seed ^= seed << 5;
            seed % n
        };
        for _ in 0..200 {
            let s = Surface {
                bpe: [1, 2, 4, 8, 16][next(5) as usize],
                block: next(4) == 0,
                width: 1 + next(70),
                height: 1 + next(40),
                depth: 1 + next(5),
                slices: 1 + next(4),
                pitch: 1 + next(90),
                levels: 1 + next(8),
            };
            let l = Levels::of(&s);
            for _ in 0..200 {
                let (m, sl) = (next(10), next(5));
                let (x, y, z) = (next(80), next(50), next(6));
                assert_eq!(
                    l.texel_offset(m, sl, x, y, z),
                    s.texel_offset(m, sl, x, y, z)
                );
                assert_eq!(
                    l.element_of_texel(m, sl, x, y, z),
                    s.element_of_texel(m, sl, x, y, z)
                );
            }
        }
    }

    fn rgba8_64x32() -> Surface {
        Surface {
            bpe: 4,
            block: false,
            width: 64,
            height: 32,
            depth: 1,
            slices: 1,
            pitch: 64,
            levels: 7,
        }
    }

    #[test]
    fn mip_chain_offsets() {
        let s = rgba8_64x32();
        // Level 0: rows of 64 * 4 = 256 bytes, 32 rows = 8192 bytes.
        assert_eq!(s.row_pitch(0), 256);
        assert_eq!(s.level_offset(1), Some(8192));
        // Level 1: 32x16; pitch_align = max(8, 64/4) = 16 < 32, rows 128 bytes,
        // 16 rows = 2048 bytes; level 2 starts at 8192 + 2048.
        assert_eq!(s.row_pitch(1), 128);
        assert_eq!(s.level_offset(2), Some(10240));
        // Level 3: 8x4, but rows hold max(8, 16) = 16 texels = 64 bytes.
        assert_eq!(s.row_pitch(3), 64);
        // Level 6 is 1x1: texel (0, 0) at the level's offset.
        assert_eq!(s.level_dims(6), (1, 1, 1));
        assert_eq!(s.texel_offset(6, 0, 0, 0, 0), s.level_offset(6));
        // Levels 0..6: 8192 + 2048 + 16*8*4 + 16*4*4 + 16*2*4 + 16*1*4 + 16*1*4.
        assert_eq!(
            s.total_bytes(),
            Some(8192 + 2048 + 512 + 256 + 128 + 64 + 64)
        );
    }

    #[test]
    fn texel_addresses_and_bounds() {
        let s = rgba8_64x32();
        // (x, y) = (3, 2) at level 0: 2 * 256 + 3 * 4.
        assert_eq!(s.texel_offset(0, 0, 3, 2, 0), Some(524));
        assert_eq!(s.texel_offset(0, 0, 64, 0, 0), None);
        assert_eq!(s.texel_offset(0, 1, 0, 0, 0), None);
        assert_eq!(s.texel_offset(7, 0, 0, 0, 0), None);
        // A wider pitch moves rows apart: pitch 80 texels = 320 bytes.
        let p = Surface { pitch: 80, ..s };
        assert_eq!(p.texel_offset(0, 0, 0, 1, 0), Some(320));
    }

    #[test]
    fn arrays_and_3d() {
        // 2D array of 3 slices of 8x8 R32 (bpe 4, pitch 8): slice stride 256 bytes.
        let a = Surface {
            bpe: 4,
            block: false,
            width: 8,
            height: 8,
            depth: 1,
            slices: 3,
            pitch: 8,
            levels: 1,
        };
        assert_eq!(a.texel_offset(0, 2, 1, 0, 0), Some(2 * 256 + 4));
        // 3D 4x4x4 R8 (bpe 1, pitch 8 = alignment for level 0 given by PITCH):
        // plane stride 8 * 4 = 32 bytes; level 1 is 2x2x2 with rows of
        // max(2, 64) = 64 bytes.
        let v = Surface {
            bpe: 1,
            block: false,
            width: 4,
            height: 4,
            depth: 4,
            slices: 1,
            pitch: 8,
            levels: 2,
        };
        assert_eq!(v.texel_offset(0, 0, 1, 1, 3), Some(3 * 32 + 8 + 1));
        assert_eq!(v.level_offset(1), Some(4 * 32));
        assert_eq!(v.row_pitch(1), 64);
    }

    #[test]
    fn block_compressed_counts_blocks() {
        // BC1 16x16: 4x4 blocks of 8 bytes; level 0 pitch 4 blocks = 32 bytes.
        let b = Surface {
            bpe: 8,
            block: true,
            width: 16,
            height: 16,
            depth: 1,
            slices: 1,
            pitch: 4,
            levels: 1,
        };
        assert_eq!(b.texel_offset(0, 0, 1, 3, 0), Some(3 * 32 + 8));
        assert_eq!(b.total_bytes(), Some(4 * 32));
    }

    #[test]
    fn huge_sizes_do_not_overflow() {
        let s = Surface {
            bpe: 16,
            block: false,
            width: u32::MAX,
            height: u32::MAX,
            depth: u32::MAX,
            slices: u32::MAX,
            pitch: u32::MAX,
            levels: 32,
        };
        assert_eq!(s.total_bytes(), None);
        let _ = s.texel_offset(31, u32::MAX - 1, 0, 0, 0);
    }
}
