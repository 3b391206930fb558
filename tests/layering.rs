//! The fork stands: front ends → `ir` → back ends → `diff`, with `texture`,
//! `machine` and `check` below the back ends (docs/architecture.md).
//!
//! Reads every `crate::…` path in `src/` (comments and string literals removed)
//! and fails when a top-level module names one it may not, when a `super::`
//! chain climbs out of its top-level module, when a top-level module is missing
//! from the matrix, or when the imports between top-level modules form a cycle.
//! The matrix below is the one docs/architecture.md prints; change both together,
//! and only by moving code down, never by widening a row.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// Each top-level module and the top-level modules it may import.
const ALLOWED: &[(&str, &[&str])] = &[
    ("arch", &[]),
    ("input", &["arch"]),
    ("ir", &["arch"]),
    ("machine", &["arch", "ir"]),
    ("texture", &["arch", "ir", "machine"]),
    ("check", &["arch", "ir", "machine", "texture"]),
    // Front ends.
    ("gcn", &["arch", "input", "ir", "texture"]),
    ("visa", &["arch", "input", "ir", "texture"]),
    // Back ends.
    ("cpu", &["arch", "check", "ir", "machine", "texture"]),
    ("gpu", &["arch", "check", "ir", "machine", "texture"]),
    // What reads the back ends' outputs.
    ("diff", &["arch", "gpu", "ir", "machine", "texture"]),
    ("oracle", &["arch", "gpu", "ir", "machine", "texture"]),
    // The listing of decoded code (`--disasm`).
    ("report", &["arch", "gcn", "input", "visa"]),
    // The pipeline that wires front end → back end → diff, and what runs it.
    (
        "launch",
        &[
            "arch", "check", "cpu", "diff", "gcn", "gpu", "input", "ir", "machine", "oracle",
            "texture", "visa",
        ],
    ),
    (
        "bench",
        &[
            "arch", "check", "cpu", "diff", "gcn", "gpu", "input", "ir", "launch", "machine",
            "oracle", "texture", "visa",
        ],
    ),
];

/// Rust source with comments, string and character literals blanked out, so
/// that a path named in a doc comment or a message is not an import.
fn code_only(src: &str) -> String {
    let b = src.as_bytes();
    let mut out = String::with_capacity(src.len());
    let mut i = 0;
    while i < b.len() {
        let rest = &src[i..];
        if rest.starts_with("//") {
            let end = rest.find('\n').map_or(b.len(), |n| i + n);
            i = end;
        } else if rest.starts_with("/*") {
            let mut depth = 0;
            while i < b.len() {
                if src[i..].starts_with("/*") {
                    depth += 1;
                    i += 2;
                } else if src[i..].starts_with("*/") {
                    depth -= 1;
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    i += 1;
                }
            }
        } else if let Some(hashes) = raw_string_start(rest) {
            let close = format!("\"{}", "#".repeat(hashes));
            let body = i + 2 + hashes;
            i = src[body..]
                .find(&close)
                .map_or(b.len(), |n| body + n + close.len());
            out.push_str("\"\"");
        } else if b[i] == b'"' {
            i += 1;
            while i < b.len() && b[i] != b'"' {
                i += if b[i] == b'\\' { 2 } else { 1 };
            }
            i += 1;
            out.push_str("\"\"");
        } else if b[i] == b'\'' && is_char_literal(rest) {
            i += rest[1..].find('\'').map_or(1, |n| n + 2);
            out.push_str("' '");
        } else {
            let c = rest.chars().next().expect("not at the end");
            out.push(c);
            i += c.len_utf8();
        }
    }
    out
}

/// `r"…"`, `r#"…"#`: the number of `#`.
fn raw_string_start(s: &str) -> Option<usize> {
    let t = s.strip_prefix('r')?;
    let hashes = t.bytes().take_while(|&c| c == b'#').count();
    t[hashes..].starts_with('"').then_some(hashes)
}

/// `'x'`, `'\n'`, `'\u{…}'` — not a lifetime (`'a`).
fn is_char_literal(s: &str) -> bool {
    let t = &s[1..];
    if let Some(esc) = t.strip_prefix('\\') {
        return esc.find('\'').is_some_and(|n| n <= 10);
    }
    let mut chars = t.chars();
    chars.next().is_some() && chars.next() == Some('\'')
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for e in std::fs::read_dir(dir).expect("src/ is readable") {
        let p = e.expect("directory entry").path();
        if p.is_dir() {
            rust_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

/// The top-level module a file belongs to and its depth below `src/`
/// (`cpu/image.rs` → ("cpu", 1); `cpu/mod.rs` → ("cpu", 0)); `None` for the
/// crate root and the binaries.
fn owner(rel: &Path) -> Option<(String, usize)> {
    let parts: Vec<&str> = rel
        .iter()
        .map(|p| p.to_str().expect("UTF-8 path"))
        .collect();
    let first = parts[0].trim_end_matches(".rs");
    if first == "lib" || first == "bin" {
        return None;
    }
    let last = *parts.last().expect("a file");
    let depth = parts.len() - 1 - usize::from(last == "mod.rs");
    Some((first.to_string(), depth))
}

/// Every (importer, imported, file) edge between top-level modules, and the
/// `super::` chains that climb past their top-level module.
fn edges(src: &Path) -> (Vec<(String, String, String)>, Vec<String>) {
    let mut files = Vec::new();
    rust_files(src, &mut files);
    files.sort();
    let mut edges = Vec::new();
    let mut escapes = Vec::new();
    for f in files {
        let rel = f.strip_prefix(src).expect("under src/");
        let Some((top, depth)) = owner(rel) else {
            continue;
        };
        let text = code_only(&std::fs::read_to_string(&f).expect("readable source"));
        let name = rel.display().to_string();
        let mut rest = text.as_str();
        while let Some(at) = rest.find("crate::") {
            let before = rest[..at].chars().last();
            rest = &rest[at + "crate::".len()..];
            if before.is_some_and(|c| c.is_alphanumeric() || c == '_') {
                continue; // `gcnrun_crate::`, not ours
            }
            let module: String = rest
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_')
                .collect();
            if module.is_empty() {
                // `crate::{a, b}`: each name in the group.
                if let Some(group) = rest.strip_prefix('{') {
                    let end = group.find('}').unwrap_or(group.len());
                    for m in group[..end].split(',') {
                        let m = m.trim().split("::").next().unwrap_or("").to_string();
                        if !m.is_empty() && m != top {
                            edges.push((top.clone(), m, name.clone()));
                        }
                    }
                }
                continue;
            }
            if module != top {
                edges.push((top.clone(), module, name.clone()));
            }
        }
        // `super::` chains longer than the module depth (the file's, plus
        // the inline `mod … {` blocks around the chain) leave the module.
        for (run, inline) in super_chains(&text) {
            if run > depth + inline {
                escapes.push(format!(
                    "{name}: `{}` climbs out of `{top}`",
                    "super::".repeat(run)
                ));
            }
        }
    }
    (edges, escapes)
}

/// Each `super::` chain's length and the inline modules open around it.
fn super_chains(code: &str) -> Vec<(usize, usize)> {
    let b = code.as_bytes();
    // One entry per open brace: true when it opened an inline module.
    let mut braces: Vec<bool> = Vec::new();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        if b[i..].starts_with(b"super::") && (i == 0 || !is_ident(b[i - 1])) {
            let run = b[i..].chunks(7).take_while(|c| *c == b"super::").count();
            out.push((run, braces.iter().filter(|m| **m).count()));
            i += 7 * run;
            continue;
        }
        match b[i] {
            b'{' => {
                // `mod name {`: the last two words before the brace.
                let head = String::from_utf8_lossy(&b[i.saturating_sub(80)..i]);
                let before: Vec<&str> = head.split_whitespace().rev().take(2).collect();
                braces.push(before.len() == 2 && before[1] == "mod");
            }
            b'}' => {
                braces.pop();
            }
            _ => {}
        }
        i += 1;
    }
    out
}

fn is_ident(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_'
}

/// Strongly connected components with more than one module (Tarjan's algorithm
/// is overkill for a dozen modules: a pair is in a cycle when each reaches the
/// other).
fn cycles(graph: &BTreeMap<String, BTreeSet<String>>) -> Vec<Vec<String>> {
    let reach = |from: &String| {
        let mut seen = BTreeSet::new();
        let mut todo = vec![from.clone()];
        while let Some(m) = todo.pop() {
            for n in graph.get(&m).into_iter().flatten() {
                if seen.insert(n.clone()) {
                    todo.push(n.clone());
                }
            }
        }
        seen
    };
    let reaches: BTreeMap<&String, BTreeSet<String>> =
        graph.keys().map(|m| (m, reach(m))).collect();
    let mut done = BTreeSet::new();
    let mut out = Vec::new();
    for m in graph.keys() {
        if done.contains(m) || !reaches[m].contains(m) {
            continue;
        }
        let comp: Vec<String> = graph
            .keys()
            .filter(|n| reaches[m].contains(*n) && reaches[*n].contains(m))
            .cloned()
            .collect();
        done.extend(comp.iter().cloned());
        out.push(comp);
    }
    out
}

#[test]
fn imports_go_downward_only() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let allowed: BTreeMap<&str, &[&str]> = ALLOWED.iter().copied().collect();
    let (edges, escapes) = edges(&src);
    assert!(
        edges.len() > 50,
        "found only {} imports in src/",
        edges.len()
    );
    let mut problems = escapes;
    let mut graph: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    let mut seen = BTreeSet::new();
    for (from, to, file) in &edges {
        graph.entry(from.clone()).or_default().insert(to.clone());
        graph.entry(to.clone()).or_default();
        let Some(ok) = allowed.get(from.as_str()) else {
            if seen.insert(from.clone()) {
                problems.push(format!(
                    "`{from}` is not in the matrix (tests/layering.rs, docs/architecture.md)"
                ));
            }
            continue;
        };
        if !ok.contains(&to.as_str()) && seen.insert(format!("{file} {to}")) {
            problems.push(format!("{file}: `{from}` may not import `{to}`"));
        }
    }
    for c in cycles(&graph) {
        problems.push(format!("import cycle between {}", c.join(", ")));
    }
    assert!(
        problems.is_empty(),
        "{} layering problem(s):\n{}",
        problems.len(),
        problems.join("\n")
    );
}

#[test]
fn the_matrix_itself_has_no_cycle() {
    let graph: BTreeMap<String, BTreeSet<String>> = ALLOWED
        .iter()
        .map(|(m, deps)| (m.to_string(), deps.iter().map(|d| d.to_string()).collect()))
        .collect();
    assert_eq!(cycles(&graph), Vec::<Vec<String>>::new());
    for (m, deps) in ALLOWED {
        for d in *deps {
            assert!(
                ALLOWED.iter().any(|(n, _)| n == d),
                "`{m}` may import `{d}`, which is not in the matrix"
            );
        }
    }
}

#[test]
fn the_scanner_sees_through_comments_and_strings() {
    let text = code_only(
        "use crate::ir; // crate::gpu\n/* crate::cpu */ let s = \"crate::diff\"; let r = r#\"crate::visa\"#; let c = '\"'; fn f<'a>() { crate::texture::x }",
    );
    assert!(text.contains("crate::ir"));
    assert!(text.contains("crate::texture"));
    for gone in ["gpu", "cpu", "diff", "visa"] {
        assert!(!text.contains(&format!("crate::{gone}")), "{text}");
    }
    // A test module's `super::*` stays inside its file's module; two levels
    // out of a top-level file do not.
    assert_eq!(
        super_chains("mod tests { use super::*; } fn f() { super::super::x() }"),
        [(1, 1), (2, 0)]
    );
}
