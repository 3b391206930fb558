//! No input makes gcnrun panic, and decoding accounts for every byte.
//!
//! - `decode_stream` on arbitrary bytes, for every arch: never panics; on success
//!   the instructions' words concatenate back to the input, offsets are
//!   consecutive, and `text()`, `fields()`, `mnemonic()`, `hex()` never panic;
//!   on failure the error is the structural one the input deserves.
//! - A deterministic sweep gives every possible top byte of the first dword (so
//!   every encoding-class selector of every generation) followed by random
//!   dwords, whole and cut short, to every arch.
//! - The input loaders (`load_bytes` with ELF and raw data, `parse_hex`) and the
//!   report writers never panic either.
//!
//! Seeds are fixed (ChaCha8) so a failure reproduces; proptest prints its own
//! minimal failing case.

use gcnrun::gcn::{self, DecodeError, FieldValue, Inst};
use gcnrun::input;
use gcnrun::report;
use gcnrun::Arch;
use proptest::prelude::*;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// Every distinct arch `Arch::parse` knows (processors and aliases collapse to
/// their processor rows).
fn all_archs() -> Vec<Arch> {
    let mut archs: Vec<Arch> = Vec::new();
    for name in Arch::known_names() {
        let arch = Arch::parse(name).expect("known name parses");
        if !archs.contains(&arch) {
            archs.push(arch);
        }
    }
    archs
}

fn words_of(bytes: &[u8]) -> Vec<u32> {
    bytes
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect()
}

/// Touches every accessor of an instruction and checks what can be checked
/// without knowing the instruction.
fn exercise(inst: &Inst) -> Result<(), String> {
    if inst.words.is_empty() {
        return Err(format!(
            "offset {:#x}: instruction with no words",
            inst.offset
        ));
    }
    let text = inst.text();
    if text.trim().is_empty() {
        return Err(format!("offset {:#x}: empty text", inst.offset));
    }
    if inst.hex().len() != inst.words.len() * 8 {
        return Err(format!("offset {:#x}: hex length", inst.offset));
    }
    if inst.is_invalid() {
        if inst.words.len() != 1 || !text.starts_with(".long 0x") {
            return Err(format!(
                "offset {:#x}: invalid entry must be one `.long` dword, got {} words `{text}`",
                inst.offset,
                inst.words.len()
            ));
        }
        if inst.mnemonic().is_some() {
            return Err(format!(
                "offset {:#x}: invalid entry has a mnemonic",
                inst.offset
            ));
        }
    }
    for o in inst.operands() {
        if o.operand.count() == 0 || o.operand.count() > 16 {
            return Err(format!(
                "offset {:#x}: operand {:?} spans {} registers",
                inst.offset,
                o.operand,
                o.operand.count()
            ));
        }
    }
    for f in inst.fields() {
        if f.name.is_empty() || f.name.to_ascii_lowercase() != f.name {
            return Err(format!(
                "offset {:#x}: field name {:?}",
                inst.offset, f.name
            ));
        }
        if let FieldValue::List(l) = &f.value {
            if l.len() > 16 {
                return Err(format!(
                    "offset {:#x}: {} NSA entries",
                    inst.offset,
                    l.len()
                ));
            }
        }
    }
    Ok(())
}

/// The properties of one decode of `bytes` for `arch`.
fn check_stream(bytes: &[u8], arch: &Arch) -> Result<(), String> {
    let ctx = |m: String| format!("{} {}: {m}", arch.mcpu, hex(bytes));
    match gcn::decode_stream(bytes, arch) {
        Ok(insts) => {
            if bytes.is_empty() || !bytes.len().is_multiple_of(4) {
                return Err(ctx(
                    "decoded a stream that is empty or not whole dwords".into()
                ));
            }
            let mut offset = 0;
            let mut all = Vec::new();
            for inst in &insts {
                if inst.offset != offset {
                    return Err(ctx(format!(
                        "offset {:#x}, expected {offset:#x}",
                        inst.offset
                    )));
                }
                exercise(inst).map_err(ctx)?;
                offset += inst.len_bytes();
                all.extend_from_slice(&inst.words);
                // Decoding is context-free: a valid instruction decodes the same alone.
                if !inst.is_invalid() {
                    let alone: Vec<u8> = inst.words.iter().flat_map(|w| w.to_le_bytes()).collect();
                    match gcn::decode_stream(&alone, arch) {
                        Ok(v) if v.len() == 1 && v[0].kind == inst.kind => {}
                        other => {
                            return Err(ctx(format!(
                                "offset {:#x} decodes differently alone: {other:?}",
                                inst.offset
                            )))
                        }
                    }
                }
            }
            if all != words_of(bytes) {
                return Err(ctx(
                    "instruction words do not concatenate to the input".into()
                ));
            }
            // The report writers handle whatever was decoded.
            let _ = report::listing(&insts);
            let _ = report::json(&insts);
            Ok(())
        }
        Err(DecodeError::Empty) if bytes.is_empty() => Ok(()),
        Err(DecodeError::Unaligned { offset, len, .. })
            if len == bytes.len() && len % 4 != 0 && offset == len - len % 4 =>
        {
            Ok(())
        }
        Err(DecodeError::Truncated {
            offset,
            needed,
            available,
            ..
        }) if offset % 4 == 0
            && offset < bytes.len()
            && available == bytes.len() - offset
            && needed > available =>
        {
            Ok(())
        }
        Err(e) => Err(ctx(format!("unexpected error {e:?}"))),
    }
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// Every top byte of the first dword (every class selector of every generation),
/// with random remaining bits and random following dwords, whole and truncated.
#[test]
fn every_class_selector_on_every_arch() {
    let mut rng = ChaCha8Rng::seed_from_u64(0x6763_6e72_756e);
    let archs = all_archs();
    assert!(archs.len() > 40, "arch table: {}", archs.len());
    let mut failures = Vec::new();
    for arch in &archs {
        for top in 0u32..=255 {
            for _ in 0..3 {
                let first = (top << 24) | (rng.gen::<u32>() & 0x00ff_ffff);
                let mut words = vec![first];
                words.extend((0..5).map(|_| rng.gen::<u32>()));
                let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
                for cut in [bytes.len(), 4, 8, 12] {
                    if let Err(e) = check_stream(&bytes[..cut], arch) {
                        failures.push(e);
                    }
                }
            }
        }
    }
    failures.truncate(20);
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Every opcode row of every operand-decoded form and generation, its fields
/// and flag bits random (so most of them decode, and the operand, modifier and
/// printing paths run), with and without a literal, whole and cut short; then
/// lowered: every instruction lowers or is refused with a message, never a
/// panic. `GCNRUN_FUZZ_ROUNDS` raises the samples per form (default 200).
#[test]
fn every_form_row_with_random_fields() {
    use gcnrun::gcn::layout;
    use gcnrun::gcn::signature::{self, Form};
    let rounds: usize = std::env::var("GCNRUN_FUZZ_ROUNDS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(200);
    let mut rng = ChaCha8Rng::seed_from_u64(0x726f_7773);
    let mut failures = Vec::new();
    let mut decoded = 0usize;
    for mcpu in [
        "tahiti", "bonaire", "tonga", "gfx900", "gfx1010", "gfx1030", "gfx1100",
    ] {
        let arch = Arch::parse(mcpu).expect("arch");
        for form in Form::ALL {
            let (rows, _) = signature::rows(arch.gen, form);
            let Some(lay) = layout::layout(arch.gen, form) else {
                continue;
            };
            if rows.is_empty() {
                continue;
            }
            for _ in 0..rounds {
                let row = &rows[rng.gen_range(0..rows.len())];
                let mut bits = lay.with_op(lay.base, u32::from(row.op));
                // Random bits outside the selector and opcode.
                let free =
                    !lay.base_mask & !lay.with_op(0, u32::MAX) & ((1u128 << (32 * lay.words)) - 1);
                bits |= (u128::from(rng.gen::<u64>()) | u128::from(rng.gen::<u64>()) << 64) & free;
                let mut words: Vec<u32> =
                    (0..lay.words).map(|i| (bits >> (32 * i)) as u32).collect();
                words.extend((0..2).map(|_| rng.gen::<u32>()));
                let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
                for cut in [bytes.len(), 4 * lay.words, 4] {
                    if let Err(e) = check_stream(&bytes[..cut], &arch) {
                        failures.push(e);
                    }
                }
                if let Ok(insts) = gcn::decode_stream(&bytes, &arch) {
                    decoded += insts.iter().filter(|i| !i.is_invalid()).count();
                    for inst in insts {
                        let _ = gcn::lower::lower_inst(inst, &arch);
                    }
                }
                let _ = gcn::lower::lower_bytes(&bytes, &arch);
            }
        }
    }
    assert!(decoded > 1000, "only {decoded} valid instructions drawn");
    failures.truncate(20);
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// A minimal AMDGPU ELF64 code object: header, `.text`, `.shstrtab`, and three
/// section headers (null, .text, .shstrtab). Layout per the System V ABI.
fn tiny_elf(text: &[u8], mach: u32) -> Vec<u8> {
    let shstrtab = b"\0.text\0.shstrtab\0";
    let text_off = 64usize;
    let str_off = text_off + text.len();
    let sh_off = (str_off + shstrtab.len()).next_multiple_of(8);
    let mut f = vec![0u8; sh_off + 3 * 64];
    f[..4].copy_from_slice(b"\x7fELF");
    f[4] = 2; // ELFCLASS64
    f[5] = 1; // little-endian
    f[6] = 1; // EV_CURRENT
    f[0x10..0x12].copy_from_slice(&1u16.to_le_bytes()); // ET_REL
    f[0x12..0x14].copy_from_slice(&224u16.to_le_bytes()); // EM_AMDGPU
    f[0x14..0x18].copy_from_slice(&1u32.to_le_bytes());
    f[0x28..0x30].copy_from_slice(&(sh_off as u64).to_le_bytes());
    f[0x30..0x34].copy_from_slice(&mach.to_le_bytes());
    f[0x34..0x36].copy_from_slice(&64u16.to_le_bytes());
    f[0x3a..0x3c].copy_from_slice(&64u16.to_le_bytes());
    f[0x3c..0x3e].copy_from_slice(&3u16.to_le_bytes()); // e_shnum
    f[0x3e..0x40].copy_from_slice(&2u16.to_le_bytes()); // e_shstrndx
    f[text_off..str_off].copy_from_slice(text);
    f[str_off..str_off + shstrtab.len()].copy_from_slice(shstrtab);
    // (name offset in .shstrtab, sh_type, sh_offset, sh_size)
    let sections = [
        (1u32, 1u32, text_off, text.len()),
        (7, 3, str_off, shstrtab.len()),
    ];
    for (i, (name, ty, off, size)) in sections.into_iter().enumerate() {
        let h = sh_off + (i + 1) * 64;
        f[h..h + 4].copy_from_slice(&name.to_le_bytes());
        f[h + 4..h + 8].copy_from_slice(&ty.to_le_bytes());
        f[h + 0x18..h + 0x20].copy_from_slice(&(off as u64).to_le_bytes());
        f[h + 0x20..h + 0x28].copy_from_slice(&(size as u64).to_le_bytes());
    }
    f
}

#[test]
fn tiny_elf_loads() {
    // s_nop 0; s_endpgm — gfx900 is EF_AMDGPU_MACH 0x2c (verified with llvm-mc-19).
    let text = [0x00, 0x00, 0x80, 0xbf, 0x00, 0x00, 0x81, 0xbf];
    let p = input::load_bytes("t.o", tiny_elf(&text, 0x2c), true).expect("valid ELF");
    assert_eq!(p.bytes, text);
    assert_eq!(p.arch.map(|a| a.mcpu), Some("gfx900"));
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2000, ..ProptestConfig::default() })]

    #[test]
    fn arbitrary_bytes_never_panic(arch in 0usize..64, bytes in prop::collection::vec(any::<u8>(), 0..96)) {
        let archs = all_archs();
        let arch = &archs[arch % archs.len()];
        prop_assert_eq!(check_stream(&bytes, arch), Ok(()));
    }

    #[test]
    fn arbitrary_dwords_never_panic(arch in 0usize..64, words in prop::collection::vec(any::<u32>(), 1..24)) {
        let archs = all_archs();
        let arch = &archs[arch % archs.len()];
        let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
        prop_assert_eq!(check_stream(&bytes, arch), Ok(()));
    }

    /// Raw and ELF-looking input through the loader, then the decoder.
    #[test]
    fn loader_never_panics(elf_magic in any::<bool>(), named_elf in any::<bool>(),
                           tail in prop::collection::vec(any::<u8>(), 0..256)) {
        let mut bytes = if elf_magic { b"\x7fELF\x02\x01\x01".to_vec() } else { Vec::new() };
        bytes.extend_from_slice(&tail);
        if let Ok(p) = input::load_bytes("fuzz.o", bytes, named_elf) {
            let arch = input::resolve_arch(None, &p);
            if let Ok(arch) = arch {
                let d = report::disassemble(&p, &arch);
                let _ = report::listing(&d.insts);
            }
        }
    }

    /// A valid code object with a few bytes overwritten.
    #[test]
    fn mutated_elf_never_panics(text in prop::collection::vec(any::<u32>(), 0..8),
                                edits in prop::collection::vec((any::<usize>(), any::<u8>()), 1..8)) {
        let text: Vec<u8> = text.iter().flat_map(|w| w.to_le_bytes()).collect();
        let mut elf = tiny_elf(&text, 0x36);
        let len = elf.len();
        for (at, byte) in edits {
            elf[at % len] = byte;
        }
        if let Ok(p) = input::load_bytes("m.o", elf, true) {
            if let Ok(arch) = input::resolve_arch(None, &p) {
                let _ = report::json(&report::disassemble(&p, &arch).insts);
            }
        }
    }

    #[test]
    fn hex_parser_never_panics(s in "\\PC{0,40}") {
        let _ = input::parse_hex(&s);
    }

    #[test]
    fn hex_parser_on_hexish_text(s in "[0-9a-fA-FxX ,\\[\\]]{0,40}") {
        if let Ok(bytes) = input::parse_hex(&s) {
            prop_assert!(!bytes.is_empty());
        }
    }
}
