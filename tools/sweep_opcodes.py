#!/usr/bin/env python3
"""Sweeps every opcode of every encoding class through llvm-mc-19 and writes the
mnemonic tables of src/gcn/ops_tables.rs (generated DATA; do not edit by hand).

gfx8+ tables come from the LLVM 19 disassembler: for each class and opcode the
script tries a few operand patterns (registers, then zeros) until LLVM decodes
the words, and records the printed mnemonic and the instruction length.
LLVM 19 cannot disassemble gfx6/gfx7, so their tables come from the assembler:
every instruction text the gfx8/gfx9/gfx10 sweep printed is assembled with
-mcpu=tahiti / -mcpu=bonaire, and the opcode is read back from the bytes.

Usage: python3 tools/sweep_opcodes.py > src/gcn/ops_tables.rs && rustfmt src/gcn/ops_tables.rs
"""
import re
import subprocess
import sys

MC = "llvm-mc-19"
GENS = [("gfx8", "tonga"), ("gfx9", "gfx900"), ("gfx10", "gfx1030"), ("gfx11", "gfx1100")]
PAD = [0xBF800000, 0xBF800000]  # s_nop 0: valid on every generation


def run(args, text):
    p = subprocess.run([MC, "-arch=amdgcn"] + args, input=text, capture_output=True, text=True)
    return p.stdout, p.stderr


def bad_lines(stderr):
    out = set()
    for l in stderr.splitlines():
        m = re.match(r"<stdin>:(\d+):\d+: (warning|error)", l)
        if m:
            out.add(int(m.group(1)))
    return out


def disasm(mcpu, groups):
    """groups: lists of dwords. Returns (text, length in bytes) or None per group."""
    lines = []
    for g in groups:
        bs = b"".join(w.to_bytes(4, "little") for w in g + PAD)
        lines.append("[" + ",".join("0x%02x" % b for b in bs) + "]")
    out, err = run(["-mcpu=" + mcpu, "-disassemble", "-show-encoding"], "\n".join(lines) + "\n")
    bad = bad_lines(err)
    decoded = []
    for l in out.splitlines():
        if "; encoding: [" in l:
            text, enc = l.split("; encoding: [")
            decoded.append((" ".join(text.split()), len(enc.strip().rstrip("]").split(","))))
    res, k = [], 0
    for i, g in enumerate(groups):
        if i + 1 in bad:
            res.append(None)
            continue
        total = (len(g) + len(PAD)) * 4
        first, covered = None, 0
        while covered < total:
            t, n = decoded[k]
            k += 1
            covered += n
            if first is None:
                first = (t, n)
        res.append(first)
    return res


def assemble(mcpu, texts):
    out, err = run(["-mcpu=" + mcpu, "-show-encoding"], "\n".join(texts) + "\n")
    bad = bad_lines(err)
    encs = [l.split("; encoding: [")[1] for l in out.splitlines() if "; encoding: [" in l]
    res, k = [], 0
    for i in range(len(texts)):
        if i + 1 in bad:
            res.append(None)
            continue
        bs = [int(x, 16) for x in encs[k].strip().rstrip("]").split(",")]
        k += 1
        words = [int.from_bytes(bytes(bs[j:j + 4]), "little") for j in range(0, len(bs) - 3, 4)]
        res.append(words)
    return res


V1, V2, V3, S4, S6 = 0x101, 0x102, 0x103, 4, 6


def enc_fns(gen):
    """class -> (opcode keys, list of variant functions key -> dwords)."""
    g10 = gen in ("gfx10", "gfx11")
    f = {}
    f["SOP1"] = (range(256), [lambda op, d=d, s=s: [0xBE800000 | d << 16 | op << 8 | s]
                              for d, s in [(2, 4), (0, 0), (2, 0), (0, 4), (0x6a, 4)]])
    f["SOP2"] = (range(0x60), [lambda op, d=d, a=a, b=b: [0x80000000 | op << 23 | d << 16 | b << 8 | a]
                               for d, a, b in [(2, 4, 6), (0, 0, 0), (2, 4, 0), (4, 4, 6)]])
    f["SOPK"] = (range(0x1d), [lambda op, d=d, k=k: [0xB0000000 | op << 23 | d << 16 | k]
                               for d, k in [(2, 0x10), (0, 0), (2, 0), (0, 0x10), (2, 0x1801)]])
    f["SOPC"] = (range(0x80), [lambda op, a=a, b=b: [0xBF000000 | op << 16 | b << 8 | a]
                               for a, b in [(4, 6), (0, 0), (4, 0), (0x80, 0x80)]])
    f["SOPP"] = (range(0x80), [lambda op, k=k: [0xBF800000 | op << 16 | k] for k in [0, 1, 0x10]])
    if g10:
        f["SMEM"] = (range(256), [lambda op, d=d, b=b, o=o: [0xF4000000 | op << 18 | d << 6 | b, o]
                                  for d, b, o in [(4, 1, 0xFA000000), (4, 1, 0), (0, 0, 0xFA000000), (0, 0, 0), (4, 1, 0x08000000)]])
    else:
        f["SMEM"] = (range(256), [lambda op, d=d, b=b, i=i: [0xC0000000 | op << 18 | i << 17 | d << 6 | b, 0]
                                  for d, b, i in [(4, 1, 1), (4, 1, 0), (0, 0, 1), (0, 0, 0)]])
    f["VOP1"] = (range(256), [lambda op, d=d, s=s: [0x7E000000 | d << 17 | op << 9 | s]
                              for d, s in [(5, V1), (5, S4), (0, 0), (5, 0x80), (4, V2)]])
    f["VOP2"] = (range(0x3e), [lambda op, d=d, s=s, b=b: [op << 25 | d << 17 | b << 9 | s]
                               for d, s, b in [(5, V1, 2), (5, S4, 2), (0, 0, 0), (4, V2, 6)]])
    f["VOPC"] = (range(256), [lambda op, s=s, b=b: [0x7C000000 | op << 17 | b << 9 | s]
                              for s, b in [(V1, 2), (S4, 2), (0, 0), (V2, 4)]])
    srcs = [(V1, V2, V3), (V1, V2, 0), (V1, 0, 0), (0, 0, 0), (V1, S4, 0), (S4, V2, 0), (V1, S4, S6), (S4, 0, 0),
            (V2, V3, V1), (V2, V3, 0), (V2, 0, 0), (S4, S6, 0)]
    pre = 0xD4000000 if g10 else 0xD0000000
    top = 0x380 if gen == "gfx9" else 0x400
    f["VOP3"] = (range(top), [lambda op, a=a, b=b, c=c, d=d: [pre | op << 16 | d, a | b << 9 | c << 18]
                              for a, b, c in srcs for d in (4, 0)])
    if gen != "gfx8":
        p3 = 0xCC000000 if g10 else 0xD3800000
        f["VOP3P"] = (range(0x80), [lambda op, a=a, b=b, c=c: [p3 | op << 16 | 4, a | b << 9 | c << 18 | 0x18000000]
                                    for a, b, c in srcs] + [lambda op, a=a, b=b, c=c: [p3 | op << 16 | 4, a | b << 9 | c << 18]
                                                            for a, b, c in srcs])
    dsh = 18 if g10 else 17
    gds = 1 << (dsh - 1)  # GDS bit: 16 on gfx8/9, 17 on gfx10+ (ds_gws_* need it)
    f["DS"] = (range(256), [lambda op, v=v, g=g: [0xD8000000 | op << dsh | g, v] for g in (0, gds) for v in
                            [0x05030201, 0x00030201, 0x05000201, 0x05000001, 0x00000201, 0x00000001, 0, 0x05000000, 0x06040201, 0x06040200]])
    mb = 8 if gen == "gfx11" else 7
    f["MUBUF"] = (range(1 << mb), [lambda op, v=v, o=o: [0xE0000000 | op << 18 | o, v] for v, o in
                                   [(0x80010501, 0x2000), (0x80010501, 0), (0x80010500, 0), (0x80010000, 0), (0x80010401, 0x1000),
                                    (0x80010000, 0x10000)]])  # bit 16: LDS (buffer_store_lds_dword)
    if gen == "gfx10":
        f["MTBUF"] = (range(16), [lambda op, v=v: [0xE8080000 | (op & 7) << 16, v | (op >> 3) << 21] for v in [0x80010501, 0x80010500]])
    else:
        f["MTBUF"] = (range(16), [lambda op, v=v: [0xE8080000 | op << 15, v] for v in [0x80010501, 0x80010500]])
    segs = [0] if gen == "gfx8" else [0, 1, 2]
    offs = [0, 0x7f, 0x7d, 0x7c] if gen != "gfx8" else [0]  # saddr: 0 for flat, off/null for global/scratch
    segshift = 16 if gen == "gfx11" else 14  # gfx11 moved SEG to bits 17:16
    f["FLAT"] = ([(s, op) for s in segs for op in range(128)],
                 [lambda k, v=v, so=so: [0xDC000000 | k[1] << 18 | k[0] << segshift, v | so << 16] for so in offs for v in
                  [0x05000301, 0x00000301, 0x05000001, 0x00000001, 0x05000300, 0x00000300, 0x05000000, 0x06000401]])
    return f


def sweep(gen, mcpu):
    tables = {}
    for cls, (keys, variants) in enc_fns(gen).items():
        found = {}
        todo = list(keys)
        for v in variants:
            if not todo:
                break
            groups = [v(k) for k in todo]
            res = disasm(mcpu, groups)
            rest = []
            for k, g, r in zip(todo, groups, res):
                if r is None:
                    rest.append(k)
                else:
                    found[k] = (r[0].split(" ")[0], r[1], r[0], g)
            todo = rest
        tables[cls] = found
    return tables


def si_class(w, gen):
    """(class, key) of a gfx6/gfx7 first dword; mirrors src/gcn/encoding.rs."""
    if w >> 31 == 0:
        if w >> 25 == 0x3f:
            return "VOP1", (w >> 9) & 0xff
        if w >> 25 == 0x3e:
            return "VOPC", (w >> 17) & 0xff
        return "VOP2", (w >> 25) & 0x3f
    if w >> 30 == 2:
        if w >> 28 != 0xb:
            return "SOP2", (w >> 23) & 0x7f
        t = w >> 23
        return {0x17d: ("SOP1", (w >> 8) & 0xff), 0x17e: ("SOPC", (w >> 16) & 0x7f),
                0x17f: ("SOPP", (w >> 16) & 0x7f)}.get(t, ("SOPK", (w >> 23) & 0x1f))
    t6 = w >> 26
    if t6 in (0x30, 0x31):
        return "SMRD", (w >> 22) & 0x1f
    if t6 == 0x34:
        return "VOP3", (w >> 17) & 0x1ff
    if t6 == 0x36:
        return "DS", (w >> 18) & 0xff
    if t6 == 0x37:
        return "FLAT", (0, (w >> 18) & 0x7f)
    if t6 == 0x38:
        return "MUBUF", (w >> 18) & 0x7f
    if t6 == 0x3a:
        return "MTBUF", (w >> 16) & 0x7
    return None, None


# Texts LLVM prints on gfx8+ that name SI/CI instructions differently or that the
# gfx8+ sweep cannot reach (SMRD is not SMEM): extra assembler lines for gfx6/gfx7.
SI_EXTRA = [
    "s_load_dword s1, s[2:3], 0x1", "s_load_dwordx2 s[2:3], s[2:3], 0x1", "s_load_dwordx4 s[4:7], s[2:3], 0x1",
    "s_load_dwordx8 s[4:11], s[2:3], 0x1", "s_load_dwordx16 s[4:19], s[2:3], 0x1",
    "s_buffer_load_dword s1, s[4:7], 0x1", "s_buffer_load_dwordx2 s[2:3], s[4:7], 0x1",
    "s_buffer_load_dwordx4 s[4:7], s[4:7], 0x1", "s_buffer_load_dwordx8 s[4:11], s[4:7], 0x1",
    "s_buffer_load_dwordx16 s[4:19], s[4:7], 0x1", "s_memtime s[2:3]", "s_dcache_inv", "s_dcache_inv_vol",
    "v_mac_legacy_f32 v1, v2, v3", "v_min_legacy_f32 v1, v2, v3", "v_max_legacy_f32 v1, v2, v3",
    "v_mul_legacy_f32 v1, v2, v3", "v_add_f32 v1, v2, v3", "v_sub_f32 v1, v2, v3", "v_subrev_f32 v1, v2, v3",
    "v_ashr_i32 v1, v2, v3", "v_ashrrev_i32 v1, v2, v3", "v_lshr_b32 v1, v2, v3", "v_lshrrev_b32 v1, v2, v3",
    "v_lshl_b32 v1, v2, v3", "v_lshlrev_b32 v1, v2, v3", "v_bcnt_u32_b32 v1, v2, v3", "v_mbcnt_lo_u32_b32 v1, v2, v3",
    "v_mbcnt_hi_u32_b32 v1, v2, v3", "v_add_i32 v1, vcc, v2, v3", "v_sub_i32 v1, vcc, v2, v3",
    "v_subrev_i32 v1, vcc, v2, v3", "v_addc_u32 v1, vcc, v2, v3, vcc", "v_subb_u32 v1, vcc, v2, v3, vcc",
    "v_subbrev_u32 v1, vcc, v2, v3, vcc", "v_ldexp_f32 v1, v2, v3", "v_cvt_pkaccum_u8_f32 v1, v2, v3",
    "v_cvt_pknorm_i16_f32 v1, v2, v3", "v_cvt_pknorm_u16_f32 v1, v2, v3", "v_cvt_pkrtz_f16_f32 v1, v2, v3",
    "v_cvt_pk_u16_u32 v1, v2, v3", "v_cvt_pk_i16_i32 v1, v2, v3", "v_bfm_b32 v1, v2, v3",
    "v_max3_f32 v1, v2, v3, v4", "v_mullit_f32 v1, v2, v3, v4", "v_log_clamp_f32 v1, v2", "v_rcp_clamp_f32 v1, v2",
    "v_rcp_legacy_f32 v1, v2", "v_rsq_clamp_f32 v1, v2", "v_rsq_legacy_f32 v1, v2", "v_rcp_clamp_f64 v[2:3], v[2:3]",
    "v_rsq_clamp_f64 v[2:3], v[2:3]", "v_log_legacy_f32 v1, v2", "v_exp_legacy_f32 v1, v2",
    "s_cbranch_join s[2:3]", "s_cbranch_g_fork s[2:3], s[4:5]", "s_cbranch_i_fork s[2:3], 0x10",
    "s_mov_regrd_b32 s1, s2", "s_cmpk_eq_i32 s1, 0x10", "s_set_gpr_idx_on s2, 1",
    "buffer_atomic_fcmpswap v[2:3], off, s[4:7], s1", "buffer_atomic_fmin v2, off, s[4:7], s1",
    "buffer_atomic_fmax v2, off, s[4:7], s1", "buffer_atomic_rsub v2, off, s[4:7], s1",
    "ds_rsub_u32 v1, v2", "ds_rsub_rtn_u32 v1, v2, v3", "ds_rsub_u64 v1, v[2:3]", "ds_rsub_rtn_u64 v[2:3], v1, v[2:3]",
    "ds_gws_sema_release_all gds", "buffer_wbinvl1_sc", "buffer_wbinvl1_vol", "buffer_load_dword v1, off, s[4:7], s1",
    "v_madmk_f32 v1, v2, 0x1234, v3", "v_madak_f32 v1, v2, v3, 0x1234", "v_mac_f32 v1, v2, v3",
    "s_ttracedata", "s_sendmsghalt sendmsg(MSG_INTERRUPT)", "s_cbranch_cdbgsys 1",
    # SI/CI-only VOP3 operations (LLVM VOP3Instructions.td, `VOP3_Real_gfx6_gfx7`
    # 0x161-0x163, 0x16b) and the VOP2 lane accesses that gfx8 moved to VOP3
    # (VOP2Instructions.td, `VOP2_Real_gfx6_gfx7` 0x01, 0x02).
    "v_lshl_b64 v[2:3], v[2:3], v4", "v_lshr_b64 v[2:3], v[2:3], v4", "v_ashr_i64 v[2:3], v[2:3], v4",
    "v_mul_lo_i32 v1, v2, v3", "v_readlane_b32 s1, v2, s3", "v_writelane_b32 v1, s2, 3",
]


# SI/CI-only VOPC families (v_cmps_*/v_cmpsx_*: "signalling" compares, gone in gfx8).
CMP_CONDS = ["f", "lt", "eq", "le", "gt", "lg", "ge", "o", "u", "nge", "nlg", "ngt", "nle", "neq", "nlt", "tru"]
for fam in ("v_cmps", "v_cmpsx"):
    for c in CMP_CONDS:
        SI_EXTRA.append("%s_%s_f32 vcc, v1, v2" % (fam, c))
        SI_EXTRA.append("%s_%s_f64 vcc, v[2:3], v[4:5]" % (fam, c))
        SI_EXTRA.append("%s_%s_f32_e64 s[2:3], v1, v2" % (fam, c))
        SI_EXTRA.append("%s_%s_f64_e64 s[2:3], v[2:3], v[4:5]" % (fam, c))


def si_tables(texts):
    out = {}
    for gen, mcpu in [("gfx6", "tahiti"), ("gfx7", "bonaire")]:
        t = {}
        res = assemble(mcpu, texts)
        for text, words in zip(texts, res):
            if not words:
                continue
            cls, key = si_class(words[0], gen)
            if cls is None:
                continue
            name = text.split(" ")[0]
            if cls == "VOP3" and name.endswith("_e32"):
                continue
            t.setdefault(cls, {}).setdefault(key, (name, len(words) * 4, text, words))
        out[gen] = t
    return out


def rust_ident(gen, cls):
    return "%s_%s" % (gen.upper(), cls)


def main():
    all_tables = {}
    si_texts = list(SI_EXTRA)
    for gen, mcpu in GENS:
        all_tables[gen] = sweep(gen, mcpu)
        print("swept", gen, {c: len(t) for c, t in all_tables[gen].items()}, file=sys.stderr)
        if gen in ("gfx8", "gfx10"):
            for cls, t in all_tables[gen].items():
                for k, (name, n, text, g) in t.items():
                    # VOP3 forms of VOP1/2/C ops would only re-find the e32 ops.
                    if "_dpp" in name or "_sdwa" in name:
                        continue
                    si_texts.append(text.replace("_e64 ", " ").replace("_e32 ", " ") if cls == "VOP3" else text)
                    if cls in ("VOP1", "VOP2", "VOPC"):
                        si_texts.append(text.replace("_e32 ", " "))
    # VOP3-encoded forms of VOP1/2/C on SI/CI: assemble with _e64.
    extra = [t.split(" ")[0] + "_e64 " + t.split(" ", 1)[1] for t in si_texts if " " in t and t.startswith("v_") and "_e32" not in t and "_e64" not in t]
    si = si_tables(si_texts + extra)
    all_tables.update(si)
    for g in ("gfx6", "gfx7"):
        print("assembled", g, {c: len(t) for c, t in si[g].items()}, file=sys.stderr)

    w = sys.stdout.write
    w("//! GENERATED by tools/sweep_opcodes.py from llvm-mc-19 (LLVM 19); do not edit.\n")
    w("//!\n//! Mnemonic tables per generation and encoding class: sorted `(opcode, mnemonic)`\n")
    w("//! pairs. gfx8+ names are what the LLVM 19 disassembler prints for the opcode\n")
    w("//! (VOP1/VOP2/VOPC with their `_e32` suffix, VOP3 forms of VOP1/2/C ops with `_e64`);\n")
    w("//! gfx6/gfx7 names are read back from llvm-mc-19 assembling every gfx8/gfx10 text\n")
    w("//! (LLVM 19 cannot disassemble gfx6/gfx7). FLAT keys are `seg << 8 | op`.\n\n")
    w("/// A sorted `(opcode, mnemonic)` table.\npub type OpTable = &'static [(u16, &'static str)];\n\n")
    lits = {}
    for gen in ["gfx6", "gfx7", "gfx8", "gfx9", "gfx10", "gfx11"]:
        for cls, t in sorted(all_tables[gen].items()):
            rows = []
            for k, (name, n, text, g) in t.items():
                key = k[0] << 8 | k[1] if isinstance(k, tuple) else k
                rows.append((key, name))
                base = 8 if cls in ("VOP3", "VOP3P", "SMEM", "DS", "MUBUF", "MTBUF", "FLAT") else 4
                if n > base and cls in ("VOP2", "SOPK"):
                    lits.setdefault((gen, cls), []).append(key)
            rows.sort()
            w("/// %s %s mnemonics (%d opcodes).\n" % (gen, cls, len(rows)))
            w("pub const %s: OpTable = &[\n" % rust_ident(gen, cls))
            for key, name in rows:
                w("    (0x%x, \"%s\"),\n" % (key, name))
            w("];\n\n")
    for (gen, cls), keys in sorted(lits.items()):
        w("/// %s %s opcodes that always carry a 32-bit literal (LLVM decodes them 8 bytes long).\n" % (gen, cls))
        w("pub const %s_LITERAL: &[u16] = &[%s];\n\n" % (rust_ident(gen, cls), ", ".join("0x%x" % k for k in sorted(keys))))


main()
