//! The documentation stays walkable and true to the tree:
//!
//! - every relative link in README.md and docs/ names a file that exists and,
//!   with `#anchor`, a heading of that file (GitHub's anchor rules);
//! - docs/README.md, the index, links every document of docs/ and every `##`
//!   section of each, so that a newcomer reaches any section in one step;
//! - docs/errata.md's index table lists every entry, in the order of the
//!   entries, which are numbered in order within each series (E1, E2, …);
//! - every test, unit test and file the errata index names as "pinned by"
//!   exists.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()))
}

/// README.md and every Markdown file under docs/, relative to the root.
fn documents() -> Vec<PathBuf> {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
            .unwrap_or_else(|e| panic!("cannot list {}: {e}", dir.display()))
            .map(|e| e.expect("directory entry").path())
            .collect();
        entries.sort();
        for p in entries {
            if p.is_dir() {
                walk(&p, out);
            } else if p.extension().is_some_and(|x| x == "md") {
                out.push(p);
            }
        }
    }
    let mut out = vec![root().join("README.md")];
    walk(&root().join("docs"), &mut out);
    out.into_iter()
        .map(|p| p.strip_prefix(root()).unwrap().to_path_buf())
        .collect()
}

/// The lines of a Markdown text outside fenced code blocks, with their
/// 1-based numbers.
fn prose(text: &str) -> Vec<(usize, &str)> {
    let mut fenced = false;
    let mut out = Vec::new();
    for (i, l) in text.lines().enumerate() {
        if l.trim_start().starts_with("```") {
            fenced = !fenced;
            continue;
        }
        if !fenced {
            out.push((i + 1, l));
        }
    }
    out
}

/// GitHub's anchor for a heading: lower case, punctuation dropped (letters,
/// digits, `-` and `_` stay), spaces become `-`.
fn slug(heading: &str) -> String {
    heading
        .trim()
        .to_lowercase()
        .chars()
        .filter(|c| c.is_alphanumeric() || *c == '-' || *c == '_' || *c == ' ')
        .map(|c| if c == ' ' { '-' } else { c })
        .collect()
}

/// The headings of a Markdown text: (level, text, anchor), anchors made
/// unique as GitHub does (`-1`, `-2`, … for repeats).
fn headings(text: &str) -> Vec<(usize, String, String)> {
    let mut seen: BTreeMap<String, usize> = BTreeMap::new();
    let mut out = Vec::new();
    for (_, l) in prose(text) {
        let level = l.chars().take_while(|&c| c == '#').count();
        if level == 0 || level > 6 || !l[level..].starts_with(' ') {
            continue;
        }
        let text = l[level..].trim().to_string();
        let base = slug(&text);
        let n = seen.entry(base.clone()).or_insert(0);
        let anchor = if *n == 0 { base } else { format!("{base}-{n}") };
        *n += 1;
        out.push((level, text, anchor));
    }
    out
}

/// The targets of the inline links `[text](target)` of a line.
fn link_targets(line: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = line;
    while let Some(i) = rest.find("](") {
        let after = &rest[i + 2..];
        let Some(end) = after.find(')') else { break };
        out.push(after[..end].to_string());
        rest = &after[end..];
    }
    out
}

/// `a/./b/../c` → `a/c`, without touching the file system.
fn normalise(p: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for c in p.components() {
        match c {
            std::path::Component::CurDir => {}
            std::path::Component::ParentDir => {
                out.pop();
            }
            other => out.push(other),
        }
    }
    out
}

/// Every relative link of `doc` (relative to the root) as (line, file the
/// link names relative to the root, anchor).
fn links(doc: &Path) -> Vec<(usize, PathBuf, Option<String>)> {
    let text = read(&root().join(doc));
    let dir = doc.parent().unwrap_or(Path::new(""));
    let mut out = Vec::new();
    for (n, l) in prose(&text) {
        for t in link_targets(l) {
            if t.contains("://") || t.starts_with("mailto:") {
                continue;
            }
            let (path, anchor) = match t.split_once('#') {
                Some((p, a)) => (p, Some(a.to_string())),
                None => (t.as_str(), None),
            };
            let file = if path.is_empty() {
                doc.to_path_buf()
            } else {
                normalise(&dir.join(path))
            };
            out.push((n, file, anchor));
        }
    }
    out
}

#[test]
fn every_relative_link_resolves() {
    let mut bad = Vec::new();
    for doc in documents() {
        for (n, file, anchor) in links(&doc) {
            let target = root().join(&file);
            if !target.exists() {
                bad.push(format!(
                    "{}:{n}: links {}, which does not exist",
                    doc.display(),
                    file.display()
                ));
                continue;
            }
            if let Some(a) = anchor {
                if target.extension().is_some_and(|x| x == "md")
                    && !headings(&read(&target)).iter().any(|(_, _, h)| *h == a)
                {
                    bad.push(format!(
                        "{}:{n}: links {}#{a}, but {} has no heading with that anchor",
                        doc.display(),
                        file.display(),
                        file.display()
                    ));
                }
            }
        }
    }
    assert!(
        bad.is_empty(),
        "{} broken link(s):\n{}",
        bad.len(),
        bad.join("\n")
    );
}

#[test]
fn the_index_links_every_document_and_section() {
    let index = Path::new("docs/README.md");
    let linked: BTreeSet<(PathBuf, Option<String>)> =
        links(index).into_iter().map(|(_, f, a)| (f, a)).collect();
    let mut missing = Vec::new();
    for doc in documents() {
        if doc == index || doc == Path::new("README.md") {
            continue;
        }
        if !linked.iter().any(|(f, _)| *f == doc) {
            missing.push(format!("{} (the document)", doc.display()));
        }
        for (level, text, anchor) in headings(&read(&root().join(&doc))) {
            if level == 2 && !linked.contains(&(doc.clone(), Some(anchor.clone()))) {
                missing.push(format!(
                    "{}, \"{text}\": add [{text}]({}#{anchor})",
                    doc.display(),
                    doc.strip_prefix("docs").unwrap().display()
                ));
            }
        }
    }
    assert!(
        missing.is_empty(),
        "docs/README.md does not link {} document(s) or section(s):\n{}",
        missing.len(),
        missing.join("\n")
    );
}

/// An erratum id as (series, number): `VC2` → ("VC", 2).
fn erratum_id(s: &str) -> Option<(String, u32)> {
    let series: String = s.chars().take_while(|c| c.is_ascii_uppercase()).collect();
    let number: String = s[series.len()..]
        .chars()
        .take_while(|c| c.is_ascii_digit())
        .collect();
    if series.is_empty() || number.is_empty() {
        return None;
    }
    Some((series, number.parse().ok()?))
}

/// The errata entries (`### E1. …`) in document order.
fn errata_entries(text: &str) -> Vec<(String, u32)> {
    headings(text)
        .into_iter()
        .filter(|(level, _, _)| *level == 3)
        .filter_map(|(_, t, _)| erratum_id(t.split('.').next()?))
        .collect()
}

/// The rows of the errata index: (id, anchor, pinned-by cell).
fn errata_index(text: &str) -> Vec<((String, u32), String, String)> {
    let lines = prose(text);
    let start = lines
        .iter()
        .position(|(_, l)| l.trim() == "## Index")
        .expect("docs/errata.md has a section `## Index`");
    let mut out = Vec::new();
    for (n, l) in &lines[start + 1..] {
        if l.starts_with("## ") {
            break;
        }
        if !l.starts_with("| [") {
            continue;
        }
        let cells: Vec<&str> = l
            .trim()
            .trim_matches('|')
            .split(" | ")
            .map(str::trim)
            .collect();
        assert_eq!(
            cells.len(),
            4,
            "docs/errata.md:{n}: an index row has four cells (id | area | rule | pinned by)"
        );
        let id_cell = cells[0];
        let (label, anchor) = id_cell
            .trim_start_matches('[')
            .split_once("](#")
            .unwrap_or_else(|| panic!("docs/errata.md:{n}: the id cell is [ID](#anchor)"));
        let id = erratum_id(label)
            .unwrap_or_else(|| panic!("docs/errata.md:{n}: `{label}` is not an erratum id"));
        out.push((
            id,
            anchor.trim_end_matches(')').to_string(),
            cells[3].to_string(),
        ));
    }
    out
}

#[test]
fn the_errata_index_lists_every_entry_in_order() {
    let text = read(&root().join("docs/errata.md"));
    let entries = errata_entries(&text);
    assert!(entries.len() > 40, "docs/errata.md: too few entries found");
    // Numbered in order within each series, each series in one run.
    let mut last: BTreeMap<&str, u32> = BTreeMap::new();
    let mut bad = Vec::new();
    for (s, n) in &entries {
        let prev = last.insert(s, *n).unwrap_or(0);
        if *n != prev + 1 {
            bad.push(format!(
                "{s}{n} follows {s}{prev}: entries go in numeric order within their series"
            ));
        }
    }
    let index = errata_index(&text);
    let ids: Vec<(String, u32)> = index.iter().map(|(id, _, _)| id.clone()).collect();
    if ids != entries {
        bad.push(format!(
            "the index lists {:?}\nbut the entries are {:?}",
            ids.iter()
                .map(|(s, n)| format!("{s}{n}"))
                .collect::<Vec<_>>(),
            entries
                .iter()
                .map(|(s, n)| format!("{s}{n}"))
                .collect::<Vec<_>>()
        ));
    }
    let anchors: BTreeMap<(String, u32), String> = headings(&text)
        .into_iter()
        .filter(|(l, _, _)| *l == 3)
        .filter_map(|(_, t, a)| Some((erratum_id(t.split('.').next()?)?, a)))
        .collect();
    for (id, anchor, _) in &index {
        if anchors.get(id) != Some(anchor) {
            bad.push(format!(
                "the index row of {}{} links #{anchor}, not the entry's heading",
                id.0, id.1
            ));
        }
    }
    assert!(bad.is_empty(), "docs/errata.md:\n{}", bad.join("\n"));
}

/// True when `src` defines `fn name`.
fn defines_fn(src: &str, name: &str) -> bool {
    src.lines().any(|l| {
        l.trim_start()
            .strip_prefix("fn ")
            .or_else(|| l.trim_start().strip_prefix("pub fn "))
            .is_some_and(|r| {
                r.starts_with(name)
                    && !r[name.len()..].starts_with(|c: char| c.is_alphanumeric() || c == '_')
            })
    })
}

/// The source file of module path `a::b` under src/ (`src/a/b.rs` or
/// `src/a/b/mod.rs`).
fn module_file(path: &[&str]) -> Option<PathBuf> {
    let base = root().join("src").join(path.join("/"));
    [base.with_extension("rs"), base.join("mod.rs")]
        .into_iter()
        .find(|p| p.exists())
}

/// Checks one backticked name of a "pinned by" cell.
fn check_pin(name: &str) -> Result<(), String> {
    if let Some((file, test)) = name.split_once(".rs::") {
        let path = root().join(format!("{file}.rs"));
        let src =
            std::fs::read_to_string(&path).map_err(|_| format!("{file}.rs does not exist"))?;
        return if defines_fn(&src, test) {
            Ok(())
        } else {
            Err(format!("{file}.rs has no `fn {test}`"))
        };
    }
    if name.contains('/') {
        return if root().join(name).exists() {
            Ok(())
        } else {
            Err(format!("{name} does not exist"))
        };
    }
    let parts: Vec<&str> = name.split("::").collect();
    let Some(t) = parts.iter().position(|p| *p == "tests") else {
        return Err(format!(
            "`{name}` is neither a file, `tests/FILE.rs::TEST` nor `module::tests::TEST`"
        ));
    };
    let file = module_file(&parts[..t])
        .ok_or_else(|| format!("no source file for module `{}`", parts[..t].join("::")))?;
    let src = read(&file);
    let file = file.strip_prefix(root()).unwrap_or(&file).to_path_buf();
    if !src.contains("mod tests") {
        return Err(format!("{} has no `mod tests`", file.display()));
    }
    match parts.get(t + 1) {
        Some(test) if !defines_fn(&src, test) => {
            Err(format!("{} has no `fn {test}`", file.display()))
        }
        _ => Ok(()),
    }
}

#[test]
fn what_the_errata_index_names_as_pinning_exists() {
    let text = read(&root().join("docs/errata.md"));
    let mut bad = Vec::new();
    for ((s, n), _, pinned) in errata_index(&text) {
        let names: Vec<&str> = pinned.split('`').skip(1).step_by(2).collect();
        if names.is_empty() && !pinned.contains("no test") && !pinned.contains("](") {
            bad.push(format!(
                "{s}{n}: the pinned-by cell names nothing: `{pinned}`"
            ));
        }
        for name in names {
            if let Err(e) = check_pin(name) {
                bad.push(format!("{s}{n}: {e}"));
            }
        }
    }
    assert!(
        bad.is_empty(),
        "docs/errata.md, index: {} pin(s) that do not exist:\n{}",
        bad.len(),
        bad.join("\n")
    );
}

#[test]
fn the_helpers_read_markdown_as_github_does() {
    assert_eq!(slug("T# fields per generation"), "t-fields-per-generation");
    assert_eq!(
        slug("Interpolation (gfx6–gfx10)"),
        "interpolation-gfx6gfx10"
    );
    assert_eq!(slug("`_PCK` forms"), "_pck-forms");
    assert_eq!(slug("Why 2^22"), "why-222");
    let h = headings("# A\n```\n# not a heading\n```\n## B\n## B\n");
    let anchors: Vec<&str> = h.iter().map(|(_, _, a)| a.as_str()).collect();
    assert_eq!(anchors, ["a", "b", "b-1"]);
    assert_eq!(
        link_targets("see [x](a.md#b) and [y](../c.md)"),
        ["a.md#b", "../c.md"]
    );
    assert_eq!(erratum_id("VC2"), Some(("VC".to_string(), 2)));
    assert!(check_pin("tests/docs.rs::the_helpers_read_markdown_as_github_does").is_ok());
    assert!(check_pin("tests/docs.rs::no_such_test").is_err());
    assert!(check_pin("texture::atomic::tests::errata_rules").is_ok());
    assert!(check_pin("texture::atomic::tests::no_such_test").is_err());
}
