//! The SIMD control flow of a vISA program, checked before lowering: which
//! labels are branch targets (each gets a wait-mask SGPR), which backward
//! branches close loops (each gets two SGPRs), and the shapes gcnrun refuses
//! rather than guess (docs/semantics/intel.md, "SIMD control flow").
//!
//! A **forward** branch parks its channels until execution reaches the label
//! (IGC `instructions/GOTO.md`). A **backward** one closes a loop whose
//! header is its label (GOTO.md: "execution jumps to the label if any active
//! channel is predicated"; the others wait at the next instruction). Loops
//! must be structured as IGC emits them: one backward branch per header,
//! loops nested or disjoint (never overlapping), and no forward branch from
//! outside a loop to a label inside it other than its header (that would be
//! irreducible). Branches into another function are refused too.

use super::super::inst::{BranchKind, Inst};
use super::super::{Item, Program, VisaError};
use crate::ir::visa::MAX_PRED_AND_WAIT_SGPRS;
use std::collections::BTreeMap;

/// A loop: the statements from its header label to its backward branch.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Loop {
    /// Statement index of the header label.
    pub header: usize,
    /// Statement index of the backward branch.
    pub branch: usize,
    /// Source line of the backward branch.
    pub line: usize,
    /// The SGPR of the wait mask of the instruction after the branch.
    pub wait: u32,
    /// The SGPR saying the branch was taken.
    pub again: u32,
}

/// The branch targets and loops of a program.
#[derive(Clone, Debug, Default)]
pub struct Flow {
    /// Forward-branch target label → the SGPR of its wait mask.
    pub waits: BTreeMap<String, u32>,
    /// Loop header label → its loop.
    pub loops: BTreeMap<String, Loop>,
}

impl Flow {
    /// The loop closed by the backward branch at statement `k`, if any.
    pub fn closed_at(&self, k: usize) -> Option<&Loop> {
        self.loops.values().find(|l| l.branch == k)
    }
}

fn at(line: usize, message: String) -> VisaError {
    VisaError::new(line, crate::visa::VisaErrorKind::Lower(message))
}

/// One branch: statement index, line, kind, target label and the label's
/// statement index.
struct Branch<'a> {
    k: usize,
    line: usize,
    kind: BranchKind,
    label: &'a str,
    target: usize,
}

/// Checks `prog`'s branches and gives each forward target label a wait-mask
/// SGPR and each loop two, from `first_sgpr` (after the predicates; `preds`
/// of them are declared).
pub fn analyse(prog: &Program, first_sgpr: u32, preds: u32) -> Result<Flow, VisaError> {
    // Each label's statement index and function (the `.function` markers
    // before it).
    let mut labels = BTreeMap::new();
    let mut function = 0usize;
    for (k, s) in prog.body.iter().enumerate() {
        match &s.item {
            Item::Function(_) => function += 1,
            Item::Label(l) => {
                labels.insert(l.as_str(), (k, function));
            }
            Item::Inst(_) => {}
        }
    }
    let mut branches = Vec::new();
    function = 0;
    for (k, s) in prog.body.iter().enumerate() {
        let (kind, exec, label) = match &s.item {
            Item::Function(_) => {
                function += 1;
                continue;
            }
            Item::Inst(Inst::Branch {
                kind, exec, label, ..
            }) => (*kind, *exec, label.as_str()),
            _ => continue,
        };
        let name = kind.name();
        let Some(&(target, f)) = labels.get(label) else {
            return Err(at(
                s.line,
                format!("`{name}` to `{label}`, which is not a label"),
            ));
        };
        if f != function {
            return Err(at(
                s.line,
                format!("`{name}` to `{label}` in another function: a branch stays inside its function (GOTO.md)"),
            ));
        }
        if kind == BranchKind::Goto && exec.no_mask && exec.size > 1 {
            return Err(at(
                s.line,
                "`goto` with `_NM` is not modelled: a goto moves active channels".into(),
            ));
        }
        branches.push(Branch {
            k,
            line: s.line,
            kind,
            label,
            target,
        });
    }
    let found = find_loops(&branches)?;
    let loops: Vec<&Loop> = found.iter().map(|(_, l)| l).collect();
    let inside = |k: usize, l: &Loop| l.header < k && k <= l.branch;
    let mut flow = Flow::default();
    // Target label → the statement index of each forward branch to it.
    let mut sources: BTreeMap<&str, Vec<(usize, usize)>> = BTreeMap::new();
    for b in branches.iter().filter(|b| b.target > b.k) {
        sources.entry(b.label).or_default().push((b.k, b.line));
    }
    for b in branches.iter().filter(|b| b.target > b.k) {
        let name = b.kind.name();
        // Entering a loop anywhere but at its header makes the flow
        // irreducible: a loop has one entry.
        if let Some(l) = loops
            .iter()
            .find(|l| inside(b.target, l) && !inside(b.k, l))
        {
            return Err(at(
                b.line,
                format!("`{name}` to `{}` enters the loop closed at line {} from outside its header: irreducible control flow is not modelled", b.label, l.line),
            ));
        }
        if b.kind == BranchKind::Jmp {
            // A jmp moves the whole thread past the labels before its target;
            // channels parked at one of them would never be woken (GOTO.md
            // leaves convergence to the program): by a branch before it, or
            // by one after it in a loop that the label leaves, on an earlier
            // trip.
            for (l, &(pos, _)) in &labels {
                if pos <= b.k || pos >= b.target {
                    continue;
                }
                let parks = sources.get(l).into_iter().flatten().find(|&&(s, _)| {
                    s < b.k
                        || loops
                            .iter()
                            .any(|lp| inside(s, lp) && inside(b.k, lp) && !inside(pos, lp))
                });
                if let Some(&(_, first)) = parks {
                    return Err(at(
                        b.line,
                        format!("`jmp` to `{}` passes label `{l}`, where channels of the branch at line {first} may wait: not modelled", b.label),
                    ));
                }
            }
        }
        if !flow.waits.contains_key(b.label) {
            let n = flow.waits.len() as u32;
            check_room(preds + n, b.line)?;
            flow.waits.insert(b.label.to_string(), first_sgpr + n);
        }
    }
    let mut next = first_sgpr + flow.waits.len() as u32;
    for (label, mut l) in found {
        check_room(next + 1 - first_sgpr + preds, l.line)?;
        (l.wait, l.again) = (next, next + 1);
        next += 2;
        flow.loops.insert(label, l);
    }
    Ok(flow)
}

fn check_room(used: u32, line: usize) -> Result<(), VisaError> {
    if used >= MAX_PRED_AND_WAIT_SGPRS {
        return Err(at(
            line,
            format!("more than {MAX_PRED_AND_WAIT_SGPRS} predicates, branch targets and loops (two each) together are not modelled"),
        ));
    }
    Ok(())
}

/// The loops of the backward branches with their header labels (SGPRs not
/// yet given), refusing a second backward branch to one header and
/// overlapping loops.
fn find_loops(branches: &[Branch]) -> Result<Vec<(String, Loop)>, VisaError> {
    let mut loops: Vec<(String, Loop)> = Vec::new();
    for b in branches.iter().filter(|b| b.target < b.k) {
        let name = b.kind.name();
        if let Some((_, l)) = loops.iter().find(|(_, l)| l.header == b.target) {
            return Err(at(
                b.line,
                format!("a second backward branch to `{}` (the first is at line {}): only one per loop is modelled", b.label, l.line),
            ));
        }
        // Loops found so far close earlier: one that starts after this
        // header and closes inside this loop is nested; one that starts
        // before it and closes inside it overlaps.
        if let Some((_, l)) = loops
            .iter()
            .find(|(_, l)| l.header < b.target && l.branch > b.target)
        {
            return Err(at(
                b.line,
                format!("backward `{name}` to `{}`: its loop overlaps the loop closed at line {} (only nested or separate loops are modelled)", b.label, l.line),
            ));
        }
        loops.push((
            b.label.to_string(),
            Loop {
                header: b.target,
                branch: b.k,
                line: b.line,
                wait: 0,
                again: 0,
            },
        ));
    }
    Ok(loops)
}
