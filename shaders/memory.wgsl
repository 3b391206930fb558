// memory.wgsl — image memory and LDS access, the WGSL side of src/cpu/memory.rs
// and WaveState::lds_dword. Image memory is one storage buffer of dwords
// (`mem`, MEM_BYTES long, emitted by the translator); a texel is read or written
// as up to four dwords. Texels are naturally aligned (bpe 1, 2, 4, 8, 12, 16 at a
// 256-byte-aligned base with whole-texel pitches), so a texel never straddles a
// dword it does not fill.

// True when [off, off + bytes) lies inside image memory (Memory::read is Some).
fn mem_in_range(off: u32, bytes: u32) -> bool {
    return off != NO_TEXEL && bytes <= MEM_BYTES && off <= MEM_BYTES - bytes;
}

// The texel's bytes at byte offset off, low byte first; sub-dword texels are
// shifted down to bit 0 of .x.
fn mem_read_texel(off: u32, bytes: u32) -> vec4<u32> {
    let w = off / 4u;
    spec_touch(w, false);
    if bytes < 4u {
        let word = atomicLoad(&mem[w]);
        let v = word >> ((off % 4u) * 8u);
        return vec4<u32>(select(v & 0xffffu, v & 0xffu, bytes == 1u), 0u, 0u, 0u);
    }
    var t = vec4<u32>(atomicLoad(&mem[w]), 0u, 0u, 0u);
    if bytes > 4u {
        spec_touch(w + 1u, false);
        t.y = atomicLoad(&mem[w + 1u]);
    }
    if bytes > 8u {
        spec_touch(w + 2u, false);
        t.z = atomicLoad(&mem[w + 2u]);
    }
    if bytes > 12u {
        spec_touch(w + 3u, false);
        t.w = atomicLoad(&mem[w + 3u]);
    }
    return t;
}

// Writes a texel (Memory::write). Sub-dword texels replace their bytes in the
// dword with a compare-exchange loop, so that lanes writing neighbouring texels
// of one dword do not lose each other's bytes.
fn mem_write_texel(off: u32, bytes: u32, t: vec4<u32>) {
    let w = off / 4u;
    spec_touch(w, true);
    if bytes < 4u {
        let shift = (off % 4u) * 8u;
        let mask = select(0xffffu, 0xffu, bytes == 1u) << shift;
        let bits = (t.x << shift) & mask;
        var old = atomicLoad(&mem[w]);
        loop {
            let r = atomicCompareExchangeWeak(&mem[w], old, (old & ~mask) | bits);
            if r.exchanged {
                break;
            }
            old = r.old_value;
        }
        return;
    }
    atomicStore(&mem[w], t.x);
    if bytes > 4u {
        spec_touch(w + 1u, true);
        atomicStore(&mem[w + 1u], t.y);
    }
    if bytes > 8u {
        spec_touch(w + 2u, true);
        atomicStore(&mem[w + 2u], t.z);
    }
    if bytes > 12u {
        spec_touch(w + 3u, true);
        atomicStore(&mem[w + 3u], t.w);
    }
}

// The dword at LDS byte address addr of this wave's LDS (WaveState::lds_dword):
// 0 when any of its bytes is out of range; unaligned addresses combine two words.
fn lds_dword(base_word: u32, addr: u32) -> u32 {
    if LDS_BYTES < 4u || addr > LDS_BYTES - 4u {
        return 0u;
    }
    let w = base_word + addr / 4u;
    let s = (addr % 4u) * 8u;
    if s == 0u {
        return lds[w];
    }
    return (lds[w] >> s) | (lds[w + 1u] << (32u - s));
}
