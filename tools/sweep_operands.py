#!/usr/bin/env python3
"""Sweeps every opcode of every operand-decoded encoding form through llvm-mc-19
and records, per generation, form and opcode, what LLVM 19's disassembler makes
of it: the printed mnemonic, the printed operands (which encoding field each comes
from, its register count, and how LLVM prints constants in it), and which of the
form's other bits LLVM accepts (printed or ignored) or rejects.

The result is DATA for src/gcn/sig_tables.rs (written by `--rust`), which the
decoder uses instead of hand-written per-opcode rules.

How each fact is measured (all by disassembling with llvm-mc-19):
1. A base encoding per opcode: register fields set to distinct "tag" registers
   (VGPRs v8, v40, v72, …; SGPRs s8, s24, s40, …), falling back to SGPR codes or
   zero field by field until LLVM decodes the words without complaint.
2. Operand positions: each register field in turn is moved by a few registers;
   the printed operand that changes is that field's, and its spelling in the base
   (`v[8:9]`, `s[24:27]`) gives the register count. Operands no field moves are
   implicit (`vcc`, `vcc_lo`, `exec`, `off`, a literal, …) and recorded as text.
   On gfx10+ the same is done with -mattr=+wavefrontsize64: operands whose count
   differs are lane masks.
3. Constant types: each source field in turn holds inline constants 240 (0.5) and
   248 (1/(2π)) and, where the form allows a literal, several literals; the printed
   texts identify LLVM's operand type (32-bit, f16, i16, 64-bit int/float, packed).
4. Flag bits: every bit that is not selector, opcode or register field is toggled
   alone from the base: LLVM rejects it, prints the same text (an ignored bit), or
   prints something else (a modifier the decoder must print).

Usage: python3 tools/sweep_operands.py --json /tmp/sweep.json   (measure)
       python3 tools/sweep_operands.py --load /tmp/sweep.json --rust src/gcn/sig_tables.rs
"""
import argparse
import itertools
import json
import re
import sys

sys.path.insert(0, __import__("os").path.dirname(__file__))
from llvm_mc import CRASH  # noqa: E402
from llvm_mc import assemble as llvm_assemble  # noqa: E402
from llvm_mc import disassemble as _disassemble  # noqa: E402


def disassemble(mcpu, groups, mattr=None):
    """llvm_mc.disassemble, with texts LLVM decodes but marks (`/*Invalid register…*/`,
    `invalid_param_…`) kept only as `("!" + text)`: LLVM calls them invalid operands."""
    out = []
    for r in _disassemble(mcpu, groups, mattr):
        if r not in (None, CRASH) and ("/*" in r[0] or "invalid_" in r[0]):
            r = ("!" + r[0], r[1])
        out.append(r)
    return out


def ok(r):
    return r not in (None, CRASH) and not r[0].startswith("!")

FORMS = None
GENS = [("gfx8", "tonga"), ("gfx9", "gfx900"), ("gfx10", "gfx1030"), ("gfx11", "gfx1100")]

VTAGS = [8, 40, 72, 104, 136, 168]
STAGS = [8, 24, 40, 56, 72, 88]

# Probes of a source field: (code, literal). Inline constants first; literals
# only where the form allows one.
CONST_PROBES = [(240, None), (248, None), (255, 0x3118), (255, 0x12345678), (255, 0x40000000),
                (255, 0x3800), (255, 0x38003800), (193, None)]
# Register codes probed in source fields (which register files and special
# registers the operand takes): v100, s100, vcc_lo, 124 (m0/null), 125, exec_lo,
# src_shared_base, src_vccz, src_scc, lds_direct, s102 (flat_scratch_lo on gfx8/9).
REG_PROBES = [356, 100, 106, 124, 125, 126, 235, 251, 253, 254, 102]


class Field:
    def __init__(self, name, lo, width, kind):
        self.name, self.lo, self.width, self.kind = name, lo, width, kind

    def mask(self):
        return ((1 << self.width) - 1) << self.lo


class Form:
    """An encoding form: constant bits, an opcode field, register fields, flag bits.

    Bits are numbered over the instruction's dwords as one little-endian integer
    (bit 32 = dword 1 bit 0). `keys` are opcode values; `put_op` places one.
    """

    def __init__(self, name, words, const, op_fields, regs, keys, literal_after=None, flags=None,
                 fixed_mask=0, noflag_mask=0, extras=(0,)):
        self.name, self.words, self.const = name, words, const
        self.op_fields = op_fields  # [(lo, width)], key bits low to high
        self.regs = regs
        self.keys = keys
        self.extras = extras
        self.literal_after = literal_after if literal_after is not None else words
        used = fixed_mask | noflag_mask
        for lo, w in op_fields:
            used |= ((1 << w) - 1) << lo
        for f in regs:
            used |= f.mask()
        self.flags = flags if flags is not None else [b for b in range(32 * words) if not (used >> b) & 1]

    def put_op(self, key):
        v, shift = 0, 0
        for lo, w in self.op_fields:
            v |= ((key >> shift) & ((1 << w) - 1)) << lo
            shift += w
        return v

    def build(self, key, vals, extra=0, literal=None):
        """The dwords of opcode `key` with register fields `vals` (plus `_extra`
        bits and, with `_lit` or a field holding 255, a literal dword)."""
        v = self.const | self.put_op(key) | extra | vals.get("_extra", 0)
        if literal is None and (vals.get("_lit") or 255 in [vals.get(f.name) for f in self.regs]):
            literal = 0x5
        for f in self.regs:
            v |= (vals.get(f.name, 0) & ((1 << f.width) - 1)) << f.lo
        words = [(v >> (32 * i)) & 0xFFFFFFFF for i in range(self.words)]
        if literal is not None:
            words = words[:self.literal_after] + [literal] + words[self.literal_after:]
        return words


def rng(n):
    return list(range(n))


def forms_for(gen):
    """Every form swept on `gen` (LLVM 19 bit layouts; see docs/decoder.md)."""
    vi = gen in ("gfx8", "gfx9")
    g10 = gen in ("gfx10", "gfx11")
    F = Field
    out = []
    src0, src1, src2 = F("src0", 32, 9, "src"), F("src1", 41, 9, "src"), F("src2", 50, 9, "src")
    # Selector masks: bits no field or flag may use.
    top = lambda n: ((1 << n) - 1) << (32 - n)  # noqa: E731
    out.append(Form("SOP1", 1, 0xBE800000, [(8, 8)], [F("sdst", 16, 7, "sdst"), F("ssrc0", 0, 8, "ssrc")],
                    rng(256), fixed_mask=top(9)))
    out.append(Form("SOP2", 1, 0x80000000, [(23, 7)],
                    [F("sdst", 16, 7, "sdst"), F("ssrc0", 0, 8, "ssrc"), F("ssrc1", 8, 8, "ssrc")],
                    rng(0x60), fixed_mask=top(2)))
    out.append(Form("SOPK", 1, 0xB0000000, [(23, 5)], [F("sdst", 16, 7, "sdst")], rng(0x1d),
                    fixed_mask=top(4)))
    out.append(Form("SOPC", 1, 0xBF000000, [(16, 7)], [F("ssrc0", 0, 8, "ssrc"), F("ssrc1", 8, 8, "ssrc")],
                    rng(0x80), fixed_mask=top(9)))
    if vi:
        out.append(Form("SMEM", 2, 0xC0000000, [(18, 8)],
                        [F("sdata", 6, 7, "sdst"), F("sbase", 0, 6, "sbase")]
                        + ([F("soffset", 57, 7, "sdst")] if gen == "gfx9" else []),
                        rng(256), fixed_mask=top(6)))
    else:
        out.append(Form("SMEM", 2, 0xF4000000, [(18, 8)],
                        [F("sdata", 6, 7, "sdst"), F("sbase", 0, 6, "sbase"), F("soffset", 57, 7, "sdst")],
                        rng(256), fixed_mask=top(6)))
    out.append(Form("VOP1", 1, 0x7E000000, [(9, 8)], [F("vdst", 17, 8, "vgpr"), F("src0", 0, 9, "src")],
                    rng(256), fixed_mask=top(7)))
    out.append(Form("VOP2", 1, 0x00000000, [(25, 6)],
                    [F("vdst", 17, 8, "vgpr"), F("src0", 0, 9, "src"), F("vsrc1", 9, 8, "vgpr")],
                    rng(0x3e), fixed_mask=top(1)))
    out.append(Form("VOPC", 1, 0x7C000000, [(17, 8)], [F("src0", 0, 9, "src"), F("vsrc1", 9, 8, "vgpr")],
                    rng(256), fixed_mask=top(7)))
    # SDWA/DPP/DPP8: the VOP1/VOP2/VOPC forms with src0 = 0xF9/0xFA/0xE9 and a
    # second dword whose low byte is the real src0 VGPR.
    if gen != "gfx11":
        sdwa_regs = [F("src0", 32, 8, "vgpr")]
        if gen != "gfx8":
            pass
        for base, const, opf, regs, keys in (
                ("VOP1", 0x7E000000, [(9, 8)], [F("vdst", 17, 8, "vgpr")], rng(256)),
                ("VOP2", 0x00000000, [(25, 6)], [F("vdst", 17, 8, "vgpr"), F("vsrc1", 9, 8, "vgpr")], rng(0x3e)),
                ("VOPC", 0x7C000000, [(17, 8)], [F("vsrc1", 9, 8, "vgpr")], rng(256))):
            extra = [F("sdst", 40, 7, "sdst")] if (base == "VOPC" and gen != "gfx8") else []
            out.append(Form(base + "_SDWA", 2, const | 0xF9, opf, regs + sdwa_regs + extra, keys,
                            fixed_mask=top(7 if base != "VOP2" else 1) | 0x1FF))
    for base, const, opf, regs, keys in (
            ("VOP1", 0x7E000000, [(9, 8)], [F("vdst", 17, 8, "vgpr")], rng(256)),
            ("VOP2", 0x00000000, [(25, 6)], [F("vdst", 17, 8, "vgpr"), F("vsrc1", 9, 8, "vgpr")], rng(0x3e)),
            ("VOPC", 0x7C000000, [(17, 8)], [F("vsrc1", 9, 8, "vgpr")], rng(256))):
        fm = top(7 if base != "VOP2" else 1) | 0x1FF
        out.append(Form(base + "_DPP", 2, const | 0xFA | (0xFF << 56) | (0xE4 << 40), opf,
                        regs + [F("src0", 32, 8, "vgpr")], keys, fixed_mask=fm))
        if g10:
            out.append(Form(base + "_DPP8", 2, const | 0xE9 | (0xFAC688 << 40), opf,
                            regs + [F("src0", 32, 8, "vgpr")], keys, fixed_mask=fm,
                            noflag_mask=0xFFFFFF << 40))
    vop3 = 0xD0000000 if vi else 0xD4000000
    vop3_regs = [F("vdst", 0, 8, "vdst"), src0, src1, src2]
    out.append(Form("VOP3", 2, vop3, [(16, 10)], vop3_regs, rng(0x380 if gen == "gfx9" else 1024),
                    fixed_mask=top(6)))
    # VOP3B: bits 14:8 are a scalar destination (carry out, div_scale's VCC).
    out.append(Form("VOP3B", 2, vop3, [(16, 10)], vop3_regs + [F("sdst", 8, 7, "sdst")],
                    rng(0x380 if gen == "gfx9" else 1024), fixed_mask=top(6)))
    if gen != "gfx8":
        p = 0xD3800000 if gen == "gfx9" else 0xCC000000
        out.append(Form("VOP3P", 2, p, [(16, 7)], vop3_regs, rng(128), fixed_mask=top(9)))
    if gen == "gfx11":
        dpp16 = (0xFF << 88) | (0xE4 << 72)
        out.append(Form("VOP3_DPP", 3, vop3 | (0xFA << 32) | dpp16, [(16, 10)],
                        [F("vdst", 0, 8, "vdst"), F("src0", 64, 8, "vgpr"), src1, src2], rng(1024),
                        fixed_mask=top(6) | (0x1FF << 32)))
        out.append(Form("VOP3_DPP8", 3, vop3 | (0xE9 << 32) | (0xFAC688 << 72), [(16, 10)],
                        [F("vdst", 0, 8, "vdst"), F("src0", 64, 8, "vgpr"), src1, src2], rng(1024),
                        fixed_mask=top(6) | (0x1FF << 32), noflag_mask=0xFFFFFF << 72))
        out.append(Form("VOP3P_DPP", 3, 0xCC000000 | (0xFA << 32) | dpp16, [(16, 7)],
                        [F("vdst", 0, 8, "vdst"), F("src0", 64, 8, "vgpr"), src1, src2], rng(128),
                        fixed_mask=top(9) | (0x1FF << 32)))
        out.append(Form("VOP3P_DPP8", 3, 0xCC000000 | (0xE9 << 32) | (0xFAC688 << 72), [(16, 7)],
                        [F("vdst", 0, 8, "vdst"), F("src0", 64, 8, "vgpr"), src1, src2], rng(128),
                        fixed_mask=top(9) | (0x1FF << 32), noflag_mask=0xFFFFFF << 72))
    ds_op = (17, 8) if vi else (18, 8)
    out.append(Form("DS", 2, 0xD8000000, [ds_op],
                    [F("addr", 32, 8, "vgpr"), F("data0", 40, 8, "vgpr"), F("data1", 48, 8, "vgpr"),
                     F("vdst", 56, 8, "vgpr")], rng(256), fixed_mask=top(6),
                    extras=(0, 1 << (16 if vi else 17))))
    # gfx10 MUBUF: OP[7] is bit 25 (the D16 buffer ops are 0x80+).
    mb_op = [(18, 8)] if gen == "gfx11" else [(18, 7), (25, 1)] if gen == "gfx10" else [(18, 7)]
    mem_regs = [F("vaddr", 32, 8, "vgpr"), F("vdata", 40, 8, "vgpr"), F("srsrc", 48, 5, "srsrc"),
                F("soffset", 56, 8, "soff")]
    out.append(Form("MUBUF", 2, 0xE0000000, mb_op, mem_regs, rng(256 if gen in ("gfx10", "gfx11") else 128),
                    fixed_mask=top(6) & ~(1 << 25) if gen == "gfx10" else top(6), extras=(0, 1 << 16)))
    if gen == "gfx10":
        out.append(Form("MTBUF", 2, 0xE8000000, [(16, 3), (53, 1)], mem_regs, rng(16), fixed_mask=top(6)))
    else:
        out.append(Form("MTBUF", 2, 0xE8000000, [(15, 4)], mem_regs, rng(16), fixed_mask=top(6)))
    flat_regs = [F("vaddr", 32, 8, "vgpr"), F("vdata", 40, 8, "vgpr"), F("vdst", 56, 8, "vgpr")]
    if gen == "gfx8":
        out.append(Form("FLAT", 2, 0xDC000000, [(18, 7)], flat_regs, rng(128), fixed_mask=top(6)))
    else:
        seg = (16, 2) if gen == "gfx11" else (14, 2)
        out.append(Form("FLAT", 2, 0xDC000000, [(18, 7), seg], flat_regs + [F("saddr", 48, 7, "saddr")],
                        rng(128 * 3), fixed_mask=top(6)))
    exp = 0xC4000000 if vi else 0xF8000000
    out.append(Form("EXP", 2, exp, [], [F("vsrc0", 32, 8, "vgpr"), F("vsrc1", 40, 8, "vgpr"),
                                         F("vsrc2", 48, 8, "vgpr"), F("vsrc3", 56, 8, "vgpr")], [0],
                    fixed_mask=top(6)))
    return out


# ---------------------------------------------------------------------------
# Operand text

REG_RE = re.compile(r"^(v|s|ttmp|a)(\d+)$|^(v|s|ttmp|a)\[(\d+):(\d+)\]$")


def split_operands(text):
    """mnemonic, [operand tokens], modifier text."""
    if " " not in text:
        return text, [], ""
    mn, rest = text.split(" ", 1)
    toks, depth, cur = [], 0, ""
    i = 0
    while i < len(rest):
        c = rest[i]
        if c in "[(":
            depth += 1
        elif c in "])":
            depth -= 1
        if depth == 0 and rest.startswith(", ", i):
            toks.append(cur)
            cur = ""
            i += 2
            continue
        cur += c
        i += 1
    # The last operand may be followed by space-separated modifiers.
    parts = split_top_spaces(cur)
    toks.append(parts[0])
    mods = " ".join(parts[1:])
    # No operands at all: the first "operand" is a modifier (`v_nop quad_perm:…`).
    if len(toks) == 1 and ":" in toks[0] and reg_of(toks[0]) is None:
        return mn, [], (toks[0] + " " + mods).strip()
    return mn, toks, mods


def split_top_spaces(s):
    out, depth, cur = [], 0, ""
    for c in s:
        if c in "[(":
            depth += 1
        elif c in "])":
            depth -= 1
        if c == " " and depth == 0:
            out.append(cur)
            cur = ""
        else:
            cur += c
    out.append(cur)
    return out


def strip_mods(tok):
    t = tok
    for p in ("-", "|", "neg(", "sext(", "abs("):
        if t.startswith(p):
            t = t[len(p):]
    return t.rstrip("|)")


def reg_of(tok):
    """(file, first, count) of a register token, or None."""
    m = REG_RE.match(strip_mods(tok))
    if not m:
        return None
    if m.group(1):
        return m.group(1), int(m.group(2)), 1
    return m.group(3), int(m.group(4)), int(m.group(5)) - int(m.group(4)) + 1


# ---------------------------------------------------------------------------
# Measuring

def candidates(f, i):
    """Values tried in register field `f` (the i-th register field): tag first."""
    k = f.kind
    if k == "src":
        return [256 + VTAGS[i], STAGS[i], 0]
    if k in ("vgpr", "vdst"):
        return [VTAGS[i] if k == "vgpr" else VTAGS[i], STAGS[i], 0] if k == "vdst" else [VTAGS[i], 0]
    if k in ("ssrc", "sdst"):
        return [STAGS[i], 0] if k == "sdst" else [STAGS[i], 128, 0]
    if k == "sbase":
        return [STAGS[i] // 2, 0]
    if k == "srsrc":
        return [STAGS[i] // 4, 0]
    if k == "soff":
        return [STAGS[i], 128, 0]
    if k == "saddr":
        return [STAGS[i], 0x7F, 0x7C, 0x7D, 0]
    raise ValueError(k)


def moved(f, v):
    """`v` moved by a few registers, keeping alignment, for position finding."""
    k = f.kind
    if k == "sbase":
        return v + 2
    if k == "srsrc":
        return v + 1
    if v in (0x7F, 0x7C, 0x7D, 128) and k in ("saddr", "soff", "ssrc"):
        return None
    return v + 4


def find_bases(mcpu, form, mattr=None):
    """key -> (vals, (text, len)) for every opcode LLVM decodes in this form."""
    regs = form.regs
    cand = [candidates(f, i) for i, f in enumerate(regs)]
    # Patterns ordered: fewest non-tag choices first, then by candidate index.
    pats = sorted(itertools.product(*[range(len(c)) for c in cand]),
                  key=lambda p: (sum(1 for x in p if x != 0), sum(p)))
    found = {}
    todo = list(form.keys)
    for extra, lit, p in itertools.product(form.extras, (False, True), pats):
        if not todo:
            break
        vals = {f.name: cand[i][p[i]] for i, f in enumerate(regs)}
        vals["_extra"], vals["_lit"] = extra, lit
        groups = [form.build(k, vals) for k in todo]
        res = disassemble(mcpu, groups, mattr)
        rest = []
        for k, r in zip(todo, res):
            # The whole form must decode (an SDWA/DPP dword LLVM does not take
            # leaves a 32-bit instruction, which is not this form).
            if not ok(r) or r[1] < 4 * form.words:
                rest.append(k)
            else:
                found[k] = (vals, r)
        todo = rest
    return found


def measure_form(mcpu, form, gen):
    bases = find_bases(mcpu, form)
    rows = {}
    keys = sorted(bases)
    # 2. operand positions
    groups, index = [], []
    for k in keys:
        vals, _ = bases[k]
        for f in form.regs:
            mv = moved(f, vals[f.name])
            if mv is None:
                continue
            v2 = dict(vals)
            v2[f.name] = mv
            groups.append(form.build(k, v2))
            index.append((k, f.name))
    res = disassemble(mcpu, groups)
    moves = {}
    for (k, fname), r in zip(index, res):
        moves[(k, fname)] = r
    # wave64 texts (gfx10+)
    w64 = {}
    if gen in ("gfx10", "gfx11"):
        groups = [form.build(k, bases[k][0]) for k in keys]
        for k, r in zip(keys, disassemble(mcpu, groups, "+wavefrontsize64")):
            w64[k] = r
    for k in keys:
        vals, (text, length) = bases[k]
        mn, toks, mods = split_operands(text)
        opds = [{"tok": t} for t in toks]
        for f in form.regs:
            r = moves.get((k, f.name))
            if not ok(r):
                continue
            mn2, toks2, mods2 = split_operands(r[0])
            if mn2 != mn or len(toks2) != len(toks):
                continue
            diff = [i for i in range(len(toks)) if toks[i] != toks2[i]]
            if len(diff) == 1:
                i = diff[0]
                reg, reg2 = reg_of(toks[i]), reg_of(toks2[i])
                # The field's operand: the one printed register that moved by
                # exactly the field's shift (an unrelated modifier bit that the
                # field overlaps, e.g. VOP3 abs under VOP3B's sdst, does not).
                shift = moved(f, vals[f.name]) - vals[f.name]
                regs_moved = shift * (2 if f.kind == "sbase" else 4 if f.kind == "srsrc" else 1)
                if reg and reg2 and reg2[0] == reg[0] and reg2[1] - reg[1] == regs_moved:
                    opds[i]["field"] = f.name
                    opds[i]["file"], _, opds[i]["count"] = reg
                elif not reg and f.kind not in ("vgpr", "vdst", "sdst", "sbase", "srsrc"):
                    opds[i]["field"] = f.name
        if k in w64 and ok(w64[k]):
            _, toks64, _ = split_operands(w64[k][0])
            if len(toks64) == len(toks):
                for i, t in enumerate(toks64):
                    r64 = reg_of(t)
                    if r64:
                        opds[i]["count64"] = r64[2]
                    opds[i]["tok64"] = t
        rows[k] = {"name": mn, "text": text, "len": length, "vals": vals, "opds": opds, "mods": mods}
    # 3. constant types of source fields
    groups, index = [], []
    for k in keys:
        vals = bases[k][0]
        for o_i, o in enumerate(rows[k]["opds"]):
            fname = o.get("field")
            f = next((f for f in form.regs if f.name == fname), None)
            if f is None:
                continue
            if f.kind in ("vgpr", "vdst") and o.get("file") == "v":
                # Do VGPRs above v127 decode here? (gfx11 16-bit operands of the
                # 32-bit encodings take v0-v127 only.)
                v2 = dict(vals)
                v2[fname] = 200
                groups.append(form.build(k, v2))
                index.append((k, o_i, "hi", None))
                continue
            scalar_dst = f.kind in ("sdst", "vdst") and o.get("file") in ("s", "ttmp")
            if f.kind not in ("src", "ssrc", "soff") and not scalar_dst:
                continue
            probes = CONST_PROBES + [(c, None) for c in REG_PROBES]
            if f.kind == "src":
                probes = probes + [(456, None)]  # v200
            for code, lit in probes:
                v2 = dict(vals)
                v2[fname] = code
                groups.append(form.build(k, v2, literal=lit))
                index.append((k, o_i, code, lit))
    res = disassemble(mcpu, groups)
    for (k, o_i, code, lit), r in zip(index, res):
        row = rows[k]
        out = None
        if r not in (None, CRASH):
            mn2, toks2, _ = split_operands(r[0])
            if mn2 == row["name"] and len(toks2) == len(row["opds"]):
                out = toks2[o_i]
        if code == "hi":
            row["opds"][o_i]["hi"] = out
        elif code == 456:
            row["opds"][o_i]["hi"] = out
        else:
            row["opds"][o_i].setdefault("probes", []).append(out)
    # 4. flag bits
    groups, index = [], []
    for k in keys:
        vals = bases[k][0]
        base = form.build(k, vals)
        # Flag bits, plus the bits of register fields this opcode does not print
        # (LLVM may require them to be zero, or ignore them).
        used = {o.get("field") for o in rows[k]["opds"]}
        checked = list(form.flags)
        for f in form.regs:
            if f.name not in used:
                checked += list(range(f.lo, f.lo + f.width))
        rows[k]["checked"] = checked
        for b in checked:
            w = form.build(k, vals)
            wi = b // 32
            if wi >= form.literal_after and len(w) > form.words:
                wi += 1
            w[wi] ^= 1 << (b % 32)
            groups.append(w)
            index.append((k, b, base))
    res = disassemble(mcpu, groups)
    for (k, b, base), r in zip(index, res):
        row = rows[k]
        if r is None or (r != CRASH and r[1] < 4 * form.words):
            # Rejected, or decoded as a shorter form (an SDWA/DPP dword LLVM
            # does not take leaves the 32-bit instruction): this form rejects it.
            st = "x"
        elif r == CRASH:
            st = "c"
        elif r[0].startswith("!"):
            st = "m"  # decoded, but printed with a comment (e.g. an invalid dpp_ctrl)
        elif r[0] == row["text"]:
            st = "i"
        else:
            st = r[0]
        row.setdefault("flags", {})[b] = st
    return rows


def measure_names():
    """Names LLVM prints for MTBUF formats: gfx8/gfx9 DFMT (16) and NFMT (8),
    gfx10/gfx11 unified FORMAT (128; None where LLVM prints a number)."""
    names = {}
    for gen, mcpu in (("gfx8", "tonga"), ("gfx9", "gfx900")):
        gs = [[0xE8000000 | d << 19 | 0 << 23, 0x38010500] for d in range(16)]
        gs += [[0xE8000000 | 0 << 19 | n << 23, 0x38010500] for n in range(8)]
        r = disassemble(mcpu, gs)
        fmt = [x[0].split("format:[")[1].rstrip("]") if x and "format:[" in x[0] else "" for x in r]
        names[gen + "_dfmt"] = [f.split(",")[0] for f in fmt[:16]]
        names[gen + "_nfmt"] = [f.split(",")[1] if "," in f else "" for f in fmt[16:]]
    for gen, mcpu in (("gfx10", "gfx1030"), ("gfx11", "gfx1100")):
        gs = [[0xE8000000 | f << 19, 0x38010500] for f in range(128)]
        r = disassemble(mcpu, gs)
        names[gen + "_ufmt"] = [x[0].split("format:[")[1].rstrip("]") if x and "format:[" in x[0] else None
                                for x in r]
    return names


def measure(gens):
    out = {"_names": measure_names()}
    for gen, mcpu in GENS:
        if gen not in gens:
            continue
        out[gen] = {}
        for form in forms_for(gen):
            if FORMS and form.name not in FORMS:
                continue
            rows = measure_form(mcpu, form, gen)
            out[gen][form.name] = {str(k): v for k, v in rows.items()}
            print(gen, form.name, len(rows), file=sys.stderr)
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--json")
    ap.add_argument("--load")
    ap.add_argument("--rust")
    ap.add_argument("--gens", default="gfx8,gfx9,gfx10,gfx11")
    ap.add_argument("--forms")
    a = ap.parse_args()
    global FORMS
    FORMS = a.forms.split(",") if a.forms else None
    if a.load:
        data = json.load(open(a.load))
        if a.forms:
            # Re-measure some forms and merge them into the loaded data.
            part = measure(a.gens.split(","))
            for gen, forms in part.items():
                if not gen.startswith("_"):
                    data.setdefault(gen, {}).update(forms)
            if a.json:
                json.dump(data, open(a.json, "w"), indent=0)
    else:
        data = measure(a.gens.split(","))
        if a.json:
            json.dump(data, open(a.json, "w"), indent=0)
    if a.rust:
        emit_rust(data, a.rust)



# ---------------------------------------------------------------------------
# From measurements to Rust

FULL_TYPES = {
    ("0.5", "0.15915494", "0x3118", "0x12345678", "2.0", "0x3800", "0x38003800", "-1"): "B32",
    ("0.5", "0.15915494", "0.15915494", "0x5678", "0", "0.5", "0.5", "-1"): "F16",
    ("0x3800", "0x3118", "0x3118", "0x5678", "2.0", "0x3800", "0x3800", "-1"): "I16",
    ("0.5", "0.15915494309189532", "0x3118", "0x12345678", "0x40000000", "0x3800", "0x38003800", "-1"): "B64",
    ("0.5", "0.15915494309189532", "0x3118", "0x12345678", "2.0", "0x3800", "0x38003800", "-1"): "F64",
    ("0.5", "0.15915494", "0.15915494", "0x12345678", "0x40000000", "0.5", "0x38003800", "-1"): "V2F16",
    ("0.5", "0.15915494", "0x3118", "0x12345678", "0x40000000", "0x3800", "0x38003800", "-1"): "V2Bf16",
    ("0.5", "0.15915494", "0x3118", "0x12345678", "0", "0x3800", "0x38003800", "-1"): "Bf16",
}
# Inline-only probes (forms without literals): (0.5, 1/(2π), -1) texts.
PARTIAL_TYPES = {
    ("0.5", "0.15915494", "-1"): "32",
    ("0.5", "0.15915494309189532", "-1"): "64",
    ("0x3800", "0x3118", "-1"): "I16",
}

FORM_ENUM = {
    "SOP1": "Sop1", "SOP2": "Sop2", "SOPK": "Sopk", "SOPC": "Sopc", "SMEM": "Smem",
    "VOP1": "Vop1", "VOP2": "Vop2", "VOPC": "Vopc",
    "VOP1_SDWA": "Vop1Sdwa", "VOP2_SDWA": "Vop2Sdwa", "VOPC_SDWA": "VopcSdwa",
    "VOP1_DPP": "Vop1Dpp", "VOP2_DPP": "Vop2Dpp", "VOPC_DPP": "VopcDpp",
    "VOP1_DPP8": "Vop1Dpp8", "VOP2_DPP8": "Vop2Dpp8", "VOPC_DPP8": "VopcDpp8",
    "VOP3": "Vop3", "VOP3B": "Vop3b", "VOP3P": "Vop3p", "VOP3_DPP": "Vop3Dpp", "VOP3_DPP8": "Vop3Dpp8",
    "VOP3P_DPP": "Vop3pDpp", "VOP3P_DPP8": "Vop3pDpp8",
    "DS": "Ds", "MUBUF": "Mubuf", "MTBUF": "Mtbuf", "FLAT": "Flat", "EXP": "Exp",
}

FIELD_ENUM = {
    "vdst": "Vdst", "sdst": "Sdst", "src0": "Src0", "src1": "Src1", "src2": "Src2", "vsrc1": "Vsrc1",
    "ssrc0": "Ssrc0", "ssrc1": "Ssrc1", "sdata": "Sdata", "sbase": "Sbase", "soffset": "Soffset",
    "addr": "Addr", "data0": "Data0", "data1": "Data1", "vaddr": "Vaddr", "vdata": "Vdata",
    "srsrc": "Srsrc", "saddr": "Saddr", "vsrc0": "Vsrc0", "vsrc2": "Vsrc2", "vsrc3": "Vsrc3",
}

ACCEPT_BITS = {"VGPR": 0, "SGPR": 1, "VCC": 2, "M0": 3, "NULL": 4, "EXEC": 5, "APERTURE": 6, "COND": 7,
               "LDS_DIRECT": 8, "FLAT_SCRATCH": 9, "CONST": 10, "LITERAL": 11, "VGPR_HI": 12, "TRUE16": 13}


def norm_field(f):
    return {"vsrc1": "src1"}.get(f, f)


def base_name(name):
    for suf in ("_e32", "_e64_dpp", "_e64", "_sdwa", "_dpp"):
        if name.endswith(suf):
            return name[: -len(suf)]
    return name


def accepts_of(gen, kind, probes, width=9, base_file=None):
    """The accept bits of a source field from its probe texts (probes whose
    code does not fit the field's width are skipped; a field whose base
    operand is an SGPR takes SGPRs)."""
    if probes is None:
        if kind in ("vgpr", "vdst"):
            return 1 << ACCEPT_BITS["VGPR"]
        if kind in ("sdst", "sbase", "srsrc"):
            return sum(1 << ACCEPT_BITS[k] for k in ("SGPR", "VCC", "M0", "NULL", "EXEC", "FLAT_SCRATCH"))
        return 0xFFF
    codes = [c for c, _ in CONST_PROBES] + REG_PROBES
    fits = [c < (1 << width) for c in codes]
    probes = [p if f else None for p, f in zip(probes, fits)]
    consts, regs = probes[:8], probes[8:]
    a = 1 << ACCEPT_BITS["SGPR"] if base_file in ("s", "ttmp") else 0
    if any(p is not None for p in (consts[0], consts[1], consts[7])):
        a |= 1 << ACCEPT_BITS["CONST"]
    if any(p is not None for p in consts[2:7]):
        a |= 1 << ACCEPT_BITS["LITERAL"]
    names = ["VGPR", "SGPR", "VCC", "M0", "NULL", "EXEC", "APERTURE", "COND", "COND", "LDS_DIRECT", "FLAT_SCRATCH"]
    if gen == "gfx11":
        names[3], names[4] = "NULL", "M0"
    for n, p in zip(names, regs):
        if p is not None:
            if n == "FLAT_SCRATCH" and gen not in ("gfx8", "gfx9"):
                continue
            a |= 1 << ACCEPT_BITS[n]
    return a


def raw_type(probes):
    if probes is None:
        return None
    consts = tuple(probes[:8])
    if consts in FULL_TYPES:
        return FULL_TYPES[consts]
    key = (consts[0], consts[1], consts[7])
    return PARTIAL_TYPES.get(key)


def si_names():
    """gfx6/gfx7 opcode names per class, from src/gcn/ops_tables.rs (written by
    tools/sweep_opcodes.py by assembling with llvm-mc-19 -mcpu=tahiti/bonaire)."""
    import os
    src = open(os.path.join(os.path.dirname(__file__), "..", "src", "gcn", "ops_tables.rs")).read()
    out = {}
    for m in re.finditer(r"pub const (GFX[67])_(\w+): OpTable = &\[(.*?)\];", src, re.S):
        gen = m.group(1).lower()
        out[(gen, m.group(2))] = {int(k, 16): n for k, n in re.findall(r'\(0x([0-9a-f]+), "([^"]+)"\)', m.group(3))}
    return out


# gfx8 bit -> gfx6/gfx7 bit, per form (None: the bit does not exist there).
def si_bit(form, b):
    if form == "VOP3B":
        # SI/CI VOP3B: SDST 14:8, and bit 15 no text carries (llvm-mc-19
        # -mcpu=bonaire drops `clamp` of v_div_scale_f32 and rejects integer
        # clamping: "integer clamping is not supported on this GPU").
        return None if b == 15 else b
    if form == "VOP3":
        if b == 15:
            return 11  # CLAMP
        if 11 <= b <= 14:
            return None  # no op_sel before gfx9
        return b
    if form == "DS":
        # GDS 16 -> 17; OP is 24:17 on gfx8, 25:18 on SI/CI (bit 25 is an
        # opcode bit there, not a flag: -1 drops it).
        return {16: 17, 17: None, 25: -1}.get(b, b)
    if form == "MUBUF":
        return {17: 54}.get(b, b)  # SLC
    if form == "FLAT":
        return None if b < 13 else b  # no offset on gfx7
    return b


# SI/CI names of gfx8 operations (same operands): renamed or dropped after CI.
SI_ALIASES = [
    (r"^v_(add|sub|subrev)_i32", r"v_\1_u32"),
    (r"^v_cmps_", "v_cmp_"),
    (r"^v_cmpsx_", "v_cmpx_"),
    (r"^v_lshl_b32", "v_lshlrev_b32"),
    (r"^v_lshr_b32", "v_lshrrev_b32"),
    (r"^v_ashr_i32", "v_ashrrev_i32"),
    # The SI/CI 64-bit shifts take the value first and the shift amount second:
    # the donor's two sources swap places (SI_SWAPPED).
    (r"^v_lshl_b64", "v_lshlrev_b64"),
    (r"^v_lshr_b64", "v_lshrrev_b64"),
    (r"^v_ashr_i64", "v_ashrrev_i64"),
    (r"_legacy_f32", "_f32"),
    (r"^v_(rcp|rsq)_clamp_f(32|64)", r"v_\1_f\2"),
    (r"^v_log_clamp_f32", "v_log_f32"),
    (r"^v_mul_lo_i32", "v_mul_lo_u32"),
    (r"^buffer_wbinvl1_sc", "buffer_wbinvl1_vol"),  # no operands either
]


# SI/CI operations whose donor (SI_ALIASES) has the same operands with SRC0 and
# SRC1 exchanged: `v_lshl_b64 v[0:1], v[2:3], v4` against gfx8's
# `v_lshlrev_b64 v[0:1], v4, v[2:3]` (LLVM VOP3Instructions.td: V_LSHL_B64 is
# VOP_I64_I64_I32, V_LSHLREV_B64 VOP_I64_I32_I64).
SI_SWAPPED = ("v_lshl_b64", "v_lshr_b64", "v_ashr_i64")


def si_float_result(name):
    """The operation writes a float (its first type token, after `v_cvt_`'s
    destination rule, is fNN): where SI/CI take clamp."""
    b = base_name(name)
    if b.startswith(("v_cmp", "v_cmps", "v_cmpx", "v_cmpsx")):
        return False
    toks = re.findall(r"_([fiub])(8|16|32|64)", b)
    return bool(toks) and toks[0][0] == "f"


# Probe codes of a source slot on SI/CI, by index into a sweep operand's
# `probes` (CONST_PROBES then REG_PROBES): the accept bit each one speaks for.
SI_PROBES = [(10, "VCC"), (11, "M0"), (13, "EXEC"), (15, "COND"), (16, "COND"), (17, "LDS_DIRECT")]
SI_CONTROL = 9  # s100: the plain SGPR whose success makes a failure conclusive


def si_probe_accepts(out, probes, data, opd_lists):
    """Measures which special source codes llvm-mc-19 -mcpu=tahiti/bonaire
    takes in each slot of a derived gfx6/gfx7 row, and clears the accept bits
    of those it rejects (LLVM's disassembler takes `src_scc` where its
    assembler wants a register: `s_setpc_b64 src_scc` is rejected).

    The donor's measured text gets the SI/CI mnemonic and, in one slot, the
    text the donor printed for the probe code. A probe counts only where the
    same slot holding s100 assembles (so a constant-bus conflict with another
    operand is not taken for the slot's rule)."""
    by_name = {v: k for k, v in opd_lists.items()}
    tables = {(g, t): rs for g, t, rs, _ in out}
    jobs = []  # (gen, target, row index, slot index, accept name, text, control text)
    for gen, target, idx, dgen, dform, dkey in probes:
        raw = data.get(dgen, {}).get(dform, {}).get(str(dkey))
        if raw is None:
            continue
        row = tables[(gen, target)][idx]
        slots = by_name[row[2]]
        ropds = raw["opds"]
        if len(ropds) != len(slots):
            continue
        mnem, _, rest = raw["text"].partition(" ")
        for si, (o, slot) in enumerate(zip(ropds, slots)):
            pr = o.get("probes")
            if not pr or len(pr) <= 17 or "field" not in o:
                continue
            pat = re.compile(r"(?<![\w\[:])" + re.escape(o["tok"]) + r"(?![\w\]:])")
            if not pat.search(rest):
                continue

            def text(t):
                return row[1] + " " + pat.sub(t, rest, count=1)
            # The control: s100, or v100 in a slot that takes no SGPR (LLVM's
            # VRegOrLds operands: v_readfirstlane_b32's source).
            ctl = SI_CONTROL if slot[3] & (1 << ACCEPT_BITS["SGPR"]) else SI_CONTROL - 1
            if pr[ctl] is None:
                continue
            for pi, acc in SI_PROBES:
                if pr[pi] is None or not slot[3] & (1 << ACCEPT_BITS[acc]):
                    continue
                jobs.append((gen, target, idx, si, acc, text(pr[pi]), text(pr[ctl])))
    for gen, mcpu in (("gfx6", "tahiti"), ("gfx7", "bonaire")):
        mine = [j for j in jobs if j[0] == gen]
        texts = [j[5] for j in mine] + [j[6] for j in mine]
        res = llvm_assemble(mcpu, texts) if texts else []
        n = len(mine)
        clear = {}
        for i, j in enumerate(mine):
            if res[i] is None and res[n + i] is not None:
                clear.setdefault((j[1], j[2], j[3]), set()).add(j[4])
        for (target, idx, si), accs in clear.items():
            rs = tables[(gen, target)]
            row = rs[idx]
            slots = list(by_name[row[2]])
            sl = list(slots[si])
            for a in accs:
                sl[3] &= ~(1 << ACCEPT_BITS[a])
            slots[si] = tuple(sl)
            slots = tuple(slots)
            if slots not in opd_lists:
                opd_lists[slots] = "O%d" % len(opd_lists)
                by_name[opd_lists[slots]] = slots
            rs[idx] = (row[0], row[1], opd_lists[slots]) + tuple(row[3:])
        print("SI/CI probes", gen, len(mine), "cleared", sum(len(v) for v in clear.values()), file=sys.stderr)


def derive_si(tables, bits_list, opd_lists=None, data=None):
    """gfx6/gfx7 rows: the same mnemonic's gfx8 (else gfx9/gfx10/gfx11) row with
    its modifier bits moved to the SI/CI positions. LLVM 19 cannot disassemble
    SI/CI, so these rows are checked by reassembly (tests/llvm_diff_classes.rs)."""
    names = si_names()
    by_bits = {v: k for k, v in bits_list.items()}
    donors = {}
    donor_gen = {}
    for gen, fname, rs, _ in tables:
        if gen in ("gfx8", "gfx9", "gfx10", "gfx11"):
            for r in rs:
                donors.setdefault((fname.replace("VOP3B", "VOP3"), r[1]), (fname, r))
                donors.setdefault((fname.replace("VOP3B", "VOP3"), base_name(r[1])), (fname, r))
                donor_gen.setdefault(id(r), gen)
    probes = []  # (gen, target, row index, donor gen, donor form, donor key)
    out = []
    forms = {"SOP1": "SOP1", "SOP2": "SOP2", "SOPK": "SOPK", "SOPC": "SOPC", "VOP1": "VOP1", "VOP2": "VOP2",
             "VOPC": "VOPC", "VOP3": "VOP3", "DS": "DS", "MUBUF": "MUBUF", "MTBUF": "MTBUF", "FLAT": "FLAT",
             "EXP": "EXP"}
    for gen in ("gfx6", "gfx7"):
        for cls, form in forms.items():
            table = names.get((gen, cls), {})
            if cls == "EXP":
                # One instruction, laid out as on gfx8 (EN, TGT, COMPR, DONE, VM,
                # VSRC0-3) under SI's selector 0xF8 (llvm-mc-19 -mcpu=tahiti:
                # `exp mrt0 v1, v2, v3, v4 done vm` is 0xF800180F 0x04030201).
                table = {0: "exp"}
            per_form = {}
            for key, name in sorted(table.items()):
                cands = [name]
                for pat, rep in SI_ALIASES:
                    alias = re.sub(pat, rep, base_name(name))
                    if alias != base_name(name):
                        cands.append(alias)
                cands.append(base_name(name))
                d = next((donors[(form, c)] for c in cands if (form, c) in donors), None)
                direct = d is not None and base_name(name) not in SI_SWAPPED
                if d is None and form == "VOP2" and opd_lists is not None:
                    # A VOP2 of SI/CI that later generations keep only as VOP3
                    # (v_bcnt_u32_b32, v_ldexp_f32, v_cvt_pk*, …): the VOP3
                    # operands in the 32-bit shape (vsrc1 a VGPR).
                    v3 = next((donors[("VOP3", c)] for c in cands if ("VOP3", c) in donors), None)
                    if v3 is not None and v3[0] == "VOP3":
                        by_name = {v: k for k, v in opd_lists.items()}
                        slots = by_name[v3[1][2]]
                        if [x[0] for x in slots] == ["Vdst", "Src0", "Src1"]:
                            vg = 1 << ACCEPT_BITS["VGPR"] | 1 << ACCEPT_BITS["VGPR_HI"]
                            suffix32 = "_e32"
                            if not slots[2][3] & vg:
                                # v_readlane_b32 / v_writelane_b32: the lane select
                                # is a scalar code in the 8-bit VSRC1 field (SGPR,
                                # m0, inline constant; no literal there), and with
                                # no VOP3 form on SI/CI LLVM prints no `_e32`.
                                vg = slots[2][3] & ~(1 << ACCEPT_BITS["LITERAL"])
                                suffix32 = ""
                            s1 = slots[1]
                            if suffix32 == "" and not s1[3] & (1 << ACCEPT_BITS["SGPR"]):
                                # v_readlane_b32's source: a VGPR or lds_direct
                                # (llvm-mc-19 -mcpu=tahiti rejects
                                # `v_readlane_b32 s0, src_scc, 3`).
                                s1 = s1[:3] + (s1[3] & ~(1 << ACCEPT_BITS["COND"]),) + s1[4:]
                            if s1[3] & (1 << ACCEPT_BITS["CONST"]):
                                # SRC0 of a 32-bit encoding takes a literal,
                                # which gfx8's VOP3 cannot carry (llvm-mc-19
                                # -mcpu=tahiti: `v_cvt_pknorm_i16_f32 v1, 0x1234, v2`,
                                # `v_writelane_b32 v1, 0x1234, m0`).
                                s1 = s1[:3] + (s1[3] | 1 << ACCEPT_BITS["LITERAL"],) + s1[4:]
                            new = (slots[0], s1, ("Vsrc1", slots[2][1], slots[2][2], vg, False))
                            if new not in opd_lists:
                                opd_lists[new] = "O%d" % len(opd_lists)
                            k0, dn0, o0, b0, lit0, fl0 = v3[1]
                            e32 = next((r for g2, f2, rs2, _ in tables if f2 == "VOP2" and g2 == "gfx8"
                                        for r in rs2), None)
                            d = ("VOP2", (k0, base_name(name) + suffix32, opd_lists[new], e32[3] if e32 else b0,
                                          lit0, 0))
                if d is None:
                    continue
                dform, r = d
                k, dname, o, b, lit, fl = r
                if base_name(name) in SI_SWAPPED and opd_lists is not None:
                    by_name = {v: kk for kk, v in opd_lists.items()}
                    sl = list(by_name[o])
                    i0 = [x[0] for x in sl].index("Src0")
                    i1 = [x[0] for x in sl].index("Src1")
                    a0, a1 = sl[i0], sl[i1]
                    sl[i0], sl[i1] = (a0[0],) + a1[1:], (a1[0],) + a0[1:]
                    sl = tuple(sl)
                    if sl not in opd_lists:
                        opd_lists[sl] = "O%d" % len(opd_lists)
                    o = opd_lists[sl]
                p, i, c, f = by_bits[b]
                np = ni = nc = nf = 0
                for bit in range(128):
                    m = 1 << bit
                    t = si_bit(dform, bit)
                    if t == -1:
                        continue
                    if t is None:
                        if c & m:
                            nc |= 1 << bit  # a bit SI/CI do not have: rejected
                        continue
                    if p & m:
                        np |= 1 << t
                    if i & m:
                        ni |= 1 << t
                    if c & m:
                        nc |= 1 << t
                    if f & m:
                        nf |= 1 << t
                if form in ("MUBUF", "MTBUF"):
                    np |= 1 << 15  # ADDR64
                    nc |= 1 << 15
                if form == "VOP3" and dform != "VOP3B" and not si_float_result(name):
                    # SI/CI take clamp only on float results (llvm-mc-19:
                    # "integer clamping is not supported on this GPU", also for
                    # compares and float-to-int conversions).
                    np &= ~(1 << 11)
                    nc |= 1 << 11
                bk = (np, ni, nc, nf)
                if bk not in bits_list:
                    bits_list[bk] = "B%d" % len(bits_list)
                    by_bits[bits_list[bk]] = bk
                suffix = dname[len(base_name(dname)):]
                # The SI/CI table's own suffix where it has one (a VOP3 form of
                # a VOP1/VOP2 op there is `_e64`, which gfx8 may not need).
                pname = name if name.endswith(("_e32", "_e64")) else base_name(name) + suffix

                target = "VOP3B" if dform == "VOP3B" else form
                if direct and id(r) in donor_gen:
                    probes.append((gen, target, len(per_form.get(target, [])), donor_gen[id(r)], dform, k))
                per_form.setdefault(target, []).append((key, pname, o, bits_list[bk], lit, fl))
            for target, rs in per_form.items():
                out.append((gen, target, rs, 0))
    if data is not None and opd_lists is not None:
        si_probe_accepts(out, probes, data, opd_lists)
    if not any(n for n in names.values()):
        print("no gfx6/gfx7 name tables found", file=sys.stderr)
    return out


def emit_rust(data, path):
    out = []
    w = out.append
    w("//! GENERATED by tools/sweep_operands.py from llvm-mc-19 (LLVM 19); do not edit.\n//!\n")
    w("//! Operand signatures per generation, encoding form and opcode (see `super::signature`).\n")
    w("//! Each row: opcode, mnemonic as printed, printed operands, modifier/ignored bits,\n")
    w("//! and whether the opcode always carries a literal.\n\n")
    w("#![allow(clippy::unreadable_literal)]\n\n")
    w("use super::signature::{Bits, Fld, Form, Row, Slot, Ty};\nuse crate::arch::Gen;\n\n")
    w("const fn o(field: Fld, regs: u8, ty: Ty, accepts: u16, mask: bool) -> Slot {\n")
    w("    Slot { field, regs, ty, accepts, mask }\n}\n\n")
    w("const fn r(op: u16, name: &'static str, opds: &'static [Slot], bits: &'static Bits, literal: bool, flags: u16) -> Row {\n")
    w("    Row { op, name, opds, bits, literal, flags }\n}\n\n")
    opd_lists, bits_list = {}, {}
    tables = []
    # Type resolution for inline-only probes: same mnemonic and operand index in
    # another form or generation with literal probes.
    known = {}
    for gen, forms in data.items():
        if gen.startswith("_"):
            continue
        for fname, rows in forms.items():
            for k, row in rows.items():
                for i, o in enumerate(row["opds"]):
                    t = raw_type(o.get("probes"))
                    if t and t not in ("32", "64") and o.get("field"):
                        known.setdefault((base_name(row["name"]), norm_field(o["field"])), t)
    unresolved = []
    names = data.get("_names") or measure_names()
    for key, vals in sorted(names.items()):
        w("/// MTBUF format names (%s), as llvm-mc-19 prints them.\n" % key)
        w("pub const %s: [Option<&str>; %d] = [%s];\n\n" % (
            key.upper(), len(vals), ", ".join('Some("%s")' % v if v else "None" for v in vals)))
    for gen, _mcpu in GENS:
        if gen not in data:
            continue
        forms = {f.name: f for f in forms_for(gen)}
        b_ops = {int(k) for k, row in data[gen].get("VOP3B", {}).items()
                 if any(o.get("field") == "sdst" for o in row["opds"])}
        for fname, rows in data[gen].items():
            form = forms[fname]
            kinds = {f.name: f.kind for f in form.regs}
            widths = {f.name: f.width for f in form.regs}
            flag_mask = 0
            for b in form.flags:
                flag_mask |= 1 << b
            rs = []
            for k in sorted(rows, key=int):
                row = rows[k]
                key = int(k)
                if fname == "VOP3" and key in b_ops:
                    continue
                if fname == "VOP3B" and key not in b_ops:
                    continue
                opds = []
                raw_opds = row["opds"]
                if len(raw_opds) == 1 and "field" not in raw_opds[0] and ":" in raw_opds[0]["tok"]:
                    raw_opds = []  # `v_nop quad_perm:…`: a modifier, not an operand
                if raw_opds and all(o["tok"].endswith((".l", ".h")) for o in raw_opds[:2]):
                    # gfx11 v_mov_b16: 16-bit register halves (`v8.l`, `v5.h`;
                    # bit 7 of a VGPR code selects the high half).
                    t16 = 1 << ACCEPT_BITS["TRUE16"]
                    vg = 1 << ACCEPT_BITS["VGPR"] | 1 << ACCEPT_BITS["VGPR_HI"] | t16
                    src = 0x1FFF | t16 if fname == "VOP1" else vg
                    opds = (("Vdst", 1, "I16", vg, False), ("Src0", 1, "I16", src, False))
                    raw_opds = []
                for i, o in enumerate(raw_opds):
                    f = o.get("field")
                    if f is None:
                        tok = o["tok"]
                        if tok in ("vcc", "vcc_lo"):
                            opds.append(("Vcc", 2, "B64", 1 << ACCEPT_BITS["VCC"], True))
                        elif fname in ("VOP3_DPP", "VOP3_DPP8") and key in b_ops and i == 1:
                            opds.append(("Sdst", 2, "B64", accepts_of(gen, "sdst", None), True))
                        else:
                            opds.append(("Imm", 0, "B32", 0, False))
                        continue
                    if reg_of(o["tok"]) is None and o["tok"].startswith(("gpr_idx", "0x", "sendmsg")):
                        # A register field LLVM prints as an immediate
                        # (s_set_gpr_idx_on's mode, s_sendmsg_rtn's message).
                        opds.append(("Imm", 0, "B32", 0, False))
                        continue
                    count = o.get("count") or 0
                    # Lane masks: scalar operands whose width follows the wave
                    # size. (WMMA VGPR tuples also shrink in wave64; they keep
                    # LLVM's default wave32 width.)
                    mask = "count64" in o and o["count64"] != count and o.get("file") != "v"
                    regs = o["count64"] if mask else count
                    probes = o.get("probes")
                    t = raw_type(probes)
                    if t in ("32", "64", None) and probes is not None:
                        t2 = known.get((base_name(row["name"]), norm_field(f)))
                        if t2 and ((t == "64") == (t2 in ("B64", "F64")) or t is None):
                            t = t2
                        elif t == "32":
                            if fname.startswith("VOP3P") and row["name"].startswith("v_pk_"):
                                t = "V2I16"
                            elif fname.startswith("VOP") and (base_name(row["name"]).endswith("_f16") or "_mix" in row["name"]):
                                t = "F16"  # gfx8/gfx9 VOP3-only f16 ops (v_mad_f16, v_mad_mix*)
                            else:
                                if not fname.startswith(("MUBUF", "MTBUF")):
                                    unresolved.append((gen, fname, row["name"], i))
                                t = "B32"
                        elif t == "64":
                            t = "F64" if "_f64" in row["name"] else "B64"
                    if t is None and probes is None:
                        # A register-only slot (VOP2 vsrc1, SDWA/DPP sources):
                        # the type the same operand has where it takes constants.
                        t = known.get((base_name(row["name"]), norm_field(f)))
                        if t and (t in ("B64", "F64")) != (regs == 2):
                            t = None
                    if t is None:
                        t = "B64" if regs == 2 and not mask else "B32"
                    if fname.startswith("VOP3P") and t == "B32" and row["name"].startswith("v_pk_"):
                        t = "V2I16"
                    acc = accepts_of(gen, kinds.get(f, "src"), probes, widths.get(f, 9), o.get("file"))
                    if kinds.get(f) in ("vgpr", "vdst") and o.get("file") == "v":
                        # An 8-bit register field holding a VGPR number (the VOP3
                        # vdst of scalar-destination opcodes holds a scalar code
                        # and was probed like a source).
                        acc = 1 << ACCEPT_BITS["VGPR"]
                    elif kinds.get(f) in ("vdst", "vgpr") and probes is None:
                        # An 8-bit scalar destination (v_readfirstlane_b32):
                        # LLVM decodes any scalar code but constants there.
                        acc = accepts_of(gen, "sdst", None) | sum(
                            1 << ACCEPT_BITS[k] for k in ("APERTURE", "COND", "LDS_DIRECT"))
                    elif kinds.get(f) == "sdst" and probes is None:
                        acc = accepts_of(gen, "sdst", None)  # a scalar destination
                    if acc & 1 and ("hi" not in o or o["hi"] is not None):
                        acc |= 1 << ACCEPT_BITS["VGPR_HI"]
                    opds.append((FIELD_ENUM[f], regs, t, acc, mask))
                opds = tuple(opds)
                if opds not in opd_lists:
                    opd_lists[opds] = "O%d" % len(opd_lists)
                printed = ignored = checked = fixed = 0
                base_bits = 0
                for i, wd in enumerate(form.build(key, row["vals"])[:form.words]):
                    base_bits |= wd << (32 * i)
                for b in row.get("checked", []):
                    checked |= 1 << b
                for b, st in row.get("flags", {}).items():
                    b = int(b)
                    if st in ("x", "c") and base_bits >> b & 1:
                        fixed |= 1 << b  # set in the base, and clearing it is rejected
                    if st == "i":
                        ignored |= 1 << b
                    elif st not in ("x", "c"):
                        # Printed modifiers, and bits LLVM decodes but spells
                        # with a comment ("m"; the class decoder rejects those
                        # values by the printer's own rules).
                        printed |= 1 << b
                bk = (printed, ignored, checked, fixed)
                if bk not in bits_list:
                    bits_list[bk] = "B%d" % len(bits_list)
                flags = 0
                fl = row.get("flags", {})
                for ob in ("11", "12", "13", "14"):
                    tb = fl.get(ob, "x")
                    m = re.search(r"op_sel:\[([0-9,]*)\]", tb) if tb not in ("x", "i", "c", "m") else None
                    if m:
                        flags |= min(len(m.group(1).split(",")), 7) << 4
                        break
                # Source modifier bits that print as sext(…) (integer operands of
                # VOP3 and DPP forms): flags bit 8+i.
                negbits = {"VOP3": (61, 62, 63), "VOP3B": (61, 62, 63), "VOP3_DPP": (61, 62, 63),
                           "VOP3_DPP8": (61, 62, 63), "VOP1_DPP": (52, 54), "VOP2_DPP": (52, 54),
                           "VOPC_DPP": (52, 54)}.get(fname, ())
                for i, b in enumerate(negbits):
                    t = fl.get(str(b), "x")
                    if "sext(" in t:
                        flags |= 1 << (8 + i)
                if fname == "DS":
                    t0 = fl.get("0", "x")
                    if "offset0:" in t0:
                        flags |= 1 << 12  # offset0/offset1 (write2/read2 family)
                    if "swizzle(" in t0:
                        flags |= 1 << 13  # ds_swizzle_b32's offset
                if fname in ("FLAT", "MUBUF"):
                    # Returning atomics: the register GLC adds in front.
                    glcbit = {"gfx11": "14"}.get(gen, "16") if fname == "FLAT" else None
                    tg = fl.get(glcbit, "x") if glcbit else "x"
                    if tg not in ("x", "i", "c"):
                        _, toks2, _ = split_operands(tg)
                        if len(toks2) == len(raw_opds) + 1:
                            r0 = reg_of(toks2[0])
                            if r0:
                                flags |= min(r0[2], 15) << 12
                if fname.startswith("VOP3P"):
                    # Packed: op_sel_hi defaults to 1, so the base (op_sel_hi 0)
                    # prints it. Mix-style: neg_lo/neg_hi print as `-` and `|…|`.
                    if "op_sel_hi:" in row["text"]:
                        flags |= 1
                    t61 = row.get("flags", {}).get("61", "x")
                    if t61 not in ("x", "i", "c") and "neg_lo" not in t61:
                        flags |= 2
                rs.append((key, row["name"], opd_lists[opds], bits_list[bk], bool(row["vals"].get("_lit")), flags))
            tables.append((gen, fname, rs, flag_mask))
    tables += derive_si(tables, bits_list, opd_lists, data)
    used = {r[2] for _, _, rs, _ in tables for r in rs}
    for opds, name in opd_lists.items():
        if name not in used:
            continue  # replaced by a measured gfx6/gfx7 variant
        items = ", ".join("o(Fld::%s, %d, Ty::%s, 0x%x, %s)" % (f, n, t, a, "true" if m else "false")
                          for f, n, t, a, m in opds)
        w("const %s: &[Slot] = &[%s];\n" % (name, items))
    w("\n")
    for (p, i, c, f), name in bits_list.items():
        w("const %s: Bits = Bits { printed: 0x%x, ignored: 0x%x, checked: 0x%x, fixed: 0x%x };\n" % (name, p, i, c, f))
    w("\n")
    for gen, fname, rs, _ in tables:
        w("/// %s %s (%d opcodes).\n" % (gen, fname, len(rs)))
        w("pub const %s_%s: &[Row] = &[\n" % (gen.upper(), fname))
        for key, name, o, b, lit, fl in rs:
            w("    r(0x%x, \"%s\", %s, &%s, %s, %d),\n" % (key, name, o, b, "true" if lit else "false", fl))
        w("];\n\n")
    w("/// The rows of a form on a generation and the form's flag bits.\n")
    w("pub fn rows(gen: Gen, form: Form) -> (&'static [Row], u128) {\n    match (gen, form) {\n")
    for gen, fname, rs, mask in tables:
        w("        (Gen::%s, Form::%s) => (%s_%s, 0x%x),\n" % (gen.capitalize(), FORM_ENUM[fname], gen.upper(),
                                                            fname, mask))
    w("        _ => (&[], 0),\n    }\n}\n")
    open(path, "w").write("".join(out))
    for u in unresolved:
        print("unresolved 16/32-bit type, B32 assumed:", u, file=sys.stderr)


if __name__ == "__main__":
    main()
