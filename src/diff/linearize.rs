//! Contended atomics: is what the GPU returned consistent with some serial
//! order? (docs/gpu.md, "Contended atomics".)
//!
//! The CPU reference executes atomics lane by lane and wave by wave; a GPU
//! executes the lanes that hit one texel in an order of its own, so GLC return
//! values (and, for order-dependent operations such as SWAP, the final texel)
//! legitimately differ from the CPU's. For every texel that more than one lane
//! touched, the GPU's trace (each lane's operands and the value it got back) is
//! replayed from the texel's initial value: each step picks a not yet replayed
//! execution whose returned value equals the current texel value and applies
//! the CPU's arithmetic (`cpu::atomic::apply32/apply64`). The order must respect
//! the program: within a wave an instruction's executions all come after the
//! previous atomic instruction's (the translator puts a barrier between them),
//! and with serialised waves, wave by wave. If every execution can be placed
//! and the end value is the GPU's final texel, the run is consistent, and the
//! diff does not compare those return registers and texel bytes with the CPU's.

use crate::gpu::runtime::AtomicEvent;
use crate::gpu::translate::TracedAtomic;
use crate::machine::{Memory, WaveState};
use crate::texture::atomic::{apply32, apply64};
use std::collections::{BTreeMap, HashMap, HashSet};

/// Most replay steps (including backtracking) tried for one texel.
const STEP_LIMIT: usize = 1_000_000;

/// What the diff may leave out, and what could not be explained.
#[derive(Clone, Debug, Default)]
pub struct Relaxation {
    /// `(wave, vgpr, lane)` holding a contended atomic's return value.
    pub registers: HashSet<(u32, u32, u32)>,
    /// Byte addresses of contended texels whose final value the replay
    /// reproduced.
    pub bytes: HashSet<u64>,
    /// Texels whose trace fits no serial order, one line each.
    pub failures: Vec<String>,
    /// Contended texels checked.
    pub texels: usize,
}

/// Checks every contended texel of a traced run.
pub fn check(
    events: &[AtomicEvent],
    atomics: &[TracedAtomic],
    serial_waves: bool,
    initial: &Memory,
    final_mem: &Memory,
    gpu_waves: &[WaveState],
) -> Relaxation {
    let mut r = Relaxation::default();
    let mut by_addr: BTreeMap<u64, Vec<&AtomicEvent>> = BTreeMap::new();
    for e in events {
        by_addr.entry(e.address).or_default().push(e);
    }
    for (addr, group) in by_addr {
        let lanes: HashSet<(usize, u32)> = group.iter().map(|e| (e.wave, e.lane)).collect();
        if lanes.len() < 2 {
            continue;
        }
        let Some(meta): Option<Vec<&TracedAtomic>> =
            group.iter().map(|e| atomics.get(e.ordinal)).collect()
        else {
            continue;
        };
        let wide = meta[0].wide;
        if meta.iter().any(|m| m.wide != wide) {
            // Mixed 32- and 64-bit atomics on one texel: compared exactly.
            continue;
        }
        r.texels += 1;
        let n = if wide { 8 } else { 4 };
        let read = |m: &Memory| {
            m.read(addr, n)
                .map(|b| b.iter().rev().fold(0u64, |acc, &x| acc << 8 | u64::from(x)))
        };
        let (Some(start), Some(end)) = (read(initial), read(final_mem)) else {
            continue;
        };
        // The launch's value, or (after a store) whichever value the first
        // execution saw: every distinct returned value is a candidate start.
        let mut starts = vec![start];
        if meta.iter().any(|m| m.after_store) {
            let mut olds: Vec<u64> = group.iter().map(|e| e.old).collect();
            olds.sort_unstable();
            olds.dedup();
            starts.extend(olds.into_iter().filter(|&v| v != start));
        }
        let mut result = None;
        for s in starts {
            result = replay(&group, &meta, wide, serial_waves, s);
            if result == Some(end) {
                break;
            }
        }
        match result {
            Some(v) if v == end => {
                for k in 0..n {
                    r.bytes.insert(addr + u64::from(k));
                }
                for (e, m) in group.iter().zip(&meta) {
                    let Some(v) = m.returns_to else { continue };
                    let w = e.wave as u32;
                    let holds = |reg: u32, want: u32| {
                        gpu_waves
                            .get(e.wave)
                            .is_some_and(|s| s.vgpr(reg, e.lane) == want)
                    };
                    // Only registers that still hold the returned value.
                    if holds(v, e.old as u32) {
                        r.registers.insert((w, v, e.lane));
                    }
                    if wide && holds(v + 1, (e.old >> 32) as u32) {
                        r.registers.insert((w, v + 1, e.lane));
                    }
                }
            }
            Some(v) => r.failures.push(format!(
                "texel {addr:#x}: the {} atomic executions replay to {v:#x}, but the GPU left {end:#x}",
                group.len()
            )),
            None => r.failures.push(format!(
                "texel {addr:#x}: the values the GPU returned to {} atomic executions fit no serial order",
                group.len()
            )),
        }
    }
    r
}

/// Finds a serial order (depth first, interchangeable executions tried once)
/// and returns the texel's final value, or `None`.
fn replay(
    group: &[&AtomicEvent],
    meta: &[&TracedAtomic],
    wide: bool,
    serial: bool,
    start: u64,
) -> Option<u64> {
    let mask = if wide { u64::MAX } else { u64::from(u32::MAX) };
    let apply = |i: usize, old: u64| {
        let (e, m) = (group[i], meta[i]);
        if wide {
            apply64(m.op, old, e.data, e.cmp)
        } else {
            u64::from(apply32(m.op, old as u32, e.data as u32, e.cmp as u32))
        }
    };
    // Pending executions per (wave, ordinal), and the waves in order.
    let mut pending: BTreeMap<(usize, usize), usize> = BTreeMap::new();
    for e in group {
        *pending.entry((e.wave, e.ordinal)).or_default() += 1;
    }
    let mut by_old: HashMap<u64, Vec<usize>> = HashMap::new();
    for (i, e) in group.iter().enumerate() {
        by_old.entry(e.old & mask).or_default().push(i);
    }
    let allowed = |pending: &BTreeMap<(usize, usize), usize>, e: &AtomicEvent| {
        let mut earlier = pending.range(..(e.wave, e.ordinal)).filter(|(_, &c)| c > 0);
        if serial {
            earlier.next().is_none()
        } else {
            earlier.all(|(&(w, _), _)| w != e.wave)
        }
    };
    let mut done = vec![false; group.len()];
    // Choice points: (candidates, next to try, value before).
    let mut stack: Vec<(Vec<usize>, usize, u64)> = Vec::new();
    let mut value = start & mask;
    let mut steps = 0;
    let candidates = |value: u64, done: &[bool], pending: &BTreeMap<(usize, usize), usize>| {
        let mut seen = HashSet::new();
        let c: Vec<usize> = by_old
            .get(&value)
            .map(|v| {
                v.iter()
                    .copied()
                    .filter(|&i| !done[i] && allowed(pending, group[i]))
                    .filter(|&i| {
                        let e = group[i];
                        seen.insert((e.wave, e.ordinal, e.data, e.cmp))
                    })
                    .collect()
            })
            .unwrap_or_default();
        // An execution that leaves the value as it is (a failed compare-swap,
        // a min that does not win) is placed at once and alone: in any order
        // that works, moving it here changes no value and breaks no program
        // order (it is allowed now, and placing it only releases others), so
        // trying the alternatives first could only repeat work — and, with
        // many such lanes, make the search exponential.
        match c.iter().find(|&&i| apply(i, value) & mask == value) {
            Some(&i) => vec![i],
            None => c,
        }
    };
    loop {
        if stack.len() == group.len() {
            return Some(value);
        }
        steps += 1;
        if steps > STEP_LIMIT {
            return None;
        }
        let c = candidates(value, &done, &pending);
        stack.push((c, 0, value));
        // Take the next untried candidate, backtracking when none is left.
        loop {
            let top = stack.last_mut()?;
            if let Some(&i) = top.0.get(top.1) {
                top.1 += 1;
                done[i] = true;
                *pending.get_mut(&(group[i].wave, group[i].ordinal))? -= 1;
                value = apply(i, top.2) & mask;
                break;
            }
            stack.pop();
            // Undo the choice of the frame below, which will try its next.
            if let Some(below) = stack.last() {
                let i = below.0[below.1 - 1];
                done[i] = false;
                *pending.get_mut(&(group[i].wave, group[i].ordinal))? += 1;
            } else {
                return None;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::texture::atomic::AtomicOp;

    fn ev(wave: usize, lane: u32, old: u64, data: u64) -> AtomicEvent {
        AtomicEvent {
            wave,
            ordinal: 0,
            lane,
            address: 0x100,
            old,
            data,
            cmp: 0,
        }
    }

    fn meta(op: AtomicOp) -> TracedAtomic {
        TracedAtomic {
            offset: 0,
            op,
            wide: false,
            returns_to: Some(1),
            after_store: false,
        }
    }

    #[test]
    fn adds_in_any_order_replay() {
        // Start 10; lanes add 1, 2, 3 in the order 2, 0, 1.
        let e = [ev(0, 0, 13, 1), ev(0, 1, 14, 3), ev(0, 2, 10, 3)];
        let m = meta(AtomicOp::Add);
        let g: Vec<&AtomicEvent> = e.iter().collect();
        assert_eq!(replay(&g, &[&m, &m, &m], false, false, 10), Some(17));
    }

    #[test]
    fn impossible_returns_are_caught() {
        // Two lanes both claim to have seen 10 while adding 1: no serial order.
        let e = [ev(0, 0, 10, 1), ev(0, 1, 10, 1)];
        let m = meta(AtomicOp::Add);
        let g: Vec<&AtomicEvent> = e.iter().collect();
        assert_eq!(replay(&g, &[&m, &m], false, false, 10), None);
    }

    #[test]
    fn swaps_need_backtracking_and_serial_waves_constrain() {
        // Start 0. Wave 0 lane 0 swaps in 5 and saw 7; wave 1 lane 0 swaps in 7
        // and saw 0: only the order (wave 1, wave 0) fits, ending at 5.
        let e = [ev(0, 0, 7, 5), ev(1, 0, 0, 7)];
        let m = meta(AtomicOp::Swap);
        let g: Vec<&AtomicEvent> = e.iter().collect();
        assert_eq!(replay(&g, &[&m, &m], false, false, 0), Some(5));
        // With waves serialised wave 0 must go first: impossible.
        assert_eq!(replay(&g, &[&m, &m], false, true, 0), None);
    }

    /// The executions of `lanes` lanes in each of `waves` waves on one texel
    /// starting at `start`, all of one instruction, in a random serial order,
    /// with the value each saw; listed in trace order (wave, lane).
    fn random_order(
        op: AtomicOp,
        wide: bool,
        start: u64,
        (waves, lanes): (usize, u32),
        operands: impl Fn(usize, u32) -> (u64, u64),
        seed: u64,
    ) -> (Vec<AtomicEvent>, u64) {
        use rand::seq::SliceRandom;
        use rand::SeedableRng;
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
        let mut order: Vec<(usize, u32)> = (0..waves)
            .flat_map(|w| (0..lanes).map(move |l| (w, l)))
            .collect();
        order.shuffle(&mut rng);
        let mut value = start;
        let mut events = Vec::new();
        for (wave, lane) in order {
            let (data, cmp) = operands(wave, lane);
            let mut e = ev(wave, lane, value, data);
            e.cmp = cmp;
            value = if wide {
                apply64(op, value, data, cmp)
            } else {
                u64::from(apply32(op, value as u32, data as u32, cmp as u32))
            };
            events.push(e);
        }
        events.sort_by_key(|e| (e.wave, e.lane));
        (events, value)
    }

    #[test]
    fn any_serial_order_of_contended_lanes_replays() {
        // Every operation, 32- and 64-bit, 4 waves × 64 lanes on one texel in
        // random orders, with the operands of tests/gpu_atomic64.rs: random
        // data; per-texel limits for INC/DEC; for the compare-swaps a cycle
        // of small values where most lanes fail (the rule that places
        // value-preserving executions at once keeps the search linear).
        use AtomicOp::*;
        let ops = [
            Swap, CmpSwap, Add, Sub, Rsub, Smin, Umin, Smax, Umax, And, Or, Xor, Inc, Dec,
            FCmpSwap, Fmin, Fmax,
        ];
        for wide in [false, true] {
            for (k, &op) in ops.iter().enumerate() {
                let operands = |w: usize, l: u32| -> (u64, u64) {
                    let l64 = u64::from(l);
                    match op {
                        Inc | Dec => (5, 0),
                        CmpSwap | FCmpSwap => {
                            ((l64 % 4 + 1) % 4, (l64 % 4) | ((l64 % 8 / 4) << 63))
                        }
                        _ => {
                            let x = (l64 * 2_654_435_761 + w as u64 * 40_503 + 7)
                                .wrapping_mul(0x9e37_79b9_7f4a_7c15);
                            (if wide { x } else { x >> 32 }, 0)
                        }
                    }
                };
                let start = if matches!(op, CmpSwap | FCmpSwap) {
                    0
                } else {
                    3
                };
                let m = TracedAtomic { wide, ..meta(op) };
                for seed in 0..4 {
                    let (e, end) =
                        random_order(op, wide, start, (4, 64), operands, seed + k as u64);
                    let g: Vec<&AtomicEvent> = e.iter().collect();
                    let ms: Vec<&TracedAtomic> = g.iter().map(|_| &m).collect();
                    assert_eq!(
                        replay(&g, &ms, wide, false, start),
                        Some(end),
                        "{op:?} wide {wide} seed {seed}"
                    );
                }
            }
        }
    }

    #[test]
    fn interchangeable_lanes_do_not_explode() {
        // 64 lanes swapping in the same value after one that swapped in 9: the
        // first returns 0, all others 9; 64! orders collapse to one.
        let mut e = vec![ev(0, 0, 0, 9)];
        e.extend((1..64).map(|l| ev(0, l, 9, 9)));
        let m = meta(AtomicOp::Swap);
        let g: Vec<&AtomicEvent> = e.iter().collect();
        let ms: Vec<&TracedAtomic> = (0..64).map(|_| &m).collect();
        assert_eq!(replay(&g, &ms, false, false, 0), Some(9));
    }
}
