#!/usr/bin/env python3
"""Writes the generated data tables of src/gpu/translate/bcn_tables.rs (do not
edit them by hand), which the WGSL decoders of shaders/bcn.wgsl read from the
host's table buffer, from the tables of the bcdec_rs crate the CPU decodes with
(src/texture/bcn.rs), so that the WGSL decoders index exactly the same data:

- BC_PARTITION2 / BC_FIXUP2, BC_PARTITION3 / BC_FIXUP3: BC7's 64 two- and
  three-subset partitions, 2 bits of subset per texel (texel 0 lowest), and the
  mask of "fix-up" texels whose index has one bit less (bcdec marks them with
  bit 7). BC6H's 32 partitions are checked to equal the first 32 of BC7's.
- BC6_FIELDS: for each of BC6H's 14 modes, in bitstream order, the endpoint
  fields its match arm reads: target (endpoint * 3 + R/G/B, 12 = the
  partition) in bits 3:0, shift in 7:4, bit count in 12:8, bit 13 = read
  reversed; zero-padded to BC6_FIELDS_PER_MODE entries.

Usage: python3 tools/bcn_tables.py PATH/TO/bcdec_rs-0.2.1/src/lib.rs
The output replaces the generated tables at the end of
src/gpu/translate/bcn_tables.rs (then run cargo fmt).
"""
import re
import sys
src=open(sys.argv[1]).read()
# BC7 partition sets
i=src.index('pub fn bc7(')
j=src.index('static PARTITION_SETS', i)
body=src[j:src.index('];\n\n    let a_weight2', j)]
rows=re.findall(r'\[\[(\d+), (\d+), (\d+), (\d+)\], \[(\d+), (\d+), (\d+), (\d+)\], \[(\d+), (\d+), (\d+), (\d+)\], \[(\d+), (\d+), (\d+), (\d+)\]\]', body)
assert len(rows)==128, len(rows)
def enc(r):
    r=[int(x) for x in r]
    sub=0; fix=0
    for t,v in enumerate(r):
        sub |= (v&3) << (2*t)
        if v & 0x80: fix |= 1<<t
    return sub,fix
p2=[enc(r) for r in rows[:64]]; p3=[enc(r) for r in rows[64:]]
# BC6 partitions equal first 32 of p2?
k=src.index('static PARTITION_SETS', src.index('pub fn bc6h_half('))
k=src.index('= [', k)
body6=src[k:src.index('\n    ];', k)]
rows6=re.findall(r'\[\[(\d+), (\d+), (\d+), (\d+)\], \[(\d+), (\d+), (\d+), (\d+)\], \[(\d+), (\d+), (\d+), (\d+)\], \[(\d+), (\d+), (\d+), (\d+)\]\]', body6)
assert len(rows6)==32 and [enc(r) for r in rows6]==p2[:32]
def rust(name, vals, per=8, doc=""):
    out="".join(f"/// {line}\n" for line in doc.split("\n") if doc)
    out+=f"pub const {name}: [u32; {len(vals)}] = [\n"
    for a in range(0,len(vals),per):
        out+="    "+", ".join(f"0x{v:08x}" for v in vals[a:a+per])+",\n"
    return out+"];\n"
print(rust("BC_PARTITION2", [s for s,f in p2], doc="BC7's two-subset partitions: 2 bits of subset per texel, texel 0 lowest."))
print(rust("BC_FIXUP2", [f for s,f in p2], doc="The fix-up texels of each two-subset partition (their index has one bit less)."))
print(rust("BC_PARTITION3", [s for s,f in p3], doc="BC7's three-subset partitions."))
print(rust("BC_FIXUP3", [f for s,f in p3], doc="The fix-up texels of each three-subset partition."))
# BC6 mode fields
i=src.index('match mode {', src.index('pub fn bc6h_half('))
end=src.index('let num_partitions', i)
body=src[i:end]
arms=re.split(r'\n        // mode (\d+)\n', body)
targets={'r':0,'g':1,'b':2}
modes={}
for a in range(1,len(arms),2):
    num=int(arms[a]); text=arms[a+1]
    fields=[]
    for line in text.split('\n'):
        line=line.strip()
        m=re.match(r'([rgb])\[(\d)\] \|= bstream\.(read_bits_i32|read_bit_i32|read_bits_r)\((\d*)\)(?: << (\d+))?;', line)
        if m:
            comp,ep,fn,cnt,sh=m.groups()
            cnt=int(cnt) if cnt else 1
            sh=int(sh) if sh else 0
            target=int(ep)*3+targets[comp]
            rev=1 if fn=='read_bits_r' else 0
            fields.append((target,sh,cnt,rev)); continue
        m=re.match(r'partition = bstream\.read_bits_i32\(5\);', line)
        if m: fields.append((12,0,5,0)); continue
        if 'bstream' in line: raise Exception(line)
    modes[num]=fields
order=sorted(modes)
assert order==list(range(1,15)),order
mx=max(len(modes[m]) for m in order)
vals=[]
for m in order:
    f=[t | (s<<4) | (c<<8) | (r<<13) for (t,s,c,r) in modes[m]]
    f+= [0]*(mx-len(f))
    vals+=f
print(f"/// Entries of [`BC6_FIELDS`] per mode (zero-padded).\npub const BC6_FIELDS_PER_MODE: usize = {mx};\n")
print(rust("BC6_FIELDS", vals, 8, doc="BC6H's endpoint fields per mode in bitstream order, [`BC6_FIELDS_PER_MODE`]\neach: target in bits 3:0, shift in 7:4, bit count in 12:8, bit 13 read\nreversed."))
