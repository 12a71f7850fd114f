"""Every Python block of docs/python.md runs when pasted, in order, in one session (the guide cannot
rot), and the outcomes its comments state hold."""
import pathlib
import re


PAGE = pathlib.Path(__file__).resolve().parents[2] / "docs" / "python.md"


def test_the_python_page_runs_as_written(tmp_path, monkeypatch):
    blocks = re.findall(r"```python\n(.*?)```", PAGE.read_text(), re.S)
    assert len(blocks) >= 7
    monkeypatch.chdir(tmp_path)
    session = {}
    for block in blocks:
        exec(compile(block, str(PAGE), "exec"), session)
    # What the comments of the page promise.
    assert session["release"].Q.shape == (5, 2)
    assert (tmp_path / "paper" / "tables" / "summary.md").is_file()
    assert session["audit"]["verdict"] == "PASS" and session["caught"]["verdict"] == "VIOLATION"
    assert session["gate"]["worse"]
    assert session["candidate"].results["sin"].mean() <= session["released"].results["sin"].mean() * 1.05
