"""The README's Python example runs as written and prints what its comments say."""

from __future__ import annotations

import contextlib
import io
import re
from pathlib import Path

README = Path(__file__).resolve().parent.parent / "README.md"


def test_readme_python_example_runs_and_its_comments_hold() -> None:
    blocks = re.findall(r"```python\n(.*?)```", README.read_text(encoding="utf-8"), re.S)
    assert len(blocks) == 1
    example = blocks[0]
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(example, str(README), "exec"), {})
    printed = out.getvalue().splitlines()
    # The two lines whose output the comments show are the last two printed.
    promised = [
        line.split("#", 1)[1].strip()
        for line in example.splitlines()
        if line.startswith("print(h.") or line.startswith("print(r.")
    ]
    assert printed[-2:] == promised
