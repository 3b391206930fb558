//! The WGSL ↔ Rust twin table stays true (docs/gpu.md, "Twins").
//!
//! The CPU executes and the GPU emits the same rules, so the functions of
//! `shaders/*.wgsl` come in pairs with Rust functions in `src/` (or, for the
//! BCn decoders, in the `bcdec_rs` crate the CPU decodes with). docs/gpu.md
//! lists every pair in tables of five columns:
//!
//! ```text
//! | WGSL file | WGSL function | Rust file | Rust function | note |
//! ```
//!
//! where the Rust file is a path (`src/texture/convert.rs`), a crate
//! (`` `bcdec_rs` (crate) ``) or `—` for a WGSL-only helper (then the note says
//! why it has no twin), and the Rust function is `name` or `Type::name`. Rows
//! under the heading "Same name, not twins" list functions that share a name
//! across a mirrored pair of files but implement different rules.
//!
//! This test reads those tables and fails when a listed function does not
//! exist, when a `fn` of a `shaders/*.wgsl` file is not listed, and when a
//! WGSL and a Rust function of the same name in a mirrored pair of files (a
//! WGSL file and a Rust file that share a row) are not listed as twins.
//! It also fails when the doc comment of a Rust twin of this crate does not
//! name its WGSL twin (`` `wgsl_fn` ``).

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

const DOC: &str = "docs/gpu.md";
const SECTION: &str = "## Twins";
const HOMONYMS: &str = "Same name, not twins";
const DEPENDENCIES: &str = "[dependencies]";

/// The Rust side of a row.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Rust {
    /// `—`: a WGSL-only helper.
    None,
    /// A file of this crate, relative to the repository root.
    File(String),
    /// A crate the CPU calls.
    Crate(String),
}

#[derive(Clone, Debug)]
struct Row {
    /// Line in docs/gpu.md (1-based), for the messages.
    line: usize,
    wgsl_file: String,
    wgsl_fn: String,
    rust: Rust,
    /// `name` or `Type::name`; empty for `Rust::None`.
    rust_fn: String,
    note: String,
    /// Listed under "Same name, not twins".
    homonym: bool,
}

impl Row {
    /// The row as it is written in docs/gpu.md, for messages.
    fn text(&self) -> String {
        let rust = match &self.rust {
            Rust::None => "—".to_string(),
            Rust::File(f) => format!("`{f}`"),
            Rust::Crate(c) => format!("`{c}` (crate)"),
        };
        let rust_fn = if self.rust == Rust::None {
            "—".to_string()
        } else {
            format!("`{}`", self.rust_fn)
        };
        format!(
            "| `{}` | `{}` | {rust} | {rust_fn} | {} |",
            self.wgsl_file, self.wgsl_fn, self.note
        )
    }

    /// The bare name of the Rust function (`Type::name` → `name`).
    fn rust_name(&self) -> &str {
        self.rust_fn.rsplit("::").next().unwrap_or("")
    }
}

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()))
}

/// A table cell without its backticks and surrounding space.
fn cell(s: &str) -> String {
    s.trim().trim_matches('`').trim().to_string()
}

/// The twin rows of docs/gpu.md's "Twins" section, or the reasons it cannot
/// be read.
fn rows() -> Vec<Row> {
    let text = read(&root().join(DOC));
    let lines: Vec<&str> = text.lines().collect();
    let start = lines
        .iter()
        .position(|l| l.trim_end() == SECTION)
        .unwrap_or_else(|| {
            panic!(
                "{DOC} has no section `{SECTION}`: the twin table lives there (see tests/twins.rs)"
            )
        });
    let mut out = Vec::new();
    let mut bad = Vec::new();
    let mut homonym = false;
    for (i, line) in lines.iter().enumerate().skip(start + 1) {
        if line.starts_with("## ") {
            break;
        }
        if let Some(h) = line.strip_prefix("### ") {
            homonym = h.contains(HOMONYMS);
            continue;
        }
        if !line.starts_with('|') {
            continue;
        }
        // `\|` is a pipe inside a cell.
        let unescaped = line.replace("\\|", "\u{1}");
        let cells: Vec<String> = unescaped
            .trim()
            .trim_matches('|')
            .split('|')
            .map(|c| c.replace('\u{1}', "|"))
            .collect();
        let first = cell(&cells[0]);
        if first == "WGSL file" || first.starts_with("---") {
            continue;
        }
        let n = i + 1;
        if cells.len() != 5 {
            bad.push(format!(
                "{DOC} line {n}: a twin row has five cells (WGSL file | WGSL function | Rust file | Rust function | note), this one has {}",
                cells.len()
            ));
            continue;
        }
        let wgsl_file = cell(&cells[0]);
        let wgsl_fn = cell(&cells[1]);
        let rust_cell = cells[2].trim();
        let rust_fn = cell(&cells[3]);
        let note = cells[4].trim().to_string();
        if !(wgsl_file.starts_with("shaders/") && wgsl_file.ends_with(".wgsl")) {
            bad.push(format!(
                "{DOC} line {n}: the first cell must be a WGSL file as `shaders/NAME.wgsl`, not `{wgsl_file}`"
            ));
            continue;
        }
        let rust = if rust_cell == "—" {
            Rust::None
        } else if let Some(c) = rust_cell.strip_suffix("(crate)") {
            Rust::Crate(cell(c))
        } else {
            let f = cell(rust_cell);
            if !(f.starts_with("src/") && f.ends_with(".rs")) {
                bad.push(format!(
                    "{DOC} line {n}: the third cell must be a Rust file as `src/…/NAME.rs`, a crate as `` `NAME` (crate) ``, or — for a WGSL-only helper; not `{rust_cell}`"
                ));
                continue;
            }
            Rust::File(f)
        };
        if rust == Rust::None && rust_fn != "—" {
            bad.push(format!(
                "{DOC} line {n}: a row without a Rust file has — as its Rust function too, not `{rust_fn}`"
            ));
            continue;
        }
        out.push(Row {
            line: n,
            wgsl_file,
            wgsl_fn,
            rust_fn: if rust == Rust::None {
                String::new()
            } else {
                rust_fn
            },
            rust,
            note,
            homonym,
        });
    }
    assert!(bad.is_empty(), "{}", bad.join("\n"));
    assert!(
        !out.is_empty(),
        "{DOC}, section `{SECTION}`: no twin rows found"
    );
    out
}

/// The names of the `fn`s a WGSL source defines, in order.
fn wgsl_fns(src: &str) -> Vec<String> {
    src.lines()
        .filter_map(|l| {
            let rest = l.trim_start().strip_prefix("fn ")?;
            let name: String = rest
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                .collect();
            (!name.is_empty()).then_some(name)
        })
        .collect()
}

/// Rust source without its unit tests (`#[cfg(test)] mod …`, which stands at
/// the end of a file in this crate).
fn without_tests(src: &str) -> &str {
    let mut offset = 0;
    let mut lines = src.lines().peekable();
    while let Some(l) = lines.next() {
        if l.trim() == "#[cfg(test)]" {
            if let Some(next) = lines.peek() {
                if next.trim_start().starts_with("mod ") {
                    return &src[..offset];
                }
            }
        }
        offset += l.len() + 1;
    }
    src
}

/// The names of the functions (free functions and methods) a Rust source
/// defines outside its tests.
fn rust_fns(src: &str) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    for l in without_tests(src).lines() {
        let mut t = l.trim_start();
        if t.starts_with("//") {
            continue;
        }
        if let Some(r) = t.strip_prefix("pub") {
            t = r.trim_start();
            if t.starts_with('(') {
                t = t.split_once(')').map_or("", |(_, r)| r).trim_start();
            }
        }
        for q in ["const ", "unsafe ", "async "] {
            if let Some(r) = t.strip_prefix(q) {
                t = r.trim_start();
            }
        }
        if let Some(rest) = t.strip_prefix("fn ") {
            let name: String = rest
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                .collect();
            if !name.is_empty() {
                out.insert(name);
            }
        }
    }
    out
}

/// True when `src` has an `impl` block for `ty` (`impl View<'_> {`,
/// `impl Trait for ty {`).
fn has_impl(src: &str, ty: &str) -> bool {
    without_tests(src).lines().any(|l| {
        let t = l.trim_start();
        t.starts_with("impl")
            && t.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                .any(|w| w == ty)
    })
}

/// Checks that `rust_fn` (`name` or `Type::name`) is defined in `src`.
fn defines(src: &str, rust_fn: &str) -> Result<(), String> {
    let (ty, name) = match rust_fn.rsplit_once("::") {
        Some((t, n)) => (Some(t), n),
        None => (None, rust_fn),
    };
    if !rust_fns(src).contains(name) {
        return Err(format!("no `fn {name}` (outside its tests)"));
    }
    if let Some(ty) = ty {
        if !has_impl(src, ty) {
            return Err(format!("no `impl {ty}` (for `{rust_fn}`)"));
        }
    }
    Ok(())
}

/// The crates of Cargo.toml's `[dependencies]`.
fn dependencies() -> BTreeSet<String> {
    let toml = read(&root().join("Cargo.toml"));
    let mut out = BTreeSet::new();
    let mut inside = false;
    for l in toml.lines() {
        let t = l.trim();
        if t.starts_with('[') {
            inside = t == DEPENDENCIES;
            continue;
        }
        if inside {
            if let Some((name, _)) = t.split_once('=') {
                if !name.trim().starts_with('#') {
                    out.insert(name.trim().to_string());
                }
            }
        }
    }
    out
}

/// The `src/lib.rs` of crate `name` in cargo's registry, at the version
/// Cargo.lock pins, if it is on this machine.
fn crate_source(name: &str) -> Option<String> {
    let lock = read(&root().join("Cargo.lock"));
    let pat = format!("name = \"{name}\"");
    let mut lines = lock.lines().skip_while(|l| l.trim() != pat);
    lines.next()?;
    let version = lines
        .next()?
        .trim()
        .strip_prefix("version = \"")?
        .trim_end_matches('"')
        .to_string();
    let home = std::env::var_os("CARGO_HOME")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".cargo")))?;
    for index in std::fs::read_dir(home.join("registry").join("src")).ok()? {
        let lib = index
            .ok()?
            .path()
            .join(format!("{name}-{version}"))
            .join("src")
            .join("lib.rs");
        if let Ok(src) = std::fs::read_to_string(&lib) {
            return Some(src);
        }
    }
    None
}

/// Every `shaders/*.wgsl` file (relative path) and its functions.
fn wgsl_files() -> BTreeMap<String, Vec<String>> {
    let mut out = BTreeMap::new();
    for e in std::fs::read_dir(root().join("shaders")).expect("shaders/ is readable") {
        let p = e.expect("directory entry").path();
        if p.extension().is_some_and(|x| x == "wgsl") {
            let name = p.file_name().unwrap().to_str().unwrap();
            out.insert(format!("shaders/{name}"), wgsl_fns(&read(&p)));
        }
    }
    out
}

#[test]
fn every_wgsl_function_is_in_the_twin_table() {
    let rows = rows();
    let listed: BTreeSet<(String, String)> = rows
        .iter()
        .filter(|r| !r.homonym)
        .map(|r| (r.wgsl_file.clone(), r.wgsl_fn.clone()))
        .collect();
    let mut missing = Vec::new();
    for (file, fns) in wgsl_files() {
        for f in fns {
            if !listed.contains(&(file.clone(), f.clone())) {
                missing.push(format!(
                    "{file}: `fn {f}` is not in the twin table ({DOC}, \"Twins\", the table of `{}`): add\n    | `{file}` | `{f}` | `src/…/FILE.rs` | `RUST_FUNCTION` | |\n  naming the Rust function it mirrors, or\n    | `{file}` | `{f}` | — | — | why it has no Rust twin |",
                    file.trim_start_matches("shaders/")
                ));
            }
        }
    }
    assert!(
        missing.is_empty(),
        "{} WGSL function(s) missing from the twin table:\n{}",
        missing.len(),
        missing.join("\n")
    );
}

#[test]
fn twin_rows_name_functions_that_exist() {
    let rows = rows();
    let wgsl = wgsl_files();
    let deps = dependencies();
    let mut crates: BTreeMap<String, Option<String>> = BTreeMap::new();
    let mut bad = Vec::new();
    for r in &rows {
        match wgsl.get(&r.wgsl_file) {
            None => bad.push(format!(
                "{DOC} line {}: {} does not exist: fix the WGSL file of the row, or delete it\n    {}",
                r.line,
                r.wgsl_file,
                r.text()
            )),
            Some(fns) if !fns.contains(&r.wgsl_fn) => bad.push(format!(
                "{DOC} line {}: {} has no `fn {}` (renamed or removed?): write the function's new name into the row, or delete the row\n    {}",
                r.line,
                r.wgsl_file,
                r.wgsl_fn,
                r.text()
            )),
            Some(_) => {}
        }
        match &r.rust {
            Rust::None => {
                if r.note.is_empty() {
                    bad.push(format!(
                        "{DOC} line {}: `{}` is listed without a Rust twin: say in the note why it has none\n    {}",
                        r.line,
                        r.wgsl_fn,
                        r.text()
                    ));
                }
            }
            Rust::File(f) => {
                let path = root().join(f);
                match std::fs::read_to_string(&path) {
                    Err(_) => bad.push(format!(
                        "{DOC} line {}: {f} does not exist (moved?): write the file that now holds `{}` into the row\n    {}",
                        r.line,
                        r.rust_fn,
                        r.text()
                    )),
                    Ok(src) => {
                        if let Err(e) = defines(&src, &r.rust_fn) {
                            bad.push(format!(
                                "{DOC} line {}: {f} has {e} (renamed or moved?): write the Rust function's current file and name into the row\n    {}",
                                r.line,
                                r.text()
                            ));
                        }
                    }
                }
            }
            Rust::Crate(c) => {
                if !deps.contains(c) {
                    bad.push(format!(
                        "{DOC} line {}: `{c}` is not in Cargo.toml's [dependencies]: name the crate the CPU calls, or the file of the Rust twin\n    {}",
                        r.line,
                        r.text()
                    ));
                    continue;
                }
                let src = crates.entry(c.clone()).or_insert_with(|| crate_source(c));
                // Without the crate's source on this machine only the
                // dependency is checked.
                if let Some(src) = src {
                    if let Err(e) = defines(src, &r.rust_fn) {
                        bad.push(format!(
                            "{DOC} line {}: crate `{c}` (the version Cargo.lock pins) has {e}: write the crate function's current name into the row\n    {}",
                            r.line,
                            r.text()
                        ));
                    }
                }
            }
        }
        if r.homonym {
            let same = r.wgsl_fn == r.rust_name();
            if !same || !matches!(r.rust, Rust::File(_)) || r.note.is_empty() {
                bad.push(format!(
                    "{DOC} line {}: a row of \"{HOMONYMS}\" names a WGSL and a Rust function of one name in two files of this crate, and says why they are not twins\n    {}",
                    r.line,
                    r.text()
                ));
            }
        }
    }
    assert!(
        bad.is_empty(),
        "{} row(s) of the twin table name what does not exist:\n{}",
        bad.len(),
        bad.join("\n")
    );
}

#[test]
fn same_names_in_mirrored_files_are_twins() {
    let rows = rows();
    let wgsl = wgsl_files();
    // The mirrored pairs: a WGSL file and a Rust file of this crate that share
    // a twin row.
    let pairs: BTreeSet<(String, String)> = rows
        .iter()
        .filter(|r| !r.homonym)
        .filter_map(|r| match &r.rust {
            Rust::File(f) => Some((r.wgsl_file.clone(), f.clone())),
            _ => None,
        })
        .collect();
    let paired = |w: &str, f: &str, name: &str| {
        rows.iter().any(|r| {
            r.wgsl_file == w
                && r.wgsl_fn == name
                && r.rust == Rust::File(f.to_string())
                && r.rust_name() == name
        })
    };
    let mut bad = Vec::new();
    for (w, f) in &pairs {
        let (Some(wfns), Ok(src)) = (wgsl.get(w), std::fs::read_to_string(root().join(f))) else {
            // twin_rows_name_functions_that_exist reports these.
            continue;
        };
        let rfns = rust_fns(&src);
        for name in wfns.iter().filter(|n| rfns.contains(*n)) {
            if !paired(w, f, name) {
                bad.push(format!(
                    "{w} and {f} are a mirrored pair ({DOC}, \"Twins\", lists twins of both) and both define `fn {name}`, but not as twins of each other: if one mirrors the other, list them as twins\n    | `{w}` | `{name}` | `{f}` | `{name}` | |\n  (or `Type::{name}` for a method); if they implement different rules, rename the WGSL one after its real twin, or list the pair under \"### {HOMONYMS}\" with the reason\n    | `{w}` | `{name}` | `{f}` | `{name}` | why they differ |"
                ));
            }
        }
    }
    assert!(
        bad.is_empty(),
        "{} function name(s) shared across a mirrored pair without being twins:\n{}",
        bad.len(),
        bad.join("\n")
    );
}

/// The doc comment (`///` lines, attributes between them and the `fn` skipped)
/// of each definition of `fn name` in `src` outside its tests.
fn doc_comments(src: &str, name: &str) -> Vec<String> {
    let lines: Vec<&str> = without_tests(src).lines().collect();
    let mut out = Vec::new();
    for (i, l) in lines.iter().enumerate() {
        let defines_it = rust_fns(l).contains(name);
        if !defines_it {
            continue;
        }
        let mut doc = Vec::new();
        for prev in lines[..i].iter().rev() {
            let t = prev.trim_start();
            if let Some(d) = t.strip_prefix("///") {
                doc.push(d.trim());
            } else if !t.starts_with("#[") {
                break;
            }
        }
        doc.reverse();
        out.push(doc.join(" "));
    }
    out
}

#[test]
fn rust_twins_name_their_wgsl_twin() {
    let rows = rows();
    let mut bad = Vec::new();
    for r in rows.iter().filter(|r| !r.homonym) {
        let Rust::File(f) = &r.rust else { continue };
        let Ok(src) = std::fs::read_to_string(root().join(f)) else {
            // twin_rows_name_functions_that_exist reports it.
            continue;
        };
        let named = format!("`{}`", r.wgsl_fn);
        if !doc_comments(&src, r.rust_name())
            .iter()
            .any(|d| d.contains(&named))
        {
            bad.push(format!(
                "{DOC} line {}: the doc comment of `{}` in {f} does not name its WGSL twin {named}: add\n    /// WGSL twin: {named} in `{}` (docs/gpu.md, \"Twins\").\n    {}",
                r.line,
                r.rust_fn,
                r.wgsl_file,
                r.text()
            ));
        }
    }
    assert!(
        bad.is_empty(),
        "{} Rust twin(s) whose doc comment does not name the WGSL twin:\n{}",
        bad.len(),
        bad.join("\n")
    );
}

#[test]
fn the_parsers_see_what_the_table_needs() {
    // Functions in a test module do not count; methods and `pub(crate) const
    // fn` do.
    let src = "pub(crate) const fn a() {}\nimpl View<'_> {\n    pub fn b(&self) {}\n}\n// fn c() {}\n#[cfg(test)]\nmod tests {\n    fn d() {}\n}\n";
    let fns = rust_fns(src);
    assert_eq!(
        fns.into_iter().collect::<Vec<_>>(),
        ["a".to_string(), "b".to_string()]
    );
    assert!(defines(src, "View::b").is_ok());
    assert!(defines(src, "Other::b").is_err());
    assert!(defines(src, "d").is_err());
    let documented = "/// One.\n///\n/// WGSL twin: `b`.\n#[inline]\nfn a() {}\nfn b() {}\n";
    assert_eq!(doc_comments(documented, "a"), ["One.  WGSL twin: `b`."]);
    assert_eq!(doc_comments(documented, "b"), [""]);
    let wgsl =
        "// fn not_this() {}\nfn one(a: u32) -> u32 {\n    return a;\n}\n  fn VIEW_two() {}\n";
    assert_eq!(wgsl_fns(wgsl), ["one", "VIEW_two"]);
}
