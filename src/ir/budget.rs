//! The work budget of a launch (docs/semantics/core.md, "The work budget"): the
//! most steps a launch may take before it is stopped, so that no input can
//! keep the CPU interpreter or a GPU (lavapipe has no watchdog) busy for
//! minutes. One rule for both back ends, which count the same steps at the
//! same points, so that a launch stops on both or on neither.
//!
//! **What a step is.** A wave (an Intel thread is one wave) passes the IR
//! operations of its program in order; each one it passes is a step,
//! whether it executes it or skips it (EXEC = 0, a skipped `IfActive`
//! region). The count is therefore a property of the program's control
//! flow, never of lane data beyond the branch decisions:
//!
//! - the **straight pass**: every operation before the program's first
//!   `s_endpgm` ([`straight_steps`]), counted once when the wave starts;
//! - each **backward jump** the wave takes adds the operations it jumps back
//!   over, from its target to the jump itself ([`Steps::jump`]): for a vISA
//!   loop, its body, once per extra trip.
//!
//! Forward branches add nothing (the straight pass already counted what they
//! skip), so a straight-line program (every AMD program today) costs its
//! length, known before the launch: it is checked once, before anything runs
//! ([`check_launch`]), and counted nowhere else. A future AMD branch op that
//! jumps backward charges [`Steps::jump`] with its distance, as the vISA loop
//! end does.
//!
//! **The launch's share.** A launch of `W` waves under a budget of `N` steps
//! gives each wave `N / W` of them (rounded down, [`share`]). Each wave then
//! decides alone, in the same order of events on the CPU (waves in parallel)
//! and on the GPU (workgroups in any order): no wave's verdict depends on
//! another's timing, and the launch as a whole never passes more than `N`.

use super::{Op, Program};

/// The budget of a launch that sets none (`--max-steps`, a manifest's
/// `max_steps`): 2^22 steps. Every asset and test launch stays far below it
/// (the largest takes 16,390 steps in all), while a vISA launch of 4,096 threads
/// × 4,095 loop trips — minutes of work — stops after about 3 % of it, in
/// seconds on the CPU and on lavapipe (figures in docs/semantics/core.md, "Why 2^22").
pub const DEFAULT_MAX_STEPS: u64 = 1 << 22;

/// The steps each of `waves` waves may take under a launch budget of
/// `max_steps` (rounded down; at least one wave).
pub fn share(max_steps: u64, waves: usize) -> u64 {
    max_steps / (waves.max(1) as u64)
}

/// The straight pass of `prog`: its operations before the first `s_endpgm`
/// (`Op::End`), which every wave passes once.
pub fn straight_steps(prog: &Program) -> u64 {
    (straight_end(prog) - prog.entry.min(prog.ops.len())) as u64
}

/// The op index where the straight pass ends: the first `s_endpgm` from the
/// entry ([`Program::entry`]), or the end. A jump forward to an op past it
/// reaches ops the straight pass never counted.
pub fn straight_end(prog: &Program) -> usize {
    let entry = prog.entry.min(prog.ops.len());
    prog.ops[entry..]
        .iter()
        .position(|(_, op)| matches!(op, Op::End))
        .map_or(prog.ops.len(), |k| entry + k)
}

/// A launch that went past its work budget: one line naming the budget.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("the launch exceeded the work budget of {max_steps} steps (--max-steps): each of its {waves} wave(s) may take {share} (docs/semantics.md, \"The work budget\")", share = share(*max_steps, *waves))]
pub struct Exceeded {
    /// The launch's budget.
    pub max_steps: u64,
    /// Its waves (Intel threads).
    pub waves: usize,
}

/// Checks, before anything runs, that the straight pass of `prog` fits
/// each wave's share: past it, every wave would exceed the budget.
pub fn check_launch(prog: &Program, waves: usize, max_steps: u64) -> Result<(), Exceeded> {
    if straight_steps(prog) > share(max_steps, waves) {
        Err(Exceeded { max_steps, waves })
    } else {
        Ok(())
    }
}

/// One wave's count of steps against its share.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Steps {
    /// Steps taken so far (the straight pass included).
    pub taken: u64,
    /// The wave's share of the launch's budget.
    pub share: u64,
}

impl Steps {
    /// A wave of `prog` starting: its straight pass is counted at once.
    pub fn start(prog: &Program, share: u64) -> Steps {
        Steps {
            taken: straight_steps(prog),
            share,
        }
    }

    /// A backward jump over `distance` operations (target to jump,
    /// inclusive). `false`, with nothing counted, when it would take the
    /// wave past its share: the jump must not happen and the launch stops.
    pub fn jump(&mut self, distance: u64) -> bool {
        match self.taken.checked_add(distance) {
            Some(t) if t <= self.share => {
                self.taken = t;
                true
            }
            _ => false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::arch::Arch;

    fn prog(ops: Vec<Op>) -> Program {
        Program::new(
            Arch::parse("gfx9").unwrap(),
            ops.into_iter()
                .enumerate()
                .map(|(i, o)| (4 * i, o))
                .collect(),
        )
    }

    #[test]
    fn the_straight_pass_ends_at_the_first_endpgm() {
        assert_eq!(
            straight_steps(&prog(vec![Op::Nop, Op::Nop, Op::End, Op::Nop])),
            2
        );
        assert_eq!(straight_steps(&prog(vec![Op::Nop, Op::Wait])), 2);
        assert_eq!(straight_steps(&prog(vec![Op::End])), 0);
    }

    #[test]
    fn the_straight_pass_starts_at_the_entry() {
        // A callee's return (End stands in), then the kernel from op 2.
        let mut p = prog(vec![Op::Nop, Op::End, Op::Nop, Op::Nop, Op::End]);
        p.entry = 2;
        assert_eq!(straight_steps(&p), 2);
        assert_eq!(straight_end(&p), 4);
    }

    #[test]
    fn a_launch_gets_its_budget_in_equal_shares_rounded_down() {
        assert_eq!(share(10, 3), 3);
        assert_eq!(share(10, 0), 10);
        assert_eq!(share(2, 3), 0);
        let p = prog(vec![Op::Nop; 5]);
        // 5 steps per wave: 4 waves need 20.
        assert!(check_launch(&p, 4, 20).is_ok());
        let e = check_launch(&p, 4, 19).unwrap_err();
        assert_eq!(
            e.to_string(),
            "the launch exceeded the work budget of 19 steps (--max-steps): each of its 4 wave(s) may take 4 (docs/semantics.md, \"The work budget\")"
        );
    }

    #[test]
    fn a_jump_past_the_share_is_refused_and_counts_nothing() {
        let mut s = Steps {
            taken: 5,
            share: 12,
        };
        assert!(s.jump(4));
        assert_eq!(s.taken, 9);
        assert!(s.jump(3));
        assert!(!s.jump(1));
        assert_eq!(s.taken, 12);
        let mut s = Steps {
            taken: u64::MAX - 1,
            share: u64::MAX,
        };
        assert!(!s.jump(2), "no overflow");
    }
}
