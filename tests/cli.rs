//! The `gcn-run` binary end to end: every kind of bad input answers with exit code
//! 2 and exactly one stderr line naming the file (or option) and the offset; good
//! input disassembles to what LLVM 19 prints for the same bytes and reassembles to
//! them; ELF code objects are decoded with the arch their `e_flags` name; the
//! bundled kernel is llvm-mc's assembly of its source.
//!
//! Expected texts come from llvm-mc-19 at test time, not from this file: tests that
//! need it skip locally with a printed reason when it is missing (and fail under
//! `CI=true`, see `common::llvm`).

mod common;

use common::llvm::{collapse_ws, hex, Dis, LlvmMc};
use gcnrun::Arch;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

const BIN: &str = env!("CARGO_BIN_EXE_gcn-run");

/// Runs gcn-run with `args` from the crate root.
fn gcn_run(args: &[&str]) -> Output {
    Command::new(BIN)
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("run gcn-run")
}

/// A scratch file under the target's temp dir holding `bytes`.
fn scratch(name: &str, bytes: &[u8]) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("cli");
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, bytes).unwrap();
    path
}

fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// Asserts a bad-input answer: exit code 2, exactly one stderr line, starting with
/// `gcn-run: ` and containing every needle (file name, offset, ...). Returns it.
fn assert_bad(out: &Output, needles: &[&str]) -> String {
    let err = stderr(out);
    assert_eq!(out.status.code(), Some(2), "exit code; stderr: {err}");
    let lines: Vec<&str> = err.lines().collect();
    assert_eq!(lines.len(), 1, "exactly one stderr line, got: {err:?}");
    let line = lines[0];
    assert!(line.starts_with("gcn-run: "), "{line}");
    assert!(!err.contains("panicked"), "{err}");
    for n in needles {
        assert!(line.contains(n), "stderr line lacks {n:?}: {line}");
    }
    line.to_string()
}

fn path_str(p: &Path) -> &str {
    p.to_str().expect("utf-8 temp path")
}

/// Little-endian bytes of dwords.
fn le(words: &[u32]) -> Vec<u8> {
    words.iter().flat_map(|w| w.to_le_bytes()).collect()
}

/// s_nop 0 / s_endpgm (SOPP; the same dwords on gfx6–gfx11, verified with llvm-mc-19).
const S_NOP_0: u32 = 0xbf80_0000;
const S_ENDPGM: u32 = 0xbf81_0000;

/// A minimal ELF64 little-endian header with no sections (System V ABI layout).
fn elf64_header(machine: u16, flags: u32) -> Vec<u8> {
    let mut h = vec![0u8; 64];
    h[..4].copy_from_slice(&[0x7f, b'E', b'L', b'F']);
    h[4] = 2; // ELFCLASS64
    h[5] = 1; // ELFDATA2LSB
    h[6] = 1; // EV_CURRENT
    h[0x10..0x12].copy_from_slice(&1u16.to_le_bytes()); // ET_REL
    h[0x12..0x14].copy_from_slice(&machine.to_le_bytes());
    h[0x14..0x18].copy_from_slice(&1u32.to_le_bytes());
    h[0x30..0x34].copy_from_slice(&flags.to_le_bytes());
    h[0x34..0x36].copy_from_slice(&64u16.to_le_bytes()); // e_ehsize
    h[0x3a..0x3c].copy_from_slice(&64u16.to_le_bytes()); // e_shentsize
    h
}

// ---------------------------------------------------------------- bad input

#[test]
fn missing_file() {
    let out = gcn_run(&["--disasm", "does/not/exist.bin"]);
    assert_bad(&out, &["does/not/exist.bin", "No such file"]);
}

#[test]
fn endless_input_is_refused() {
    // A device with no length of its own: refused by its type before a byte is
    // read (tests/cli_robust.rs covers FIFOs and the size caps).
    if !Path::new("/dev/zero").exists() {
        eprintln!("SKIPPED endless_input_is_refused: no /dev/zero");
        return;
    }
    assert_bad(
        &gcn_run(&["--disasm", "/dev/zero"]),
        &["/dev/zero", "character device", "regular files only"],
    );
}

#[test]
fn directory_is_refused() {
    assert_bad(&gcn_run(&["--disasm", "assets"]), &["assets", "directory"]);
}

#[test]
fn empty_file() {
    let p = scratch("empty.bin", &[]);
    assert_bad(
        &gcn_run(&["--disasm", path_str(&p)]),
        &["empty.bin", "offset 0x0"],
    );
}

#[test]
fn size_not_a_multiple_of_four() {
    let mut bytes = le(&[S_NOP_0]);
    bytes.extend_from_slice(&[0, 0]);
    let p = scratch("six.bin", &bytes);
    assert_bad(
        &gcn_run(&["--disasm", path_str(&p)]),
        &["six.bin", "offset 0x4"],
    );
}

/// An instruction cut off by the end of the stream: the listing still shows the
/// instructions before it, then one error names the cut instruction's offset.
fn assert_truncated(name: &str, arch: &str, words: &[u32], at: usize) {
    let p = scratch(name, &le(words));
    let out = gcn_run(&["--disasm", "--arch", arch, path_str(&p)]);
    let line = assert_bad(&out, &[name, &format!("offset {at:#x}")]);
    assert!(line.contains("truncated"), "{line}");
    assert_eq!(stdout(&out).lines().count(), at / 4, "{}", stdout(&out));
}

#[test]
fn truncated_mimg() {
    // The first dword of image_sample (gfx9) without its second dword.
    assert_truncated("cut_mimg.bin", "gfx9", &[S_NOP_0, 0xf080_0f00], 4);
}

#[test]
fn truncated_literal() {
    // v_mul_f32 v5, 0x3e000000, v5 on gfx7 (src0 = 255: a 32-bit literal follows),
    // with the literal missing. Encoding from llvm-mc-19 (assets/sample_quad.s).
    assert_truncated(
        "cut_literal.bin",
        "gfx7",
        &[S_NOP_0, S_NOP_0, 0x100a_0aff],
        8,
    );
}

#[test]
fn truncated_nsa() {
    // gfx10 image_sample with NSA = 1 (one extra address dword) but only two dwords:
    // bits 2:1 of dword 0 are the NSA dword count (research/encodings.md).
    assert_truncated(
        "cut_nsa.bin",
        "gfx1030",
        &[S_NOP_0, 0xf080_0f0a, 0x0001_0101],
        4,
    );
}

#[test]
fn unknown_opcode_lists_everything_then_fails() {
    // 0xffffffff is no instruction of gfx9 (llvm-objdump-19 prints `.long 0xffffffff`).
    let p = scratch("invalid.bin", &le(&[S_NOP_0, 0xffff_ffff, S_ENDPGM]));
    let out = gcn_run(&["--disasm", "--arch", "gfx9", path_str(&p)]);
    assert_bad(&out, &["invalid.bin", "offset 0x4", "invalid"]);
    let text = stdout(&out);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 3, "{text}");
    assert!(lines[1].starts_with(".long 0xffffffff"), "{text}");
    assert!(lines[2].contains("000000000008: BF810000"), "{text}");

    let out = gcn_run(&["--disasm", "--arch", "gfx9", "--json", path_str(&p)]);
    assert_bad(&out, &["invalid.bin", "offset 0x4"]);
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON on stdout");
    let arr = doc.as_array().expect("array");
    assert_eq!(arr.len(), 3);
    assert_eq!(arr[1]["invalid"], true);
    assert!(arr[1]["reason"].as_str().is_some_and(|r| !r.is_empty()));
    assert_eq!(arr[1]["offset"], 4);
    assert_eq!(arr[1]["hex"], "ffffffff");
    assert!(arr[0].get("invalid").is_none() && arr[2].get("invalid").is_none());
}

#[test]
fn non_elf_named_like_a_code_object() {
    for name in ["kernel.o", "kernel.co", "kernel.hsaco"] {
        let p = scratch(name, &le(&[S_NOP_0, S_ENDPGM]));
        assert_bad(
            &gcn_run(&["--disasm", path_str(&p)]),
            &[name, "offset 0x0", "ELF"],
        );
    }
}

#[test]
fn elf_that_is_not_amdgpu() {
    let p = scratch("x86.o", &elf64_header(62, 0)); // EM_X86_64
    assert_bad(
        &gcn_run(&["--disasm", path_str(&p)]),
        &["x86.o", "offset 0x12", "AMDGPU"],
    );
}

#[test]
fn elf32_is_rejected() {
    let mut h = elf64_header(224, 0x2c);
    h[4] = 1; // ELFCLASS32
    let p = scratch("r600.o", &h);
    assert_bad(
        &gcn_run(&["--disasm", path_str(&p)]),
        &["r600.o", "offset 0x4"],
    );
}

#[test]
fn elf_without_text() {
    let p = scratch("notext.o", &elf64_header(224, 0x2c)); // EM_AMDGPU, gfx900
    assert_bad(
        &gcn_run(&["--disasm", path_str(&p)]),
        &["notext.o", ".text"],
    );
}

#[test]
fn truncated_elf() {
    let p = scratch("cut.o", &elf64_header(224, 0x2c)[..40]);
    assert_bad(&gcn_run(&["--disasm", path_str(&p)]), &["cut.o", "ELF"]);
}

#[test]
fn bad_hex() {
    assert_bad(
        &gcn_run(&["--disasm", "--hex", "00 17 zz f0"]),
        &["--hex", "character 7", "zz"],
    );
    assert_bad(&gcn_run(&["--disasm", "--hex", "0x1234"]), &["--hex"]);
    assert_bad(&gcn_run(&["--disasm", "--hex", "001"]), &["--hex"]);
    assert_bad(&gcn_run(&["--disasm", "--hex", ""]), &["--hex"]);
    assert_bad(
        &gcn_run(&["--disasm", "--hex", "00 17 00"]),
        &["--hex", "offset 0x0"],
    );
}

#[test]
fn unknown_arch_lists_the_valid_names() {
    let line = assert_bad(
        &gcn_run(&["--disasm", "--arch", "gfx12", "--hex", "0xbf810000"]),
        &["--arch", "gfx12"],
    );
    for name in Arch::known_names() {
        assert!(line.contains(name), "{name} missing from: {line}");
    }
}

#[test]
fn a_bare_file_runs_and_translates() {
    let p = scratch("nop.bin", &le(&[S_ENDPGM]));
    let file = path_str(&p);
    // --cpu (the default) runs a bare file in the default environment, and
    // --emit-wgsl translates it without needing a GPU (tests/gpu_cli.rs covers
    // --gpu, --diff and bench, which need an adapter).
    for args in [vec![file], vec!["--cpu", file], vec!["--emit-wgsl", file]] {
        let out = gcn_run(&args);
        assert_eq!(out.status.code(), Some(0), "{args:?}: {}", stderr(&out));
    }
    let wgsl = stdout(&gcn_run(&["--emit-wgsl", file]));
    assert!(wgsl.contains("fn main("), "{wgsl}");
}

#[test]
fn usage_errors_are_one_line() {
    assert_bad(&gcn_run(&["--disasm", "--bogus", "x.bin"]), &["--bogus"]);
    assert_bad(&gcn_run(&["--disasm", "--gpu", "x.bin"]), &[]);
    assert_bad(&gcn_run(&["--disasm"]), &["no input"]);
    assert_bad(&gcn_run(&["--disasm", "--hex", "00000000", "x.bin"]), &[]);
}

#[test]
fn help_has_examples() {
    let out = gcn_run(&["--help"]);
    assert_eq!(out.status.code(), Some(0));
    let text = stdout(&out);
    assert!(
        text.contains("Examples:") && text.contains("--disasm"),
        "{text}"
    );
}

// ---------------------------------------------------------------- good input (vs LLVM)

/// One instruction per generation (and both gfx8 D16 flavours), as LLVM assembler
/// text for an `-mcpu`. The bytes come from llvm-mc-19 at test time.
const PER_GENERATION: &[(&str, &str)] = &[
    (
        "tahiti",
        "image_sample v[1:4], v[1:2], s[4:11], s[12:15] dmask:0xf",
    ),
    ("tahiti", "v_interp_p1_f32 v5, v1, attr0.x"),
    (
        "bonaire",
        "image_load v[1:4], v[2:3], s[8:15] dmask:0xf unorm",
    ),
    (
        "tonga",
        "image_store v[1:2], v[2:3], s[8:15] dmask:0x3 unorm glc",
    ),
    (
        "gfx810",
        "image_load v[1:2], v[2:3], s[8:15] dmask:0xf unorm d16",
    ),
    (
        "gfx900",
        "image_sample_l v[1:4], v[1:3], s[4:11], s[12:15] dmask:0xf",
    ),
    ("gfx900", "v_interp_p1_f32 v5, v1, attr0.x"),
    (
        "gfx1010",
        "image_sample_c v[1:4], v[1:3], s[4:11], s[12:15] dmask:0xf dim:SQ_RSRC_IMG_2D",
    ),
    (
        "gfx1030",
        "image_sample v[1:4], [v1, v7], s[4:11], s[12:15] dmask:0xf dim:SQ_RSRC_IMG_2D",
    ),
    (
        "gfx1100",
        "image_sample v[1:4], v[1:2], s[4:11], s[12:15] dmask:0xf dim:SQ_RSRC_IMG_2D",
    ),
    ("gfx1100", "v_interp_p10_f32 v0, v1, v2, v3"),
];

/// LLVM cannot disassemble gfx6/gfx7 (research/encodings.md): for those only the
/// reassembly check applies.
fn llvm_disassembles(mcpu: &str) -> bool {
    Arch::parse(mcpu).is_some_and(|a| a.gen >= gcnrun::Gen::Gfx8)
}

/// The instruction text of a listing line (the part before the `//` comment).
fn listing_text(line: &str) -> String {
    collapse_ws(line.split(" // ").next().unwrap_or(line))
}

#[test]
fn hex_one_instruction_per_generation_matches_llvm() {
    let Some(mc) = LlvmMc::find("hex_one_instruction_per_generation_matches_llvm") else {
        return;
    };
    let mut failures = Vec::new();
    for &(mcpu, asm) in PER_GENERATION {
        let bytes = mc.assemble(mcpu, &[asm.to_string()]).remove(0);
        let bytes = bytes.unwrap_or_else(|e| panic!("{mcpu}: llvm-mc rejects {asm}: {e}"));
        // The same bytes three ways: spaced bytes, packed bytes, little-endian dwords.
        let spaced: Vec<String> = bytes.iter().map(|b| format!("{b:02x}")).collect();
        let dwords: Vec<String> = bytes
            .chunks(4)
            .map(|c| format!("0x{:08x}", u32::from_le_bytes([c[0], c[1], c[2], c[3]])))
            .collect();
        let forms = [spaced.join(" "), hex(&bytes), dwords.join(" ")];
        let outs: Vec<Output> = forms
            .iter()
            .map(|h| gcn_run(&["--disasm", "--arch", mcpu, "--hex", h]))
            .collect();
        for o in &outs[1..] {
            assert_eq!(
                o.stdout, outs[0].stdout,
                "{mcpu} {asm}: --hex spellings differ"
            );
        }
        let out = &outs[0];
        if out.status.code() != Some(0) {
            failures.push(format!(
                "{mcpu} {asm}: exit {:?}: {}",
                out.status,
                stderr(out)
            ));
            continue;
        }
        let text = stdout(out);
        let lines: Vec<&str> = text.lines().collect();
        if lines.len() != 1 {
            failures.push(format!("{mcpu} {asm}: {} lines: {text}", lines.len()));
            continue;
        }
        let ours = listing_text(lines[0]);
        if llvm_disassembles(mcpu) {
            match &mc.disassemble(mcpu, std::slice::from_ref(&bytes))[0] {
                Dis::Ok { text, .. } if *text == ours => {}
                other => failures.push(format!("{mcpu}: ours `{ours}`, LLVM {other:?}")),
            }
        }
        match mc.assemble(mcpu, std::slice::from_ref(&ours)).remove(0) {
            Ok(again) if again == bytes => {}
            other => failures.push(format!(
                "{mcpu}: `{ours}` reassembles to {other:?}, not {}",
                hex(&bytes)
            )),
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn json_has_the_spec_fields() {
    let Some(mc) = LlvmMc::find("json_has_the_spec_fields") else {
        return;
    };
    let asm = "image_sample v[1:3], v[1:2], s[84:91], s[12:15] dmask:0xb";
    let mut bytes = mc.assemble("gfx900", &[asm.to_string()]).remove(0).unwrap();
    bytes.extend_from_slice(&S_ENDPGM.to_le_bytes());
    let out = gcn_run(&[
        "--disasm",
        "--arch",
        "gfx900",
        "--json",
        "--hex",
        &hex(&bytes),
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).expect("one JSON document");
    let arr = doc.as_array().expect("a JSON array");
    assert_eq!(arr.len(), 2);
    for (i, obj) in arr.iter().enumerate() {
        for key in ["offset", "hex", "text", "mnemonic", "encoding", "fields"] {
            assert!(obj.get(key).is_some(), "object {i} lacks {key}: {obj}");
        }
        assert!(obj["fields"].is_object());
    }
    let mimg = &arr[0];
    assert_eq!(mimg["offset"], 0);
    assert_eq!(mimg["hex"], hex(&bytes[..8]));
    assert_eq!(mimg["encoding"], "MIMG");
    assert_eq!(mimg["mnemonic"], "image_sample");
    assert_eq!(
        mimg["text"].as_str().map(collapse_ws).as_deref(),
        match &mc.disassemble("gfx900", &[bytes[..8].to_vec()])[0] {
            Dis::Ok { text, .. } => Some(text.as_str()),
            Dis::Invalid => None,
        }
    );
    // SPEC.md's own examples: srsrc is the SGPR number / 4, dmask the raw mask.
    assert_eq!(mimg["fields"]["srsrc"], 21);
    assert_eq!(mimg["fields"]["dmask"], 11);
    assert_eq!(mimg["fields"]["ssamp"], 3);
    assert_eq!(arr[1]["offset"], 8);
    assert_eq!(arr[1]["encoding"], "SOPP");
    assert_eq!(arr[1]["mnemonic"], "s_endpgm");
}

/// `nsa` is the list of extra address VGPRs of an NSA form (SPEC.md), in operand
/// order; `vaddr` is the first.
#[test]
fn json_nsa_is_a_list() {
    let Some(mc) = LlvmMc::find("json_nsa_is_a_list") else {
        return;
    };
    let asm = "image_sample v[1:4], [v1, v7, v3], s[4:11], s[12:15] dmask:0xf dim:SQ_RSRC_IMG_3D";
    let bytes = mc
        .assemble("gfx1030", &[asm.to_string()])
        .remove(0)
        .unwrap();
    let out = gcn_run(&[
        "--disasm",
        "--arch",
        "gfx1030",
        "--json",
        "--hex",
        &hex(&bytes),
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let fields = &doc[0]["fields"];
    assert_eq!(fields["vaddr"], 1, "{doc}");
    assert_eq!(fields["nsa"], serde_json::json!([7, 3]), "{doc}");
    assert_eq!(doc[0]["hex"], hex(&bytes));
}

/// Path of an LLVM 19 tool (`llvm-mc`, `llvm-objdump`), or `None` (skip; under
/// CI=true a missing tool fails, as `LlvmMc::find` does).
fn llvm19_tool(tool: &str) -> Option<PathBuf> {
    for cand in [format!("{tool}-19"), format!("/usr/lib/llvm-19/bin/{tool}")] {
        if Command::new(&cand).arg("--version").output().is_ok() {
            return Some(cand.into());
        }
    }
    let ci = std::env::var("CI").is_ok_and(|v| v == "true" || v == "1");
    assert!(!ci, "{tool}-19 not found; CI=true requires it");
    eprintln!("SKIPPED: {tool}-19 not found (install Debian's llvm-19)");
    None
}

/// Assembles `source` for `mcpu` into an ELF code object with llvm-mc-19.
fn assemble_elf(mcpu: &str, source: &str, name: &str) -> Option<PathBuf> {
    let mc = llvm19_tool("llvm-mc")?;
    let src = scratch(&format!("{name}.s"), source.as_bytes());
    let obj = src.with_extension("o");
    let status = Command::new(mc)
        .args([
            "-arch=amdgcn",
            &format!("-mcpu={mcpu}"),
            "-filetype=obj",
            "-o",
        ])
        .arg(&obj)
        .arg(&src)
        .status()
        .expect("run llvm-mc");
    assert!(status.success(), "llvm-mc -filetype=obj failed for {mcpu}");
    Some(obj)
}

/// A small kernel per target: its MIMG instruction decodes differently on each
/// generation, so a wrong arch from e_flags shows as a text mismatch.
fn kernel_for(mcpu: &str) -> String {
    let gen = Arch::parse(mcpu).unwrap().gen;
    let dim = if gen >= gcnrun::Gen::Gfx10 {
        " dim:SQ_RSRC_IMG_2D"
    } else {
        ""
    };
    format!(
        "s_nop 0\nimage_sample v[1:4], v[1:2], s[4:11], s[12:15] dmask:0xf{dim}\n\
         s_waitcnt vmcnt(0)\nimage_load v[5:8], v[2:3], s[8:15] dmask:0xf{dim} unorm\ns_endpgm\n"
    )
}

#[test]
fn elf_code_object_decodes_with_its_arch() {
    let Some(mc) = LlvmMc::find("elf_code_object_decodes_with_its_arch") else {
        return;
    };
    let mut failures = Vec::new();
    for mcpu in ["tonga", "gfx810", "gfx900", "gfx1010", "gfx1030", "gfx1100"] {
        let Some(obj) = assemble_elf(mcpu, &kernel_for(mcpu), &format!("kernel_{mcpu}")) else {
            return;
        };
        // No --arch: the arch must come from e_flags.
        let out = gcn_run(&["--disasm", "--json", path_str(&obj)]);
        if out.status.code() != Some(0) {
            failures.push(format!("{mcpu}: exit {:?}: {}", out.status, stderr(&out)));
            continue;
        }
        let doc: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
        let insts = doc.as_array().expect("array");
        let groups: Vec<Vec<u8>> = insts
            .iter()
            .map(|i| common::llvm::unhex(i["hex"].as_str().unwrap()))
            .collect();
        let llvm = mc.disassemble(mcpu, &groups);
        for (inst, (dis, g)) in insts.iter().zip(llvm.iter().zip(&groups)) {
            let ours = collapse_ws(inst["text"].as_str().unwrap());
            match dis {
                Dis::Ok { text, len } if *text == ours && *len == g.len() => {}
                other => failures.push(format!("{mcpu}: ours `{ours}`, LLVM {other:?}")),
            }
        }
        if insts.len() != 5 {
            failures.push(format!("{mcpu}: {} instructions, not 5", insts.len()));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Every processor's `EF_AMDGPU_MACH` (as llvm-mc-19 writes it into e_flags) maps
/// back to a processor with the same generation and decoding features.
#[test]
fn elf_mach_table_matches_llvm() {
    if LlvmMc::find("elf_mach_table_matches_llvm").is_none() {
        return;
    }
    let mut failures = Vec::new();
    let procs: Vec<&str> = Arch::known_names()
        .into_iter()
        .filter(|n| Arch::parse(n).is_some_and(|a| a.mcpu == *n))
        .collect();
    assert!(procs.len() > 40, "processor table shrank: {procs:?}");
    for name in procs {
        let Some(obj) = assemble_elf(name, "s_endpgm\n", &format!("mach_{name}")) else {
            return;
        };
        let data = std::fs::read(&obj).unwrap();
        let flags = u32::from_le_bytes(data[0x30..0x34].try_into().unwrap());
        let want = Arch::parse(name).unwrap();
        match Arch::from_elf_mach(flags & 0xff) {
            Some(got)
                if got.gen == want.gen
                    && got.packed_d16 == want.packed_d16
                    && got.gfx10_3 == want.gfx10_3 => {}
            other => failures.push(format!(
                "{name}: e_flags {flags:#x} maps to {other:?}, want {want:?}"
            )),
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// The listing's `//` comment has llvm-objdump-19's form: offset and dwords.
#[test]
fn listing_comment_matches_llvm_objdump() {
    if LlvmMc::find("listing_comment_matches_llvm_objdump").is_none() {
        return;
    }
    let Some(objdump) = llvm19_tool("llvm-objdump") else {
        return;
    };
    let source = format!("{}.long 0xffffffff\ns_endpgm\n", kernel_for("gfx900"));
    let Some(obj) = assemble_elf("gfx900", &source, "objdump_gfx900") else {
        return;
    };
    let dump = Command::new(objdump).arg("-d").arg(&obj).output().unwrap();
    let dump = String::from_utf8_lossy(&dump.stdout);
    let theirs: Vec<String> = dump
        .lines()
        .filter_map(|l| l.split_once(" // ").map(|(_, c)| c.trim().to_string()))
        .collect();
    let out = gcn_run(&["--disasm", path_str(&obj)]);
    let ours: Vec<String> = stdout(&out)
        .lines()
        .filter_map(|l| l.split_once(" // ").map(|(_, c)| c.trim().to_string()))
        .collect();
    assert_eq!(ours, theirs);
    // The invalid word is listed as llvm-objdump lists it, and fails the run.
    assert!(stdout(&out).contains(".long 0xffffffff"));
    assert_bad(&out, &["objdump_gfx900.o", "offset 0x1c"]);
}

// ---------------------------------------------------------------- the bundled kernel

fn asset(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("assets")
        .join(name)
}

/// The instruction lines of an assembly file: comments and blank lines dropped.
fn asm_lines(source: &str) -> Vec<String> {
    source
        .lines()
        .map(|l| l.split("//").next().unwrap_or("").trim().to_string())
        .filter(|l| !l.is_empty())
        .collect()
}

#[test]
fn sample_quad_bin_is_llvm_assembly_of_its_source() {
    let Some(mc) = LlvmMc::find("sample_quad_bin_is_llvm_assembly_of_its_source") else {
        return;
    };
    let source = std::fs::read_to_string(asset("sample_quad.s")).unwrap();
    let bin = std::fs::read(asset("sample_quad.bin")).unwrap();
    // gfx7 is the kernel's target; gfx6 (the default arch of a raw .bin) must
    // encode it identically, so that `gcn-run --disasm sample_quad.bin` is right.
    for mcpu in ["bonaire", "tahiti"] {
        let bytes: Vec<u8> = mc
            .assemble(mcpu, &asm_lines(&source))
            .into_iter()
            .map(|r| r.unwrap_or_else(|e| panic!("{mcpu}: {e}")))
            .collect::<Vec<_>>()
            .concat();
        assert_eq!(
            hex(&bytes),
            hex(&bin),
            "{mcpu}: assets/sample_quad.bin is stale; run assets/regen.sh"
        );
    }
}

#[test]
fn sample_quad_listing_reassembles() {
    if LlvmMc::find("sample_quad_listing_reassembles").is_none() {
        return;
    }
    let bin = std::fs::read(asset("sample_quad.bin")).unwrap();
    let out = gcn_run(&["--disasm", "assets/sample_quad.bin"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let listing = stdout(&out);
    // No --arch and a raw file: the listing opens with a `;` comment saying
    // which arch was assumed (llvm-mc reads `;` as a comment), then one line
    // per instruction.
    assert_eq!(
        listing.lines().next(),
        Some("; arch not given: decoded as gfx6 (tahiti); pass --arch"),
        "{listing}"
    );
    let source = std::fs::read_to_string(asset("sample_quad.s")).unwrap();
    assert_eq!(
        listing.lines().filter(|l| !l.starts_with(';')).count(),
        asm_lines(&source).len(),
        "{listing}"
    );
    // Image and program-control instructions are decoded to real text, not words.
    for mnemonic in ["image_sample ", "image_store ", "s_waitcnt ", "s_endpgm"] {
        assert!(
            listing.lines().any(|l| l.starts_with(mnemonic)),
            "no `{mnemonic}` line in:\n{listing}"
        );
    }
    // The whole listing, `//` comments included, is valid assembly of the same bytes.
    let Some(obj) = assemble_elf("bonaire", &listing, "sample_quad_listing") else {
        return;
    };
    let again = gcnrun::input::load_file(&obj).expect("llvm-mc's object loads");
    if again.bytes == bin {
        return;
    }
    // Name the lines that do not reassemble to their own dwords (the comment
    // holds them), so the failure points at the decoder's text.
    let mut bad = Vec::new();
    for (i, line) in listing.lines().enumerate() {
        if line.starts_with(';') {
            continue;
        }
        let want: String = line
            .split_once(": ")
            .map(|(_, words)| words.split(" <").next().unwrap_or(words))
            .unwrap_or("")
            .split_whitespace()
            .map(|w| hex(&u32::from_str_radix(w, 16).unwrap().to_le_bytes()))
            .collect();
        let Some(obj) = assemble_elf("bonaire", &format!("{line}\n"), &format!("sq_line{i}"))
        else {
            return;
        };
        let got = gcnrun::input::load_file(&obj).map(|p| hex(&p.bytes));
        if got.as_deref() != Ok(want.as_str()) {
            bad.push(format!("`{line}` reassembles to {got:?}, not {want}"));
        }
    }
    panic!(
        "the listing does not reassemble to assets/sample_quad.bin \
         (note: `;` starts a comment in amdgcn assembly):\n{}",
        bad.join("\n")
    );
}

#[test]
fn too_many_waves_is_refused_before_allocation() {
    // 16384 waves is the most (their registers and LDS take 2 GiB); the bundled
    // kernel's default environment and a manifest both refuse one more.
    assert_bad(
        &gcn_run(&["assets/gradient_quad.bin", "--waves", "16385"]),
        &["--waves", "16385", "1..=16384"],
    );
    assert_bad(
        &gcn_run(&["assets/image_rw.toml", "--waves", "1048576"]),
        &["--waves", "1..=16384"],
    );
}

/// A CPU launch that runs longer than a second shows how far it has come on
/// stderr when stderr is a terminal (`script` gives the run one), and writes
/// nothing there when stderr is a pipe or with --json (issue 17, "Progress").
/// `GCNRUN_PROGRESS_AFTER_MS=0` shows it at once: the launch (16 filtered
/// samples per lane over 1024 waves) takes well under a second in a release
/// build.
#[test]
fn a_long_launch_shows_progress_on_a_terminal_only() {
    let args = ["assets/sample_filter.toml", "--waves", "1024"];
    let run = |terminal: bool, extra: &[&str]| {
        let mut c = if terminal {
            let line = format!("{BIN} {} {}", args.join(" "), extra.join(" "));
            let mut c = Command::new("script");
            c.args(["-qec", &line, "/dev/null"]);
            c
        } else {
            let mut c = Command::new(BIN);
            c.args(args).args(extra);
            c
        };
        let out = c
            .env("GCNRUN_PROGRESS_AFTER_MS", "0")
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .output()
            .expect("run gcn-run");
        assert!(out.status.success(), "{}", stderr(&out));
        // A terminal's output is stdout and stderr together.
        format!("{}{}", stdout(&out), stderr(&out))
    };
    let piped = run(false, &[]);
    assert!(
        !piped.contains("running on the CPU"),
        "{}",
        &piped[..piped.len().min(400)]
    );
    if Command::new("script").arg("--version").output().is_err() {
        assert!(
            !common::is_ci(),
            "`script` (util-linux) is missing under CI=true"
        );
        eprintln!("SKIPPED: `script` (util-linux) is missing");
        return;
    }
    let shown = run(true, &[]);
    let progress = shown.lines().find(|l| l.contains("running on the CPU"));
    assert!(
        progress.is_some_and(|l| l.contains("/1024 waves")),
        "no progress line in {}",
        &shown[..shown.len().min(400)]
    );
    let json = run(true, &["--json"]);
    assert!(
        !json.contains("running on the CPU"),
        "{}",
        &json[..json.len().min(400)]
    );
}
