//! `parallel-lab` with the optimizer on the host (SPEC §14): the new fields, `memory.host`,
//! the `offload` row, the estimate's extra term, the errors, links and `--explain`.
#![allow(clippy::unwrap_used, clippy::panic)]

mod common;

use common::{assert_help_holds, error_line, f, json_of, keys, COMM_ROW_KEYS};
use serde_json::Value;

const OFFLOAD_ZERO1: &str = r#"{"zero":1,"optimizer_offload":"cpu","pcie_gbps":25}"#;

#[test]
fn eval_carries_the_host_block_and_the_offload_row() {
    let on = json_of(&["eval"], OFFLOAD_ZERO1);
    let off = json_of(&["eval"], r#"{"zero":1,"pcie_gbps":25}"#);
    let host = &on["memory"]["host"];
    assert_eq!(keys(host), ["capacity", "fits", "per_gpu", "per_node"]);
    assert!(off["memory"].get("host").is_none());
    // The anchor on 8 cards, ZeRO-1: 16·Ψ/8 a card, 16·Ψ a node, in 2,048 GB.
    let psi = 27_781_427_952.0_f64;
    assert_eq!(f(&host["per_gpu"]), 2.0 * psi);
    assert_eq!(f(&host["per_node"]), 8.0 * 2.0 * psi);
    assert_eq!(
        (f(&host["capacity"]), host["fits"].as_bool()),
        (2048e9, Some(true))
    );
    // The card lost the 12-byte part: 4Ψ + 12Ψ/8 → 4Ψ.
    assert_eq!(f(&on["memory"]["model_states"]), 4.0 * psi);
    assert_eq!(
        f(&off["memory"]["model_states"]),
        4.0 * psi + 12.0 * psi / 8.0
    );
    let rows = on["comm"].as_array().unwrap();
    let row = rows.last().unwrap();
    assert_eq!(keys(row), COMM_ROW_KEYS);
    assert_eq!(
        (
            &row["dim"],
            &row["collective"],
            &row["group_size"],
            &row["link"]
        ),
        (
            &Value::from("offload"),
            &Value::from("d2h+h2d"),
            &Value::from(1),
            &Value::from("pcie")
        )
    );
    assert_eq!(f(&row["bytes"]), 6.0 * psi / 8.0);
    assert_eq!(f(&row["seconds"]), 6.0 * psi / 8.0 / 25e9);
    assert_eq!(rows.len(), off["comm"].as_array().unwrap().len() + 1);
    // The estimate adds the PCIe seconds to the exposed time and the step.
    let (e_on, e_off) = (&on["estimate"], &off["estimate"]);
    assert_eq!(keys(e_on), keys(e_off));
    assert_eq!(e_on["compute_s"], e_off["compute_s"]);
    let extra = f(&e_on["step_s"]) - f(&e_off["step_s"]);
    assert!((extra - f(&row["seconds"])).abs() < 1e-9, "{extra}");
}

#[test]
fn a_full_host_is_a_warning_and_bad_fields_are_errors_naming_them() {
    let r = json_of(
        &["eval"],
        r#"{"optimizer_offload":"cpu","host_memory_gb":100}"#,
    );
    assert_eq!(r["memory"]["host"]["fits"], false);
    assert_eq!(
        r["warnings"][0],
        "host_memory_gb: a node's offloaded optimizer states take 3556.0 GB, more than its 100 GB of host memory"
    );
    let cases = [
        (r#"{"pcie_gbps":0}"#, "pcie_gbps: must be a positive number (got 0)"),
        (
            r#"{"host_memory_gb":-1}"#,
            "host_memory_gb: must be a positive number (got -1)",
        ),
        (
            r#"{"pcie_gbps":0,"host_memory_gb":0}"#,
            "pcie_gbps: must be a positive number (got 0)",
        ),
        (
            r#"{"optimizer_offload":"gpu"}"#,
            "optimizer_offload: unknown variant `gpu`, expected `none` or `cpu` at line 1 column 26",
        ),
    ];
    for (stdin, expected) in cases {
        assert_eq!(error_line(&["eval"], stdin), expected, "{stdin}");
    }
}

#[test]
fn a_link_carries_the_offload_and_explain_names_its_figures() {
    let from_link = json_of(&["eval", "--url", "#g8=z1.cpuadam.pcie25"], "");
    assert_eq!(from_link, json_of(&["eval"], OFFLOAD_ZERO1));
    let explained = json_of(&["eval", "--explain"], OFFLOAD_ZERO1);
    let ids: Vec<&str> = explained["explain"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["figure"].as_str().unwrap())
        .collect();
    for id in [
        "mem-host",
        "mem-host-node",
        "traffic-offload",
        "traffic-offload-time",
        "estimate-offload",
    ] {
        assert!(ids.contains(&id), "{id} in {ids:?}");
    }
    let host = explained["explain"]
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["figure"] == "mem-host")
        .unwrap();
    assert_eq!(host["result"], explained["memory"]["host"]["per_gpu"]);
}

#[test]
fn help_documents_the_new_fields() {
    assert_help_holds(&[
        "optimizer_offload \"none\" (none|cpu)",
        "pcie_gbps 50",
        "host_memory_gb 2048",
        "memory.host",
        "\"link\": \"pcie\"",
        "CPU's own Adam update",
    ]);
}
