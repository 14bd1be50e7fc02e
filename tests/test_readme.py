"""The README's Python examples run as written and print what their comments say."""

from __future__ import annotations

import contextlib
import io
import re
from pathlib import Path

README = Path(__file__).resolve().parent.parent / "README.md"


def test_readme_python_examples_run_and_their_comments_hold() -> None:
    blocks = re.findall(r"```python\n(.*?)```", README.read_text(encoding="utf-8"), re.S)
    assert len(blocks) == 2
    engine_example, bot_example = blocks
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(engine_example, str(README), "exec"), {})
    printed = out.getvalue().splitlines()
    # The two lines whose output the comments show are the last two printed.
    promised = [
        line.split("#", 1)[1].strip()
        for line in engine_example.splitlines()
        if line.startswith("print(h.") or line.startswith("print(r.")
    ]
    assert printed[-2:] == promised
    # The bot's loop ends its episode (truncated at the default 2,000 steps, or over).
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(bot_example, str(README), "exec"), {})
    action, _reward, won = out.getvalue().split()
    assert action and won in {"True", "False"}
