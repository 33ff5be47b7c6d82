"""The compiled solver core, built from source by the package's own build.

Optional on purpose: without a C compiler the build skips it (setuptools' ``optional``) and
the package installs anyway; ``solver.backend()`` then says ``python`` and the solver logs
one line saying so. Everything else is configured in pyproject.toml.
"""

from glob import glob

from setuptools import Extension, setup

setup(
    ext_modules=[
        Extension(
            "solver._core",
            sources=sorted(glob("solver/core/*.c")),
            depends=glob("solver/core/*.h"),
            optional=True,
            # Strict IEEE arithmetic: the ratings must equal the reference's to the last bit.
            extra_compile_args=["-O3", "-ffp-contract=off", "-fno-fast-math"],
        )
    ]
)
