// atomic64.wgsl — 64-bit image atomics as real 64-bit atomics, for a device
// with 64-bit integer atomics on storage buffers (gpu::device::INT64_ATOMICS;
// docs/gpu.md, "Memory"). The translator adds this file only to modules of
// such a translation; without it, 64-bit atomics take the portable fallback
// (lanes take turns over `mem`).
//
// Image memory is bound a second time, as 64-bit words (`mem64`, declared by
// the translator with this file): the same buffer as `mem`, so the 32_32 texel
// at byte offset `off` (8-byte aligned: the memory base is, and such texels are
// naturally aligned) is `mem64[off / 8u]`, and its low dword is `mem[off / 4u]`.

// vec2<u32> (x = low dword, as apply64 takes it) ↔ u64.
fn u64_of_bits(b: vec2<u32>) -> u64 {
    return u64(b.x) | (u64(b.y) << 32u);
}

fn bits_of_u64(x: u64) -> vec2<u32> {
    return vec2<u32>(u32(x & 0xfffffffflu), u32(x >> 32u));
}

// One lane's 64-bit atomic `op` (AtomicOp's discriminant) on mem64[i]; returns
// the value before it. Native where WGSL has the operation on atomic<u64> with
// apply64's meaning (SWAP, ADD, SUB, UMIN and UMAX in the unsigned order, AND,
// OR, XOR); every other operation (CMPSWAP, RSUB, SMIN and SMAX in the signed
// order, INC, DEC, FCMPSWAP, FMIN, FMAX) is the CPU's arithmetic (apply64) in a
// 64-bit compare-exchange loop, which makes it one atomic step as well.
fn atomic64(i: u32, op: u32, data: vec2<u32>, cmp: vec2<u32>) -> vec2<u32> {
    let d = u64_of_bits(data);
    switch op {
        case AT_SWAP: { return bits_of_u64(atomicExchange(&mem64[i], d)); }
        case AT_ADD: { return bits_of_u64(atomicAdd(&mem64[i], d)); }
        case AT_SUB: { return bits_of_u64(atomicSub(&mem64[i], d)); }
        case AT_UMIN: { return bits_of_u64(atomicMin(&mem64[i], d)); }
        case AT_UMAX: { return bits_of_u64(atomicMax(&mem64[i], d)); }
        case AT_AND: { return bits_of_u64(atomicAnd(&mem64[i], d)); }
        case AT_OR: { return bits_of_u64(atomicOr(&mem64[i], d)); }
        case AT_XOR: { return bits_of_u64(atomicXor(&mem64[i], d)); }
        default: {}
    }
    var old = atomicLoad(&mem64[i]);
    loop {
        let next = u64_of_bits(apply64(op, bits_of_u64(old), data, cmp));
        let x = atomicCompareExchangeWeak(&mem64[i], old, next);
        if x.exchanged {
            break;
        }
        old = x.old_value;
    }
    return bits_of_u64(old);
}
