//! The SIMD control flow of a vISA program, checked before lowering: which
//! labels are branch targets (each gets a wait-mask SGPR), and the branches
//! gcnrun refuses rather than guess (docs/semantics.md, "SIMD control flow").
//!
//! Only **forward** branches are modelled (IGC `instructions/GOTO.md`: a
//! forward `goto` parks its channels until execution reaches the label). A
//! backward one is a loop, whose semantics (GOTO.md: "execution jumps to the
//! label if any active channel is predicated") needs a real branch in the IR;
//! it is refused by line, as are branches into another function.

use super::super::inst::{BranchKind, Inst};
use super::super::{Item, Program, VisaError};
use crate::ir::grf::MAX_PRED_AND_WAIT_SGPRS;
use std::collections::BTreeMap;

/// The branch targets of a program.
#[derive(Clone, Debug, Default)]
pub struct Flow {
    /// Target label → the SGPR of its wait mask.
    pub waits: BTreeMap<String, u32>,
}

fn at(line: usize, message: String) -> VisaError {
    VisaError { line, message }
}

/// Checks `prog`'s branches and gives each target label a wait-mask SGPR,
/// from `first_sgpr` (after the predicates; `preds` of them are declared).
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
    let mut flow = Flow::default();
    // Target label → the line of each branch to it, in program order.
    let mut sources: BTreeMap<&str, Vec<usize>> = BTreeMap::new();
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
        if target < k {
            return Err(at(
                s.line,
                format!("backward `{name}` to `{label}` (a loop) is not supported: only forward branches are modelled (docs/visa.md)"),
            ));
        }
        if kind == BranchKind::Goto && exec.no_mask && exec.size > 1 {
            return Err(at(
                s.line,
                "`goto` with `_NM` is not modelled: a goto moves active channels".into(),
            ));
        }
        if kind == BranchKind::Jmp {
            // A jmp moves the whole thread past the labels before its target;
            // channels parked at one of them by an earlier branch would never
            // be woken (GOTO.md leaves convergence to the program).
            for (l, &(pos, _)) in &labels {
                if pos > k && pos < target {
                    if let Some(first) = sources.get(l).and_then(|v| v.first()) {
                        return Err(at(
                            s.line,
                            format!("`jmp` to `{label}` passes label `{l}`, where channels of the branch at line {first} may wait: not modelled"),
                        ));
                    }
                }
            }
        }
        sources.entry(label).or_default().push(s.line);
        if !flow.waits.contains_key(label) {
            let n = flow.waits.len() as u32;
            if preds + n >= MAX_PRED_AND_WAIT_SGPRS {
                return Err(at(
                    s.line,
                    format!("more than {MAX_PRED_AND_WAIT_SGPRS} predicates and branch targets together are not modelled"),
                ));
            }
            flow.waits.insert(label.to_string(), first_sgpr + n);
        }
    }
    Ok(flow)
}
