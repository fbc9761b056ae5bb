"""The benchmark suite writes what the issue asks for: one JSON record per kernel and
size with the named keys, a markdown table, an error record instead of a crash when a
kernel does not compile, and the stalling engine named from the per-engine figures.
Nothing here is timed."""

import argparse
import json

import pytest

from ktc.benchmarks import suite
from ktc.dialects.diagnostics import KtcError

KEYS = {"kernel", "size", "arch", "cycles", "bound_cycles", "binding_resource", "efficiency",
        "ideal_cycles", "bound_efficiency", "traffic_overhead", "ideal_bytes", "issued_bytes",
        "unoptimized_cycles", "speedup", "compile_s", "sim_wall_s", "sim_cycles_per_s",
        "reference_s"}


META = {"date": "", "commit": "", "machine": "", "load": "", "arch": "spyre"}


def _columns(table: str, start: str) -> int:
    return next(line for line in table.splitlines() if line.startswith(start)).count("|")


def _args(tmp_path, **overrides) -> argparse.Namespace:
    parser = argparse.ArgumentParser()
    suite.add_arguments(parser)
    args = parser.parse_args(["--no-scaling", "--output", str(tmp_path)])
    return argparse.Namespace(**(vars(args) | overrides))


def test_one_kernel_writes_a_record_with_the_issues_keys_and_a_table(tmp_path):
    assert suite.run(_args(tmp_path, kernels="add", sizes="small")) == 0
    records = json.loads((tmp_path / "results.json").read_text())
    assert [(r["kernel"], r["size"]) for r in records] == [("add", "small")]
    record = records[0]
    assert KEYS <= record.keys()
    assert record["max_abs_error"] == 0
    assert record["check"] == "passed"
    assert 0 < record["efficiency"] <= record["bound_efficiency"] <= 1
    # 256x128 f16 a, b and c, each once, against the bytes the schedule issued
    assert record["ideal_bytes"] == 3 * 256 * 128 * 2
    assert record["traffic_overhead"] == record["issued_bytes"] / record["ideal_bytes"]
    assert record["speedup"] == pytest.approx(record["unoptimized_cycles"] / record["cycles"])
    assert record["unoptimized_check"] == "passed"
    table = (tmp_path / "results.md").read_text()
    assert _columns(table, "| add | small | 256x128 | ") == _columns(table, "| kernel |")
    assert record["commit"] in table


def test_a_kernel_that_does_not_compile_gets_an_error_record(monkeypatch):
    def failing(*_args, **_kwargs):
        raise KtcError("no engine can run this", "kernel.mlir:3:5")

    monkeypatch.setattr(suite, "simulate", failing)
    record = suite.measure("add", "small", "spyre")
    assert record["error"] == "kernel.mlir:3:5: error: no engine can run this"
    assert "cycles" not in record
    table = suite.markdown(suite.Results(META, [record], [], [], [], 0))
    assert _columns(table, "| add | small |") == _columns(table, "| kernel |")


def test_a_naive_schedule_past_its_cycle_budget_gives_a_lower_bound(monkeypatch):
    from functools import partial

    from ktc.sim import simulator

    # the small add: 1654 cycles scheduled, 2401 naive; a budget between the two
    monkeypatch.setattr(simulator, "Simulator", partial(simulator.Simulator, max_cycles=2000))
    suite.simulate.cache_clear()
    monkeypatch.setattr(suite, "simulate", suite.simulate.__wrapped__)
    record = suite.measure("add", "small", "spyre")
    assert "speedup" not in record and "unoptimized_error" not in record
    assert record["cycles"] < 2000 == record["unoptimized_at_least"]
    assert record["speedup_at_least"] == pytest.approx(2000 / record["cycles"])
    table = suite.markdown(suite.Results(META, [record], [], [], [], 0))
    row = next(line for line in table.splitlines() if line.startswith("| add | small |"))
    assert f"| > 2000 | > {2000 / record['cycles']:.2f}x |" in row
    assert _columns(table, "| add | small |") == _columns(table, "| kernel |")
    assert suite._speedup_target([record]) == (
        f"- Speedup over the unoptimized schedule >= 1.5x on every row: 0 of 1 (add small "
        f"> {2000 / record['cycles']:.2f}x).")


def test_the_stall_names_the_engine_waiting_the_largest_share():
    engines = {
        "DMA": {"instances": 2, "busy": 180, "starved": 10, "backpressured": 0},
        "SFU": {"instances": 4, "busy": 100, "starved": 40, "backpressured": 240},
    }
    assert suite.stall(engines, 100) == (
        "SFU back-pressured 60% (waits for room in its output FIFO), busy 25%")
    assert suite.stall({}, 100) == ""


def test_unknown_kernels_are_refused_by_name(tmp_path):
    with pytest.raises(KtcError, match="unknown choice.*conv2d"):
        suite.run(_args(tmp_path, kernels="add,conv2d"))


def test_the_targets_count_kernels_per_size_and_name_those_not_measured():
    records = [
        {"kernel": "add", "size": "large", "efficiency": 0.9, "speedup": 1.0,
         "sim_cycles_per_s": 2500.0, "cycles": 5000, "sim_cpu_s": 0.5},
        {"kernel": "softmax", "size": "large", "efficiency": 0.5, "speedup": 1.5},
        {"kernel": "row_sum", "size": "large", "efficiency": 0.9, "speedup": 1.1,
         "unoptimized_cycles": 1200, "ideal_cycles": 1000},
        {"kernel": "rotary", "size": "large", "efficiency": 0.9, "speedup": 1.4,
         "unoptimized_cycles": 1600, "ideal_cycles": 1000},
        {"kernel": "layernorm", "size": "large", "error": "no path"},
        {"kernel": "rmsnorm", "size": "small", "efficiency": 0.1, "speedup": 0.5},
    ]
    examples = [{"example": "add.mlir", "compile_s": 0.5, "compile_cpu_s": 0.4},
                {"example": "softmax.mlir", "compile_s": 2.5, "compile_cpu_s": 0.6}]
    chain = [{"ops": 1, "compile_s": 0.3, "compile_cpu_s": 0.2},
             {"ops": 16, "compile_s": 0.3, "compile_cpu_s": 0.23},
             {"ops": 256, "compile_s": 0.9, "compile_cpu_s": 0.71}]
    lines = suite.targets(suite.Results(META, records, chain, [], examples, 0))
    assert lines == [
        ("- Efficiency (ideal / cycles) >= 0.85 on every large kernel: 3 of 5 (add 0.90, "
         "softmax 0.50, row_sum 0.90, rotary 0.90); not measured (error): layernorm."),
        ("- Efficiency (ideal / cycles) >= 0.75 on every small kernel: 0 of 1 (rmsnorm 0.10); "
         "not measured (error): none."),
        ("- Speedup over the unoptimized schedule >= 1.5x on every row: 1 of 6 (add large "
         "1.00x, softmax large 1.50x, row_sum large 1.10x, rotary large 1.40x, rmsnorm small "
         "0.50x). Out of reach for any schedule, since none beats the ideal (the most one "
         "can gain, unoptimized cycles / ideal): row_sum large 1.20x."),
        ("- At least 1,000,000 simulated cycles per wall second on the large add: 2,500 "
         "(per CPU second 10,000)."),
        ("- Every example compiles in under 2 s: 1 of 2 (slowest softmax.mlir, 2.50 s); "
         "in under 2 CPU seconds: 2."),
        ("- CPU time per op beyond the first at 256 fused ops at most 1.5x that at 16: "
         "2.00 ms against 2.00 ms (1.00x)."),
    ]


def test_the_chain_table_gives_the_cpu_time_each_op_beyond_the_first_adds():
    chain = [{"ops": 1, "compile_s": 0.25, "compile_cpu_s": 0.2},
             {"ops": 4, "compile_s": 0.3, "compile_cpu_s": 0.26},
             {"ops": 16, "error": "error: does not fit"},
             {"ops": 64, "compile_s": 0.9, "compile_cpu_s": 0.83}]
    assert suite.op_costs(chain) == pytest.approx({4: 0.02, 64: 0.01})
    table = suite.markdown(suite.Results(META, [], chain, [], [], 0))
    assert "| 1 | 0.25 | 0.20 | 1.00 |  |" in table
    assert "| 4 | 0.30 | 0.26 | 1.30 | 20.00 |" in table
    assert "| 16 | error: does not fit |  |  |  |" in table
    assert "| 64 | 0.90 | 0.83 | 4.15 | 10.00 |" in table
    assert suite.targets(suite.Results(META, [], chain, [], [], 0))[-1].endswith("not measured.")


def test_the_sweeps_largest_point_is_the_large_add_so_it_is_simulated_once(monkeypatch):
    calls = []

    def recording(*args, **kwargs):
        calls.append((args, kwargs))
        raise KtcError("not simulated here")

    monkeypatch.setattr(suite, "simulate", recording)
    suite.measure("add", "large", "spyre")
    rows = suite.simulator_scaling("spyre")
    assert rows[-1] == {"elements": 1 << 22, "error": "error: not simulated here"}
    assert calls[-1] == calls[0]


def test_a_bug_in_ktc_is_recorded_as_an_internal_error(monkeypatch):
    def buggy(*_args, **_kwargs):
        raise NameError("name '_Missing' is not defined")

    monkeypatch.setattr(suite, "simulate", buggy)
    record = suite.measure("silu_mul", "large", "spyre")
    assert record["error"] == "internal error (NameError: name '_Missing' is not defined)"


def test_the_startup_targets_compare_add_with_the_bare_import():
    startup = [{"command": "ktc --help", "cpu_s": 0.05},
               {"command": "ktc-opt --help", "cpu_s": 0.12},
               {"command": "ktc-opt examples/add.mlir", "cpu_s": 0.15},
               {"command": suite.BARE, "cpu_s": 0.125}]
    lines = suite.targets(suite.Results(META, [], [], [], [], 0, startup))
    assert lines[-2:] == [
        "- `ktc --help` and `ktc-opt --help` under 0.4 CPU s: 0.050 s and 0.120 s.",
        ("- `ktc-opt examples/add.mlir` within 1.3x the CPU time of a bare python importing "
         "the xDSL dialects it uses: 0.150 s against 0.125 s (1.20x)."),
    ]
    table = suite.markdown(suite.Results(META, [], [], [], [], 0, startup))
    assert "| ktc-opt examples/add.mlir | 0.150 |" in table


def test_startup_takes_the_least_of_runs_taken_in_turn(monkeypatch):
    """After a first run of each command that does not count (0.01 s here: it would
    be the least if it counted)."""
    order, seconds = [], iter([0.01] * 4 + [0.3, 0.2, 0.5, 0.4] + [0.1, 0.4, 0.6, 0.2] + [0.2] * 12)

    def fake(command):
        order.append(command)
        return next(seconds)

    monkeypatch.setattr(suite, "child_cpu_s", fake)
    rows = suite.startup_times()
    assert [r["cpu_s"] for r in rows] == [0.1, 0.2, 0.2, 0.2]
    commands = list(suite.startup_commands().values())
    assert order == commands * (1 + suite.STARTUP_RUNS)


def test_every_startup_command_runs():
    for command in suite.startup_commands().values():
        assert suite.child_cpu_s(command) > 0


def test_startup_children_may_write_bytecode(monkeypatch):
    monkeypatch.setenv("PYTHONDONTWRITEBYTECODE", "1")
    seen = []
    monkeypatch.setattr(suite.subprocess, "run", lambda command, **kw: seen.append(kw["env"]))
    suite.child_cpu_s(["python", "-c", "pass"])
    assert "PYTHONDONTWRITEBYTECODE" not in seen[0]


def test_ktc_bench_writes_into_the_current_directory_by_default(tmp_path, monkeypatch):
    """Never into the package (its tracked benchmarks/results.md, or site-packages)."""
    tracked = suite.HERE / "results.md"
    before = tracked.read_bytes() if tracked.exists() else None
    monkeypatch.chdir(tmp_path)
    parser = argparse.ArgumentParser()
    suite.add_arguments(parser)
    args = parser.parse_args(["--no-scaling", "--kernels", "add", "--sizes", "small"])
    assert suite.run(args) == 0
    assert sorted(p.name for p in tmp_path.iterdir()) == ["results.json", "results.md"]
    assert (tracked.read_bytes() if tracked.exists() else None) == before
