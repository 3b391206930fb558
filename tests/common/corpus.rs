//! Reading `../shared/corpus/llvm_mimg_vintrp.tsv`: third-party (LLVM) encodings.

use std::path::PathBuf;

/// One corpus row.
#[derive(Debug, Clone)]
pub struct Row {
    /// 1-based line number in the file.
    pub line: usize,
    /// `gfx6` … `gfx11`.
    pub target: String,
    /// LLVM's text, whitespace collapsed.
    pub asm: String,
    /// Bytes in memory order, as hex.
    pub hex: String,
    /// An LLVM test path, or `llvm-mc-19:-mcpu=X` for generated rows.
    pub source: String,
}

impl Row {
    /// The `-mcpu` of a generated row.
    pub fn generated_mcpu(&self) -> Option<&str> {
        self.source.strip_prefix("llvm-mc-19:-mcpu=")
    }
    /// True for rows printed by LLVM's disassembler (gfx8+ generated rows).
    pub fn is_disassembler_text(&self) -> bool {
        self.generated_mcpu().is_some() && !matches!(self.target.as_str(), "gfx6" | "gfx7")
    }
}

/// Where the shared corpus lives (beside the checkout), overridable by `GCNRUN_CORPUS`.
pub fn path() -> PathBuf {
    if let Ok(p) = std::env::var("GCNRUN_CORPUS") {
        return p.into();
    }
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus/llvm_mimg_vintrp.tsv")
}

/// Reads every row. Panics (failing the test) when the corpus is missing: it is part
/// of the project's shared inputs and CI runs beside it.
pub fn rows() -> Vec<Row> {
    let p = path();
    let text = std::fs::read_to_string(&p)
        .unwrap_or_else(|e| panic!("cannot read corpus {}: {e}", p.display()));
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        if line.starts_with('#') || line.starts_with("target\t") || line.trim().is_empty() {
            continue;
        }
        let cols: Vec<&str> = line.split('\t').collect();
        assert_eq!(cols.len(), 4, "corpus line {}: {line}", i + 1);
        out.push(Row {
            line: i + 1,
            target: cols[0].into(),
            asm: cols[1].split_whitespace().collect::<Vec<_>>().join(" "),
            hex: cols[2].into(),
            source: cols[3].into(),
        });
    }
    out
}
