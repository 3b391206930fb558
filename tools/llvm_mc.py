"""Batch access to llvm-mc-19's AMDGPU disassembler and assembler, for the table
generators in this directory (sweep_opcodes.py, sweep_operands.py).

`disassemble` decodes many independent groups of dwords in one llvm-mc run: each
group is one input line, followed by a marker line (`s_nop 0x3e7`), so that the
output splits back into groups whatever a group decodes to. llvm-mc-19 crashes on
a few encodings (e.g. SDWA selector 7); a crashing batch is halved until the
crashing group is found, which is reported as CRASH.
"""
import re
import subprocess

MC = "llvm-mc-19"
MARKER = [0xBF8003E7]  # s_nop 0x3e7, the same bytes and text on every generation
CRASH = "CRASH"


def _line(words):
    bs = b"".join(w.to_bytes(4, "little") for w in words)
    return "[" + ",".join("0x%02x" % b for b in bs) + "]"


def _diag_lines(stderr):
    """Input lines whose FIRST dword LLVM rejected (the diagnostic's column points
    at the byte it stopped at: column 2 is the line's first byte)."""
    return {int(m.group(1)) for m in re.finditer(r"<stdin>:(\d+):2: (?:warning|error)", stderr)}


def _disassemble_once(mcpu, groups, mattr):
    lines = []
    for g in groups:
        lines.append(_line(g))
        lines.append(_line(MARKER))
    args = [MC, "-arch=amdgcn", "-mcpu=" + mcpu, "-disassemble", "-show-encoding"]
    if mattr:
        args.append("-mattr=" + mattr)
    p = subprocess.run(args, input="\n".join(lines) + "\n", capture_output=True, text=True)
    if p.returncode not in (0, 1):
        return None  # crashed
    bad = _diag_lines(p.stderr)
    chunks, cur = [], []
    for l in p.stdout.splitlines():
        if "; encoding: [" not in l:
            continue
        text, enc = l.split("; encoding: [")
        text = " ".join(text.split())
        n = len([t for t in enc.strip().rstrip("]").split(",") if t.strip()])
        if text == "s_nop 0x3e7":
            chunks.append(cur)
            cur = []
        else:
            cur.append((text, n))
    out = []
    for i in range(len(groups)):
        if (2 * i + 1) in bad or i >= len(chunks) or not chunks[i]:
            out.append(None)
        else:
            out.append(chunks[i][0])
    return out


def disassemble(mcpu, groups, mattr=None, chunk=20000):
    """Per group: (text, length in bytes of LLVM's re-encoding), None when LLVM
    rejects the first dword, or CRASH."""
    out = []
    for i in range(0, len(groups), chunk):
        out += _disassemble_rec(mcpu, groups[i:i + chunk], mattr)
    return out


def _disassemble_rec(mcpu, groups, mattr):
    if not groups:
        return []
    r = _disassemble_once(mcpu, groups, mattr)
    if r is not None:
        return r
    if len(groups) == 1:
        return [CRASH]
    h = len(groups) // 2
    return _disassemble_rec(mcpu, groups[:h], mattr) + _disassemble_rec(mcpu, groups[h:], mattr)


def assemble(mcpu, texts, mattr=None):
    """Per text line: the encoded dwords, or None when llvm-mc rejects it."""
    args = [MC, "-arch=amdgcn", "-mcpu=" + mcpu, "-show-encoding"]
    if mattr:
        args.append("-mattr=" + mattr)
    p = subprocess.run(args, input="\n".join(texts) + "\n", capture_output=True, text=True)
    bad = {int(m.group(1)) for m in re.finditer(r"<stdin>:(\d+):\d+: error", p.stderr)}
    encs = [l.split("; encoding: [")[1] for l in p.stdout.splitlines() if "; encoding: [" in l]
    res, k = [], 0
    for i in range(len(texts)):
        if i + 1 in bad:
            res.append(None)
            continue
        bs = [int(x, 16) for x in encs[k].strip().rstrip("]").split(",")]
        k += 1
        res.append([int.from_bytes(bytes(bs[j:j + 4]), "little") for j in range(0, len(bs) - 3, 4)])
    return res
