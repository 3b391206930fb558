
// speculate.wgsl — speculative workgroups of a whole program that writes memory
// (docs/gpu.md, "Speculative workgroups"; the CPU's speculative batches,
// cpu::run_batches). The CPU's order runs workgroups one after another. When
// no two workgroups touch the same memory with at least one of them writing,
// every workgroup reads what it would read in that order and memory ends the
// same whatever the order, so the runtime may first dispatch them all together
// through this module, in which every access reports the dwords it touches.
// Entry e of `spec` (after the flag at spec[0] and one spare word) covers the
// dwords w with w >> params.spec_shift == e. Word 2 + 2e names the first
// workgroup that touched it (its first wave + 1; 0: untouched), won by a
// compare-exchange, so that every other workgroup that touches it sees
// another's name; word 3 + 2e gathers bit 0, "another workgroup touched it",
// and bit 1, "it was written". Both bits are ORed into that one word, so the
// later of the two ORs sees them together and sets spec[0]: the runtime then
// discards the dispatch's results and runs the workgroups one dispatch each,
// through the module without this file. Entries may cover several dwords, so
// the check is conservative: it may send a program back to the serial order,
// never let a conflict through.
@group(0) @binding(SPEC_BINDING) var<storage, read_write> spec: array<atomic<u32>>;

// The running workgroup: its first wave + 1.
var<private> spec_id: u32;

fn spec_touch(word: u32, write: bool) {
    let e = 2u + (word >> params.spec_shift) * 2u;
    if e + 1u >= arrayLength(&spec) {
        // Past the table (which covers every word of memory): a conflict.
        atomicStore(&spec[0], 1u);
        return;
    }
    // The entry's first workgroup; a weak compare-exchange may fail
    // spuriously, so it is retried while the entry reads 0.
    var owner = 0u;
    loop {
        let r = atomicCompareExchangeWeak(&spec[e], 0u, spec_id);
        if r.exchanged {
            owner = spec_id;
            break;
        }
        if r.old_value != 0u {
            owner = r.old_value;
            break;
        }
    }
    let bits = select(0u, 2u, write) | select(0u, 1u, owner != spec_id);
    if bits != 0u && (atomicOr(&spec[e + 1u], bits) | bits) == 3u {
        atomicStore(&spec[0], 1u);
    }
}
