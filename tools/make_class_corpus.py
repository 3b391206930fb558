#!/usr/bin/env python3
"""Builds tests/fixtures/clrx_encodings.tsv: third-party instruction encodings of
every class and generation, with LLVM 19's verdict on each.

The encodings come from CLRX's disassembler tests (github.com/CLRX/CLRX-mirror,
tests/amdasm/GCNDisasmOpc*.cpp): per generation, thousands of hand-written words
covering every opcode of every class with varied operands and modifiers
(GCN 1.0 = tahiti, GCN 1.1 = hawaii, GCN 1.2 = tonga, GCN 1.4 = gfx900 and
gfx906, GCN 1.5 = gfx1010 and gfx1011). Only the words are taken (CLRX prints its
own syntax, not LLVM's), with the device, file and line they come from. The
verdict recorded is that of the generation's base processor (gfx906 words are
judged as gfx900, gfx1010/gfx1011 words as gfx1030), the instruction set
gcnrun's tables follow.

For gfx8+ rows the expected answer is llvm-objdump-19's: the text and the bytes
it consumed, `<invalid>` where it prints `.long` (or a text it marks invalid),
`<crash>` where it crashes. gfx6/gfx7 rows carry no answer (LLVM 19 cannot
disassemble them); tests/corpus_classes.rs checks them by reassembly.

Usage: python3 tools/make_class_corpus.py /path/to/CLRX-mirror(.git) > tests/fixtures/clrx_encodings.tsv
"""
import os
import re
import subprocess
import sys
import tempfile

# CLRX's array -> (the device CLRX wrote it for, the processor whose verdict the
# corpus records: the generation's base processor, which gcnrun's tables follow).
ARRAYS = {
    "decGCNOpcodeCases": ("tahiti", "tahiti"),
    "decGCNOpcodeGCN11Cases": ("hawaii", "hawaii"),
    "decGCNOpcodeGCN12Cases": ("tonga", "tonga"),
    "decGCNOpcodeGCN14Cases": ("gfx900", "gfx900"),
    "decGCNOpcodeGCN141Cases": ("gfx906", "gfx900"),
    "decGCNOpcodeGCN15Cases": ("gfx1010", "gfx1030"),
    "decGCNOpcodeGCN15Cases2": ("gfx1010", "gfx1030"),
    "decGCNOpcodeGCN15W32Cases": ("gfx1010", "gfx1030"),
    "decGCNOpcodeGCN151Cases": ("gfx1011", "gfx1030"),
}
FILES = ["GCNDisasmOpc11.cpp", "GCNDisasmOpc12.cpp", "GCNDisasmOpc14.cpp", "GCNDisasmOpc15.cpp"]
MARKER = 0xBF8003E7  # s_nop 0x3e7
MARKERS = 5


def read(repo, name):
    path = "tests/amdasm/" + name
    if os.path.isdir(os.path.join(repo, "tests")):
        return open(os.path.join(repo, path)).read()
    return subprocess.run(["git", "--git-dir", repo, "show", "HEAD:" + path],
                          capture_output=True, text=True, check=True).stdout


def cases(repo):
    out = []
    for name in FILES:
        text = read(repo, name)
        array = None
        for no, line in enumerate(text.splitlines(), 1):
            m = re.match(r"const GCNDisasmOpcodeCase2? (\w+)\[\] =", line)
            if m:
                array = m.group(1)
                continue
            if array not in ARRAYS:
                continue
            m = re.match(r"\s*\{\s*0x([0-9a-fA-F]+)U?,\s*(0x[0-9a-fA-F]+|\d+)U?,\s*(true|false)", line)
            if m:
                words = [int(m.group(1), 16)]
                if m.group(3) == "true":
                    words.append(int(m.group(2), 0) & 0xFFFFFFFF)
                out.append((ARRAYS[array], words, "%s:%d" % (name, no)))
                continue
            m = re.match(r"\s*\{\s*\{\s*([^}]*)\},\s*(\d+)", line)
            if m:
                ws = [int(x.strip().rstrip("uU"), 16) for x in m.group(1).split(",") if x.strip()]
                if not ws:
                    continue  # the array's terminator
                out.append((ARRAYS[array], ws[: int(m.group(2))], "%s:%d" % (name, no)))
    return out


def invalid_text(t):
    return (("Invalid register" in t or "Invalid immediate" in t or "invalid_" in t or "/*" in t)
            and not t.startswith("s_delay_alu"))


def objdump(mcpu, samples):
    """llvm-objdump-19 on the samples laid out with markers: per sample
    (text, bytes) or None (invalid); the whole batch None if it crashes."""
    words, starts = [], []
    for s in samples:
        starts.append(len(words) * 4)
        words += s + [MARKER] * MARKERS
    asm = ".text\n" + "".join(".long 0x%08x\n" % w for w in words)
    with tempfile.TemporaryDirectory() as d:
        obj = os.path.join(d, "s.o")
        subprocess.run(["llvm-mc-19", "-arch=amdgcn", "-mcpu=" + mcpu, "-filetype=obj", "-o", obj],
                       input=asm, text=True, check=True, capture_output=True)
        p = subprocess.run(["llvm-objdump-19", "-d", "--mcpu=" + mcpu, obj], capture_output=True, text=True)
        if p.returncode != 0:
            return None
    at = {}
    for l in p.stdout.splitlines():
        if "// " not in l:
            continue
        text, rest = l.rsplit("// ", 1)
        rest = rest.split(" ; ")[0]
        if ": " not in rest:
            continue
        off, hexw = rest.split(": ", 1)
        try:
            off = int(off.strip(), 16)
        except ValueError:
            continue
        n = len([t for t in hexw.split() if len(t) == 8])
        at[off] = (" ".join(text.split()), n * 4)
    out = []
    for st in starts:
        r = at.get(st)
        out.append(None if r is None or r[0].startswith(".long") or invalid_text(r[0]) else r)
    return out


def verdicts(mcpu, samples):
    r = objdump(mcpu, samples)
    if r is not None:
        return r
    if len(samples) == 1:
        return ["<crash>"]
    h = len(samples) // 2
    return verdicts(mcpu, samples[:h]) + verdicts(mcpu, samples[h:])


def main():
    repo = sys.argv[1]
    rows, seen = [], set()
    for (device, mcpu), words, src in cases(repo):
        key = (mcpu, tuple(words))
        if key not in seen:
            seen.add(key)
            rows.append((mcpu, words, "%s:%s" % (device, src)))
    w = sys.stdout.write
    w("# Third-party encodings of every instruction class: the words of CLRX's disassembler tests\n")
    w("# (github.com/CLRX/CLRX-mirror tests/amdasm/GCNDisasmOpc*.cpp; source = device:file:line), with\n")
    w("# llvm-objdump-19's text and length for gfx8+ (`<invalid>`: it prints .long; `<crash>`: it\n")
    w("# crashes; `-`: gfx6/gfx7, which LLVM 19 cannot disassemble). mcpu is the generation's base\n")
    w("# processor (tahiti, hawaii, tonga, gfx900, gfx1030), whose instruction set gcnrun's tables follow;\n")
    w("# source names the device CLRX wrote the words for. Made by tools/make_class_corpus.py.\n")
    w("mcpu\twords\tllvm_text\tllvm_len\tsource\n")
    by_cpu = {}
    for r in rows:
        by_cpu.setdefault(r[0], []).append(r)
    for mcpu, rs in by_cpu.items():
        if mcpu in ("tahiti", "hawaii"):
            vs = [("-", 0)] * len(rs)
        else:
            vs = []
            for i in range(0, len(rs), 500):
                vs += verdicts(mcpu, [r[1] for r in rs[i:i + 500]])
        for (cpu, words, src), v in zip(rs, vs):
            if v is None:
                text, n = "<invalid>", 0
            elif v == "<crash>":
                text, n = "<crash>", 0
            else:
                text, n = v
            w("%s\t%s\t%s\t%d\t%s\n" % (cpu, " ".join("%08x" % x for x in words), text, n, src))


main()
