"""The compiled solver core, built from source by the package's own build.

Optional on purpose: without a C compiler the build skips it (setuptools' ``optional``) and
the package installs anyway; ``solver.backend()`` then says ``python`` and the solver logs
one line saying so. Everything else is configured in pyproject.toml.

The core's list of technique functions is not written by hand: the build writes it from the
ladder (``solver.ladder.RUNGS``, pure standard library) into ``rungs.h`` in its temporary
folder, as ``RUNG_FUNCTIONS(X)``, which calls ``X(name)`` for the name of each rung's function;
``solver/core/core.h`` declares them from it and ``solver/core/ladder.c`` registers them by
name. A new rung thus needs only its C function.
"""

import logging
import sys
from glob import glob
from pathlib import Path

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

ROOT = Path(__file__).resolve().parent


def rung_functions() -> list[str]:
    """The name of each rung's function, every profile's, once each, in the ladder's order."""
    sys.path.insert(0, str(ROOT))
    # The ladder without the core being built: a stale one is not loaded, and the solver's
    # warning that it runs without one does not belong in the build's output.
    sys.modules["solver._core"] = None  # type: ignore[assignment]
    log = logging.getLogger("solver")
    log.disabled = True
    try:
        from solver.ladder import RUNGS
    finally:
        log.disabled = False
    return list(dict.fromkeys(rung.apply.__name__ for rung in RUNGS))


def rungs_header() -> str:
    """``rungs.h``: the X-macro list of the technique functions."""
    lines = [f"    X({name})" for name in rung_functions()]
    return (
        "/* Written by the build (setup.py) from solver.ladder.RUNGS: do not edit. */\n"
        "#define RUNG_FUNCTIONS(X) \\\n" + " \\\n".join(lines) + "\n"
    )


class BuildWithRungs(build_ext):
    """build_ext that first writes ``rungs.h`` (only when it changed, so that an unchanged
    ladder rebuilds nothing) and compiles the core with it."""

    def build_extensions(self) -> None:
        header = Path(self.build_temp) / "generated" / "rungs.h"
        text = rungs_header()
        if not header.is_file() or header.read_text() != text:
            header.parent.mkdir(parents=True, exist_ok=True)
            header.write_text(text)
        for ext in self.extensions:
            ext.include_dirs.append(str(header.parent))
            ext.depends.append(str(header))
        super().build_extensions()


setup(
    cmdclass={"build_ext": BuildWithRungs},
    ext_modules=[
        Extension(
            "solver._core",
            sources=sorted(glob("solver/core/*.c")),
            depends=glob("solver/core/*.h"),
            optional=True,
            # Strict IEEE arithmetic: the ratings must equal the reference's to the last bit.
            extra_compile_args=["-O3", "-ffp-contract=off", "-fno-fast-math"],
        )
    ],
)
