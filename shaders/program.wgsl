// program.wgsl — the helpers of whole-program modules (gpu/translate/whole/):
// lane masks and lane exchanges through workgroup memory, the launch's memory
// at byte granularity (the WGSL side of cpu::memops' global accesses) and LDS
// as a read-write storage buffer (cpu::memops' LDS accesses). One WGSL
// workgroup runs one AMD wave at a time, so every barrier here is among the
// lanes of one wave. Needs the bindings, MEM_BASE, MEM_BYTES, LDS_BYTES and
// WAVE_SIZE of the module.

// Lane-mask gathers, triple-buffered (a slot is cleared two gathers after it
// was read, when every lane has read it): one barrier per gather.
var<workgroup> xm: array<atomic<u32>, 6>;
// Lane exchanges, double-buffered: one barrier per exchange.
var<workgroup> xv: array<u32, 128>;
// The first fault of the wave running (0xffffffff − code; 0 none).
var<workgroup> wg_fault: atomic<u32>;
// A value every lane reads through workgroupUniformLoad.
var<workgroup> wg_u: u32;

// Every lane's bit gathered into the wave's mask (x lanes 0–31, y 32–63).
fn xl_mask(bit: bool, lane: u32, slot: u32) -> vec2<u32> {
    atomicOr(&xm[slot * 2u + lane / 32u], select(0u, 1u, bit) << (lane % 32u));
    workgroupBarrier();
    let r = vec2<u32>(atomicLoad(&xm[slot * 2u]), atomicLoad(&xm[slot * 2u + 1u]));
    if lane == 0u {
        let c = (slot + 2u) % 3u;
        atomicStore(&xm[c * 2u], 0u);
        atomicStore(&xm[c * 2u + 1u], 0u);
    }
    return r;
}

// Lane `from`'s `val` (every lane offers its own).
fn xl_value(val: u32, lane: u32, src_lane: u32, buf: u32) -> u32 {
    xv[buf * 64u + lane] = val;
    workgroupBarrier();
    return xv[buf * 64u + (src_lane % WAVE_SIZE)];
}

// The lowest set bit of EXEC, 0 when none (v_readfirstlane).
fn first_lane(lo: u32, hi: u32) -> u32 {
    if lo != 0u {
        return countTrailingZeros(lo);
    }
    if hi != 0u {
        return 32u + countTrailingZeros(hi);
    }
    return 0u;
}

// Bit `lane` of a lane mask.
fn mask_bit(lo: u32, hi: u32, lane: u32) -> bool {
    return is_active(lo, hi, lane);
}

// The offset in `mem` of the 64-bit address `a` for an access of `bytes`, or
// NO_TEXEL outside the launch's memory (cpu::memops::read's check).
fn gmem_offset(a: vec2<u32>, bytes: u32) -> u32 {
    let base = vec2<u32>(MEM_BASE_LO, MEM_BASE_HI);
    if u64_lt(a, base) {
        return NO_TEXEL;
    }
    let d = u64_sub(a, base);
    if d.y != 0u || bytes > MEM_BYTES || d.x > MEM_BYTES - bytes {
        return NO_TEXEL;
    }
    return d.x;
}

// The dword at byte offset `off` of memory (any alignment; in range).
fn gmem_dword(off: u32) -> u32 {
    return gmem_dword_recorded(off, true);
}

// gmem_dword for a dword every lane of the wave reads alike (a scalar load):
// lane 0 alone reports it to spec_touch, which names the workgroup, not the
// lane, so that a wave records a word once rather than 64 times.
fn gmem_dword_uniform(off: u32, lane: u32) -> u32 {
    return gmem_dword_recorded(off, lane == 0u);
}

// gmem_dword, reporting the words it reads to spec_touch when `record`.
fn gmem_dword_recorded(off: u32, record: bool) -> u32 {
    let w = off / 4u;
    let s = (off % 4u) * 8u;
    if record {
        spec_touch(w, false);
    }
    let lo = atomicLoad(&mem[w]);
    if s == 0u {
        return lo;
    }
    if record {
        spec_touch(w + 1u, false);
    }
    return (lo >> s) | (atomicLoad(&mem[w + 1u]) << (32u - s));
}

// `n` bytes (1 or 2) at byte offset `off` of memory, at bit 0 (in range).
fn gmem_bytes(off: u32, n: u32) -> u32 {
    var r = 0u;
    for (var i = 0u; i < n; i = i + 1u) {
        let b = off + i;
        spec_touch(b / 4u, false);
        r = r | (((atomicLoad(&mem[b / 4u]) >> ((b % 4u) * 8u)) & 0xffu) << (8u * i));
    }
    return r;
}

// Replaces `n` bytes (1–4) at byte offset `off` with the low bytes of `v`,
// word by word, each with a compare-exchange so that neighbours survive.
fn gmem_put(off: u32, n: u32, v: u32) {
    if n == 4u && (off % 4u) == 0u {
        spec_touch(off / 4u, true);
        atomicStore(&mem[off / 4u], v);
        return;
    }
    for (var i = 0u; i < n; i = i + 1u) {
        let b = off + i;
        let w = b / 4u;
        let s = (b % 4u) * 8u;
        let bits = ((v >> (8u * i)) & 0xffu) << s;
        let mask = 0xffu << s;
        spec_touch(w, true);
        var old = atomicLoad(&mem[w]);
        loop {
            let r = atomicCompareExchangeWeak(&mem[w], old, (old & ~mask) | bits);
            if r.exchanged {
                break;
            }
            old = r.old_value;
        }
    }
}

// LDS: the byte address `a` (+ `extra`) of an access of `bytes` is in range
// (cpu::memops::lds_range; the sum is not wrapped).
fn lds_ok(a: u32, extra: u32, bytes: u32) -> bool {
    let s = a + extra;
    if s < a {
        return false;
    }
    return bytes <= LDS_BYTES && s <= LDS_BYTES - bytes;
}

// The dword at LDS byte address `a` (in range; any alignment).
fn lds_get(base: u32, a: u32) -> u32 {
    let w = base + a / 4u;
    let s = (a % 4u) * 8u;
    let lo = atomicLoad(&lds[w]);
    if s == 0u {
        return lo;
    }
    return (lo >> s) | (atomicLoad(&lds[w + 1u]) << (32u - s));
}

// Replaces `n` bytes (1–4) at LDS byte address `a` with the low bytes of `v`.
fn lds_put(base: u32, a: u32, n: u32, v: u32) {
    if n == 4u && (a % 4u) == 0u {
        atomicStore(&lds[base + a / 4u], v);
        return;
    }
    for (var i = 0u; i < n; i = i + 1u) {
        let b = a + i;
        let w = base + b / 4u;
        let s = (b % 4u) * 8u;
        let bits = ((v >> (8u * i)) & 0xffu) << s;
        let mask = 0xffu << s;
        var old = atomicLoad(&lds[w]);
        loop {
            let r = atomicCompareExchangeWeak(&lds[w], old, (old & ~mask) | bits);
            if r.exchanged {
                break;
            }
            old = r.old_value;
        }
    }
}

// A short load's dword (cpu::memops::widen): `kind` is the Width code of
// gpu/translate/whole/mem.rs, `raw` the loaded bytes at bit 0.
fn widen_load(kind: u32, raw: u32, old: u32) -> u32 {
    let u8v = raw & 0xffu;
    let i8v = int_sext(u8v, 8u);
    let u16v = raw & 0xffffu;
    let i16v = int_sext(u16v, 16u);
    switch kind {
        case 0u: { return u8v; }
        case 1u: { return i8v; }
        case 2u: { return u16v; }
        case 3u: { return i16v; }
        case 4u: { return (old & 0xffff0000u) | u8v; }
        case 5u: { return (old & 0xffff0000u) | (i8v & 0xffffu); }
        case 6u: { return (old & 0xffff0000u) | u16v; }
        case 7u: { return (old & 0xffffu) | (u8v << 16u); }
        case 8u: { return (old & 0xffffu) | (i8v << 16u); }
        case 9u: { return (old & 0xffffu) | (u16v << 16u); }
        default: { return raw; }
    }
}

// SDWA source selection (cpu::alu sdwa_select).
fn sdwa_select(x: u32, sel: u32, sext: bool) -> u32 {
    if sel >= 6u {
        return x;
    }
    var shift = 8u * sel;
    var bits = 8u;
    if sel >= 4u {
        shift = 16u * (sel - 4u);
        bits = 16u;
    }
    let v = (x >> shift) & int_mask(bits);
    return select(v, int_sext(v, bits), sext);
}

// SDWA destination placement (cpu::alu sdwa_place).
fn sdwa_place(sel: u32, unused: u32, r: u32, old: u32) -> u32 {
    if sel >= 6u {
        return r;
    }
    var shift = 8u * sel;
    var bits = 8u;
    if sel >= 4u {
        shift = 16u * (sel - 4u);
        bits = 16u;
    }
    let fm = int_mask(bits);
    let field = (r & fm) << shift;
    let place = fm << shift;
    if unused == 2u {
        return (old & ~place) | field;
    }
    if unused == 1u {
        let sign = ((r >> (bits - 1u)) & 1u) == 1u;
        let above = select(0xffffffffu << (shift + bits), 0u, shift + bits >= 32u);
        return field | select(0u, above, sign);
    }
    return field;
}

// ---- Buffer memory through a V# (machine::buffer; `gen` is 6..11) ----

// Why a V# is not run (Vsharp::refusal): 0 when it is; else 1 swizzled
// without ADD_TID_ENABLE before gfx9, 3 ADD_TID_ENABLE with IDXEN,
// 4 gfx11's SWIZZLE_ENABLE 2, 5 swizzled with OOB_SELECT 0 or 3 (gfx10+).
fn buf_refusal(gen: u32, w1: u32, w3: u32, idxen: bool) -> u32 {
    let swizzle = select(w1 >> 31u, w1 >> 30u, gen >= 11u);
    let add_tid = ((w3 >> 23u) & 1u) == 1u;
    let oob = (w3 >> 28u) & 3u;
    if swizzle != 0u && gen <= 8u && !add_tid {
        return 1u;
    }
    if add_tid && idxen {
        return 3u;
    }
    if swizzle == 2u && gen >= 11u {
        return 4u;
    }
    if swizzle != 0u && gen >= 10u && oob != 1u && oob != 2u {
        return 5u;
    }
    return 0u;
}

// A lane's index (buffer::index): its lane id with ADD_TID_ENABLE, else the
// index VGPR with IDXEN, else 0.
fn buf_index(w3: u32, idxen: bool, vgpr: u32, lane: u32) -> u32 {
    if ((w3 >> 23u) & 1u) == 1u {
        return lane;
    }
    return select(0u, vgpr, idxen);
}

// The byte address of a lane's access (buffer::address, with the fields of
// Vsharp::new): linear, or swizzled by INDEX_STRIDE records of elements.
fn buf_address(gen: u32, w0: u32, w1: u32, w3: u32, index: u32, offset: u32, soffset: u32) -> vec2<u32> {
    let base = vec2<u32>(w0, w1 & 0xffffu);
    let swizzle = select(w1 >> 31u, w1 >> 30u, gen >= 11u);
    let add_tid = ((w3 >> 23u) & 1u) == 1u;
    var stride = (w1 >> 16u) & 0x3fffu;
    if add_tid && (gen == 8u || gen == 9u) {
        stride = stride | (((w3 >> 15u) & 15u) << 14u);
    }
    var within = vec2<u32>(0u);
    if swizzle == 0u {
        within = u64_add(u64_mul32(index, stride), vec2<u32>(offset, 0u));
    } else {
        // INDEX_STRIDE `is` and the element size `e` are powers of two (8 to
        // 64 records, 2 to 16 bytes): their logarithms `ls` and `le`, so that
        // the divisions and remainders are shifts and masks (the driver
        // divides by a run-time value one lane at a time).
        let ls = 3u + ((w3 >> 21u) & 3u);
        var le = 2u;
        if gen <= 8u {
            le = 1u + ((w3 >> 19u) & 3u);
        } else if gen >= 11u && swizzle == 3u {
            le = 4u;
        }
        let em = (1u << le) - 1u;
        // (index / is × stride + offset / e × e) × is, in 64 bits.
        let group = u64_add(u64_mul32(index >> ls, stride), vec2<u32>(offset & ~em, 0u));
        let rows = vec2<u32>(group.x << ls, (group.x >> (32u - ls)) | (group.y << ls));
        within = u64_add(rows, vec2<u32>(((index & ((1u << ls) - 1u)) << le) + (offset & em), 0u));
    }
    return u64_add(u64_add(base, within), vec2<u32>(soffset, 0u));
}

// Whether the element of `size` bytes `rel` bytes past the lane's offset is
// inside the buffer (buffer::in_range, rule by rule). Every sum is 64-bit;
// `x ≤ limit` is written `!u64_lt(limit, x)`.
fn buf_in_range(gen: u32, w1: u32, nr: u32, w3: u32, idxen: bool, index: u32, offset: u32, soffset: u32, rel: u32, size: u32) -> bool {
    let stride = (w1 >> 16u) & 0x3fffu;
    let tail = vec2<u32>(rel + size, 0u);
    let off = vec2<u32>(offset, 0u);
    let soff = vec2<u32>(soffset, 0u);
    let index_in = index < nr;
    let nr64 = vec2<u32>(nr, 0u);
    let stride64 = vec2<u32>(stride, 0u);
    let off_end = u64_add(off, tail);
    let raw_end = u64_add(u64_add(off, soff), tail);
    if gen <= 8u && ((w3 >> 23u) & 1u) == 1u {
        // ADD_TID_ENABLE before gfx9: not checked (buffer.rs in_range).
        return true;
    }
    if gen <= 7u {
        if stride == 0u {
            // NUM_RECORDS − SOFFSET wraps (SI/CI's clamping bug).
            return !u64_lt(vec2<u32>(nr - soffset, 0u), off_end);
        }
        return index_in && !u64_lt(stride64, off_end);
    }
    if gen == 8u {
        let start = u64_add(u64_mul32(index, stride), u64_add(off, soff));
        return !u64_lt(nr64, u64_add(start, tail));
    }
    if gen == 9u {
        if ((w3 >> 23u) & 1u) == 1u {
            return true;
        }
        if idxen && stride != 0u {
            return index_in;
        }
        return !u64_lt(nr64, raw_end);
    }
    let oob = (w3 >> 28u) & 3u;
    if oob == 0u {
        return index_in && !u64_lt(stride64, off_end);
    }
    if oob == 1u {
        return index_in;
    }
    if oob == 2u {
        return nr != 0u;
    }
    return !u64_lt(nr64, raw_end);
}

// The byte bound of an s_buffer_load (buffer::scalar_bound).
fn buf_scalar_bound(w1: u32, nr: u32) -> vec2<u32> {
    let stride = (w1 >> 16u) & 0x3fffu;
    if stride == 0u {
        return vec2<u32>(nr, 0u);
    }
    return u64_mul32(nr, stride);
}

// ---- DPP lane shuffles (cpu::alu::dpp) ----

const NO_LANE: u32 = 0xffffffffu;

// The lane a lane reads under DPP16 control `c`, NO_LANE when out of range
// (dpp16_source, row by row of the same table).
fn dpp16_source(c: u32, lane: u32) -> u32 {
    let row = lane & ~15u;
    let i = lane & 15u;
    let n = c & 15u;
    if c <= 0xffu {
        return (lane & ~3u) | ((c >> (2u * (lane & 3u))) & 3u);
    }
    if c >= 0x101u && c <= 0x10fu {
        return select(NO_LANE, lane + n, i + n < 16u);
    }
    if c >= 0x111u && c <= 0x11fu {
        return select(NO_LANE, lane - n, i >= n);
    }
    if c >= 0x121u && c <= 0x12fu {
        return row | ((i + 16u - n) & 15u);
    }
    if c == 0x130u {
        return select(NO_LANE, lane + 1u, lane + 1u < WAVE_SIZE);
    }
    if c == 0x134u {
        return (lane + 1u) % WAVE_SIZE;
    }
    if c == 0x138u {
        return select(NO_LANE, lane - 1u, lane >= 1u);
    }
    if c == 0x13cu {
        return (lane + WAVE_SIZE - 1u) % WAVE_SIZE;
    }
    if c == 0x140u {
        return row | (15u - i);
    }
    if c == 0x141u {
        return (lane & ~7u) | (7u - (lane & 7u));
    }
    if c == 0x142u {
        return select(NO_LANE, row - 1u, lane >= 16u);
    }
    if c == 0x143u {
        return select(NO_LANE, 31u, lane >= 32u);
    }
    if c >= 0x150u && c <= 0x15fu {
        return row | n;
    }
    if c >= 0x160u && c <= 0x16fu {
        return row | (i ^ n);
    }
    return NO_LANE;
}

// What a lane does under DPP (plan): x = 0 no write, 1 read lane y, 2 read
// 0. DPP8's eight 3-bit selects are packed in `sel`.
fn dpp_plan(dpp8: bool, ctrl: u32, row_mask: u32, bank_mask: u32, bound_ctrl: bool, fi: bool, sel: u32, lane: u32, exec_lo: u32, exec_hi: u32) -> vec2<u32> {
    if dpp8 {
        let s = (lane & ~7u) | ((sel >> (3u * (lane & 7u))) & 7u);
        return vec2<u32>(select(2u, 1u, is_active(exec_lo, exec_hi, s) || fi), s);
    }
    if ((row_mask >> (lane / 16u)) & 1u) == 0u || ((bank_mask >> ((lane / 4u) % 4u)) & 1u) == 0u {
        return vec2<u32>(0u, lane);
    }
    let s = dpp16_source(ctrl, lane);
    if s != NO_LANE && (is_active(exec_lo, exec_hi, s) || fi) {
        return vec2<u32>(1u, s);
    }
    return vec2<u32>(select(0u, 2u, bound_ctrl), lane);
}

// ---- LDS lane exchanges without LDS (cpu::memops::ds) ----

// The lane ds_swizzle_b32 reads (swizzle_source): quad permute with bit 15,
// else and/or/xor masks within each 32 lanes.
fn swizzle_source(offset: u32, lane: u32) -> u32 {
    if (offset & 0x8000u) != 0u {
        return (lane & ~3u) | ((offset >> (2u * (lane & 3u))) & 3u);
    }
    let and_mask = offset & 31u;
    let or_mask = (offset >> 5u) & 31u;
    let xor_mask = (offset >> 10u) & 31u;
    return ((((lane & and_mask) | or_mask) ^ xor_mask) & 31u) | (lane & 32u);
}

// ds_permute_b32's sender for this lane: every lane offers its target lane
// (NO_LANE when inactive); the highest lane that targets this one, or
// NO_LANE when none does.
fn xl_pusher(to: u32, lane: u32, buf: u32) -> u32 {
    xv[buf * 64u + lane] = to;
    workgroupBarrier();
    var found = NO_LANE;
    for (var s = 0u; s < WAVE_SIZE; s = s + 1u) {
        if xv[buf * 64u + s] == lane {
            found = s;
        }
    }
    return found;
}

// The lane v_permlane16_b32 (cross: v_permlanex16_b32) reads
// (cpu::wave_ops::permlane_source): select nibble `lane mod 16` of
// {hi, lo}, in the lane's row or the other row of its 32.
fn permlane_source(cross: bool, lo: u32, hi: u32, lane: u32) -> u32 {
    let row = select(lane >> 4u, (lane >> 4u) ^ 1u, cross);
    let i = lane & 15u;
    let nib = select((lo >> (4u * i)) & 15u, (hi >> (4u * (i - 8u))) & 15u, i >= 8u);
    return 16u * row + nib;
}

// The launch address of byte `offset` of lane `lane`'s private memory in
// wave `wave` (ir::mem::scratch_address): dword offset / 4 of every lane side
// by side, from the wave's scratch at base + wave × per_wave.
fn scratch_address(base: vec2<u32>, per_wave: u32, wave: u32, lane: u32, offset: u32) -> vec2<u32> {
    let w = u64_add(base, u64_mul32(wave, per_wave));
    let d = u64_mul32(offset / 4u, 4u * WAVE_SIZE);
    return u64_add(u64_add(w, d), vec2<u32>(lane * 4u + offset % 4u, 0u));
}

// The launch address of export slot `tgt` of lane `lane` in wave `wave`
// (ir::export::slot_address): base + ((wave × WAVE_SIZE + lane) × 9 + tgt) × 20.
fn export_slot(base: vec2<u32>, wave: u32, lane: u32, tgt: u32) -> vec2<u32> {
    let index = (wave * WAVE_SIZE + lane) * 9u + tgt;
    return u64_add(base, u64_mul32(index, 20u));
}
