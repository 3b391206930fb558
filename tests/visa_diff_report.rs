//! `--diff` reports of Intel vISA launches name the program's variables:
//! differences are forced into a copy of a CPU run's final state and the two
//! states go through the report the CLI prints (`compare_visa`, then
//! `Report::text` and `Report::json`). AMD reports keep their register form.

use gcnrun::diff::{compare, compare_visa, Report};
use gcnrun::launch::run::{prepare_manifest, run_cpu, Outcome};
use std::path::Path;

fn hand_ops() -> Outcome {
    let m = Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/visa/hand_ops_simd16.toml");
    run_cpu(prepare_manifest(&m, None, None, None).unwrap()).unwrap()
}

fn report(cpu: &Outcome, gpu_waves: &[gcnrun::machine::WaveState]) -> Report {
    compare_visa(
        (&cpu.waves, &cpu.memory),
        (gpu_waves, &cpu.memory),
        &[],
        None,
        &cpu.visa.as_ref().unwrap().vars,
        &cpu.visa.as_ref().unwrap().buffer_ranges(),
    )
}

#[test]
fn equal_states_report_nothing() {
    let out = hand_ops();
    let r = report(&out, &out.waves);
    assert_eq!(r.count, 0);
    assert_eq!(
        r.text(),
        "diff: GPU equals CPU (every variable, predicate and register of every thread, every byte of memory)\n"
    );
}

#[test]
fn differences_are_reported_by_variable_predicate_and_register() {
    let out = hand_ops();
    let run = out.visa.clone().unwrap();
    let mut gpu = out.waves.clone();
    let w = &mut gpu[0];
    // E is hf; element 1 holds 11.0 (0x4980): its low byte 0x80 → 0xc0 = 11.5.
    let e = run.layout.var("E").unwrap();
    assert_eq!(w.grf_bits(e.byte + 2, 2), 0x4980);
    w.set_grf_byte(e.byte + 2, 0xc0);
    // Byte 32 of E is element 16 (row 1), under the alias EM (ud, from byte
    // 32): the null-mask dword 0xff.
    assert_eq!(w.grf_bits(e.byte + 32, 4), 0xff);
    w.set_grf_byte(e.byte + 32, 0x7f);
    // P1 = U < 0.5 holds in channel 5 (x = 1).
    let p1 = run.layout.preds["P1"];
    assert_eq!(w.sgpr(p1) >> 5 & 1, 1);
    w.set_sgpr(p1, w.sgpr(p1) ^ 1 << 5);
    // v200 is above the GRF: a register the lowering stages addresses in.
    w.set_vgpr(200, 3, w.vgpr(200, 3) ^ 0x10);
    let r = report(&out, &gpu);
    assert_eq!(r.count, 4, "{:?}", r.mismatches);
    let text = r.text();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(
        lines[0],
        "DIFF thread 0, variable E(0,1) element 1 (hf): cpu=11 (0x4980) gpu=11.5 (0x49c0)"
    );
    assert_eq!(
        lines[1],
        "DIFF thread 0, variable E(1,0) element 16 (hf): cpu=0.000015199184 (0x00ff) gpu=0.00000756979 (0x007f) [aliases: EM]"
    );
    assert_eq!(
        lines[2],
        "DIFF thread 0, predicate P1 channel 5: cpu=1 gpu=0"
    );
    assert!(
        lines[3].starts_with("DIFF thread 0, lowering register v200 lane 3: cpu 0x"),
        "{}",
        lines[3]
    );
    assert_eq!(lines[4], "diff: 4 difference(s) between CPU and GPU");

    let json = r.json();
    assert_eq!(json["count"], 4);
    let m = &json["mismatches"];
    assert_eq!(
        m[0],
        serde_json::json!({
            "kind": "variable", "thread": 0, "variable": "E", "row": 0, "col": 1,
            "element": 1, "type": "hf", "cpu_value": 11.0, "gpu_value": 11.5,
            "cpu": 0x4980, "gpu": 0x49c0,
        })
    );
    assert_eq!(m[1]["aliases"], serde_json::json!(["EM"]));
    assert_eq!((&m[1]["row"], &m[1]["element"]), (&1.into(), &16.into()));
    assert_eq!(
        m[2],
        serde_json::json!({
            "kind": "predicate", "thread": 0, "variable": "P1", "channel": 5,
            "type": "bool", "cpu_value": 1, "gpu_value": 0, "cpu": 1, "gpu": 0,
        })
    );
    assert_eq!(m[3]["kind"], "register");
    assert_eq!(m[3]["register"], "v200");
    assert_eq!((&m[3]["thread"], &m[3]["lane"]), (&0.into(), &3.into()));
    assert!(m[3].get("wave").is_none());
}

/// Signed and float elements print by their type; a NaN is named in JSON.
#[test]
fn typed_values_follow_the_declared_type() {
    let out = hand_ops();
    let run = out.visa.clone().unwrap();
    let mut gpu = out.waves.clone();
    // N is d: element 4 holds -1; F is f: element 0 holds 2.0.
    let n = run.layout.var("N").unwrap();
    gpu[0].set_grf_bits(n.byte + 16, 4, (-7i32) as u32 as u64);
    let f = run.layout.var("F").unwrap();
    gpu[0].set_grf_bits(f.byte, 4, 0x7fc0_0000);
    let r = report(&out, &gpu);
    assert_eq!(r.count, 2, "{:?}", r.mismatches);
    let text = r.text();
    assert!(
        text.contains("DIFF thread 0, variable F(0,0) element 0 (f): cpu=2 (0x40000000) gpu=NaN (0x7fc00000)\n"),
        "{text}"
    );
    assert!(
        text.contains("DIFF thread 0, variable N(0,4) element 4 (d): cpu=-1 gpu=-7\n"),
        "{text}"
    );
    let json = r.json();
    let f_entry = json["mismatches"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["variable"] == "F")
        .unwrap();
    assert_eq!(f_entry["gpu_value"], "NaN");
}

/// An AMD launch keeps its register form.
#[test]
fn amd_reports_keep_registers_and_lanes() {
    let m = Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/image_rw.toml");
    let out = run_cpu(prepare_manifest(&m, None, None, None).unwrap()).unwrap();
    let mut gpu = out.waves.clone();
    let v = gpu[0].vgpr(4, 3) ^ 1;
    gpu[0].set_vgpr(4, 3, v);
    let r = compare((&out.waves, &out.memory), (&gpu, &out.memory), &[], None);
    let text = r.text();
    assert!(text.starts_with("DIFF v4 wave 0 lane 3: cpu 0x"), "{text}");
    assert!(text.ends_with("diff: 1 difference(s) between CPU and GPU\n"));
    let m = &r.json()["mismatches"][0];
    assert_eq!(m["register"], "v4");
    assert_eq!((&m["wave"], &m["lane"]), (&0.into(), &3.into()));
    assert!(m.get("thread").is_none() && m.get("variable").is_none());
}

/// A byte of an Intel buffer is reported with the buffer's name and offset.
#[test]
fn buffer_bytes_are_named() {
    let m = Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/visa/igc_samp_simd32.toml");
    let out = run_cpu(prepare_manifest(&m, None, None, None).unwrap()).unwrap();
    let run = out.visa.as_ref().unwrap();
    let buf = &run.buffers[0];
    let mut mem = out.memory.clone();
    let at = (buf.base + 5 - mem.base) as usize;
    mem.bytes[at] ^= 0x01;
    let r = compare_visa(
        (&out.waves, &out.memory),
        (&out.waves, &mem),
        &[],
        None,
        &run.vars,
        &run.buffer_ranges(),
    );
    assert_eq!(r.count, 1);
    assert_eq!(
        r.text().lines().next().unwrap(),
        format!(
            "DIFF memory {:#x} buffer `out` byte 5: cpu {:#04x} gpu {:#04x}",
            buf.base + 5,
            out.memory.bytes[at],
            mem.bytes[at]
        )
    );
    let j = &r.json()["mismatches"][0];
    assert_eq!((&j["buffer"], &j["offset"]), (&"out".into(), &5.into()));
}

/// SCC, MODE and every byte of a wave's LDS are compared too: each
/// difference is one mismatch naming the wave (and the LDS byte), and LDS
/// of different sizes is one mismatch that says so.
#[test]
fn amd_reports_scc_mode_and_lds_bytes() {
    let m = Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/image_rw.toml");
    let out = run_cpu(prepare_manifest(&m, None, None, None).unwrap()).unwrap();
    let mut cpu = out.waves.clone();
    cpu[0].lds = vec![0; 16];
    let mut gpu = cpu.clone();
    gpu[0].scc = !cpu[0].scc;
    gpu[0].mode ^= 0x10;
    gpu[0].lds[5] = 0x7f;
    let r = compare((&cpu, &out.memory), (&gpu, &out.memory), &[], None);
    let text = r.text();
    assert_eq!(r.count, 3, "{text}");
    let (scc, mode) = (u32::from(cpu[0].scc), cpu[0].mode);
    assert!(
        text.contains(&format!(
            "DIFF scc wave 0: cpu {scc:#010x} gpu {:#010x}\n",
            scc ^ 1
        )),
        "{text}"
    );
    assert!(
        text.contains(&format!(
            "DIFF mode wave 0: cpu {mode:#010x} gpu {:#010x}\n",
            mode ^ 0x10
        )),
        "{text}"
    );
    assert!(
        text.contains("DIFF lds wave 0 byte 0x5: cpu 0x00 gpu 0x7f\n"),
        "{text}"
    );
    let j = r.json();
    let lds = j["mismatches"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["kind"] == "lds")
        .unwrap();
    assert_eq!((&lds["wave"], &lds["address"]), (&0.into(), &5.into()));

    gpu = cpu.clone();
    gpu[0].lds.truncate(8);
    let r = compare((&cpu, &out.memory), (&gpu, &out.memory), &[], None);
    assert_eq!(r.count, 1, "{}", r.text());
    assert!(r
        .text()
        .starts_with("DIFF lds: wave 0 holds 16 bytes of LDS on the CPU, 8 on the GPU\n"));
}
