"""Hatchling build hook of the compiled wheel (``make wheels``; off unless asked for).

With ``HATCH_BUILD_HOOK_ENABLE_CUSTOM=true`` the wheel hatchling builds is the compiled one for
this platform and this CPython (tags ``cp311-cp311-<platform>``): the same files as the pure
wheel, every ``.py`` source included (the fallback, and what tracebacks show), plus the C
extensions of :data:`spider.native.COMPILED_MODULES` that ``scripts/build_native.py`` builds next
to the sources (built here first when they are missing or stale). Without a C compiler it stops
with a message: the pure wheel is the one to install then.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

from hatchling.builders.hooks.plugin.interface import BuildHookInterface


def _build_native(root: Path) -> ModuleType:
    """``scripts/build_native.py`` of the tree being built, as a module."""
    path = root / "scripts" / "build_native.py"
    spec = importlib.util.spec_from_file_location("_spider_build_native", path)
    if spec is None or spec.loader is None:
        raise RuntimeError(f"the compiled wheel needs {path}")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


class CompiledWheelHook(BuildHookInterface):  # type: ignore[type-arg]
    """Adds the compiled modules to the wheel and marks it as one for this platform."""

    PLUGIN_NAME = "custom"

    def initialize(self, version: str, build_data: dict[str, Any]) -> None:
        if self.target_name != "wheel":
            return
        native = _build_native(Path(self.root))
        if native.have_compiler() is None:
            raise RuntimeError(
                "the compiled wheel needs a C compiler (gcc or clang); "
                "without one, install the pure wheel"
            )
        native.ensure_current()
        build_data["pure_python"] = False
        build_data["infer_tag"] = True
        for path in native.expected_files():
            build_data["force_include"][str(path)] = str(path.relative_to(native.SRC))
