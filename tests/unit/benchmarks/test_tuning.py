"""The tuning benchmark (``ktc tune`` run per kernel): every candidate of the tuner's
space judged, the cost model's among them, the best no slower than it, and the
table's ratio computed from the two."""

from ktc.benchmarks import tuning


def test_the_search_judges_every_candidate_and_the_best_is_no_slower_than_the_cost_model():
    row = tuning.search("add", "small", "spyre", ["--jobs", "1"])
    assert row["candidates"] > 1 and row["errors"] < row["candidates"]
    assert row["cost_model_cycles"] > 0
    assert 0 < row["best_cycles"] <= row["cost_model_cycles"]


def test_the_table_gives_the_ratio_and_names_the_best_schedule():
    row = {"kernel": "add", "size": "small", "candidates": 3, "errors": 1, "cost_model_cycles": 200,
           "cost_model_error": None, "best_cycles": 100,
           "best": {"sizes": [4], "skip": ["double-buffering"]}}
    timed = [{"runner": "1 process", "kernel": "add", "size": "small", "candidates": 3, "wall_s": 4.0,
              "best_cycles": 100},
             {"runner": "2 processes", "kernel": "add", "size": "small", "candidates": 3, "wall_s": 2.0,
              "best_cycles": 100}]
    meta = {"date": "now", "commit": "abc", "machine": "x86_64", "load": "0.0", "arch": "spyre"}
    text = tuning.markdown([row], timed, meta, 1.0)
    assert "| add | small | 3 | 1 | 200 | 100 | 2.00 | sizes [4], without double-buffering |" in text
    assert "| 2 processes | 2.00 | 2.00x | 100 |" in text
