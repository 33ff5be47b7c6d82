"""The compiled core under AddressSanitizer + UBSan, and under valgrind: memory errors and
undefined behaviour, found by the native tests or not.

    .venv/bin/python benchmarks/sanitize.py [--no-asan] [--no-valgrind] [--keep]
                                            [--examples N] [-- extra pytest arguments]

1. Builds ``solver._core`` twice into a temporary directory (never the editable install's
   in-place .so in solver/): with ``-fsanitize=address,undefined`` and plainly with ``-g``.
2. Runs tests/solver/test_backends.py and test_core_fuzz.py (the slow ones aside), then every
   puzzle of the shared collections when they are there, with the sanitized core loaded in
   place of the installed one (a ``sitecustomize`` on PYTHONPATH puts a finder for it ahead
   of the others), libasan preloaded, ``PYTHONMALLOC=malloc`` so ASan sees Python's own
   buffers too, leak detection off (CPython leaks by design at exit), UBSan fatal. The
   sanitizers' reports in the output (every process's) are counted and shown.
3. Runs a smaller workload (samples/sample.txt, malformed texts, odd arguments) on the plain
   build under ``valgrind --error-exitcode``, with ``PYTHONMALLOC=malloc``. Errors with a
   frame in the core count; CPython's own valgrind noise (it has no suppressions here) is
   listed but not counted.

Prints a verdict per step and exits 0 only when no step found an error.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TESTS = ["tests/solver/test_backends.py", "tests/solver/test_core_fuzz.py"]
SANITIZE = "-fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer"
ASAN_OPTIONS = "detect_leaks=0:halt_on_error=1:abort_on_error=0:strict_string_checks=1"
UBSAN_OPTIONS = "print_stacktrace=1:halt_on_error=1"
REPORT_MARKERS = ("ERROR: AddressSanitizer", "runtime error:", "SUMMARY: ")
VALGRIND_ERRORS = 99  # valgrind's exit code when it found errors

# Makes ``import solver._core`` load the given build: a finder ahead of the others. (Loading
# it here directly would not do: its init imports solver, which would import the other one.)
SITECUSTOMIZE = """\
import importlib.util, sys
class _Core:
    @staticmethod
    def find_spec(name, path=None, target=None):
        if name == "solver._core":
            return importlib.util.spec_from_file_location(name, {path!r})
        return None
sys.meta_path.insert(0, _Core)
"""

# Every puzzle of the shared collections (argv[1]), in batches as a worker solves them.
CORPORA = """\
import sys
from pathlib import Path
from solver import native
total = 0
for path in sorted(Path(sys.argv[1]).iterdir()):
    if path.suffix not in (".txt", ".tsv", ".csv") or path.name.endswith(".solutions.txt"):
        continue
    rows = path.read_text().splitlines()[1 if path.suffix == ".csv" else 0 :]
    puzzles = [row.split("\\t")[0].split(",")[0] for row in rows if row.strip()]
    for k in range(0, len(puzzles), 1000):
        native.solve_many(puzzles[k : k + 1000], node_budget=200_000)
    total += len(puzzles)
    print(f"{path.name}: {len(puzzles):,} puzzles", flush=True)
print(f"corpora: {total:,} puzzles solved by the sanitized core")
"""

# The valgrind workload: the bundled sample in one batch, and malformed input of every kind.
WORKLOAD = """\
import solver, solver._core as core
from solver import native
assert solver.backend() == "native", solver.backend()
lines = [l for l in open("samples/sample.txt").read().splitlines() if l and l[0] != "#"]
results = native.solve_many(lines, node_budget=200_000)
odd = ["", "1" * 81, "." * 81, " " + lines[0] + "\\t", "\\u2003" + lines[0], lines[0] + "\\x00",
       lines[0][:80] + "\\U0010ffff", "x" * 100_000, lines[0] * 3, "\\x1c" + lines[1] + "\\x1f"]
for budget in (0, 1, 10, 1000, 2**62, 2**63 - 1, 2**64):
    core.solve_many(odd + lines[:20], budget)
for bad in ([None], [b"1" * 81], [1], (lines[0],), None, "x"):
    try:
        core.solve_many(bad, 10)
    except (TypeError, ValueError, OverflowError):
        pass
for budget in (-1, 1.5, None, "10"):
    try:
        core.solve_many(lines[:2], budget)
    except (TypeError, ValueError, OverflowError):
        pass
print(f"valgrind workload: {len(results)} sample puzzles, {len(odd)} odd texts x 7 budgets")
print(f"core in use: {core.__file__}")
"""


def build(out: Path, cflags: str, ldflags: str) -> Path:
    """``solver._core`` built from the sources into ``out``; the path of the .so."""
    env = {**os.environ, "CC": "gcc", "CFLAGS": cflags, "LDFLAGS": ldflags}
    command = [sys.executable, "setup.py", "-q", "build_ext", "--force"]
    command += ["--build-lib", str(out / "lib"), "--build-temp", str(out / "temp")]
    done = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True)
    if done.returncode:
        sys.exit(f"build failed ({cflags}):\n{done.stdout}{done.stderr}")
    (so,) = (out / "lib" / "solver").glob("_core*.so")
    return so


def preload(so: Path, out: Path) -> dict[str, str]:
    """Environment that loads ``so`` as solver._core in every Python process started."""
    site = out / "site"
    site.mkdir(exist_ok=True)
    (site / "sitecustomize.py").write_text(SITECUSTOMIZE.format(path=str(so)))
    path = os.pathsep.join(p for p in (str(site), os.environ.get("PYTHONPATH")) if p)
    return {**os.environ, "PYTHONPATH": path, "PYTHONMALLOC": "malloc"}


def loaded_core(env: dict[str, str]) -> str:
    """Which file solver._core comes from under ``env`` (as a check that the preload works)."""
    code = "import solver, solver._core as c; print(solver.backend(), c.__file__)"
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True
    )
    return (done.stdout + done.stderr).strip()


def sanitizer_reports(output: list[str]) -> list[str]:
    """The sanitizers' report lines in the output of a run (ASan's, UBSan's)."""
    return [line for line in output if any(m in line for m in REPORT_MARKERS)]


def run_echoed(command: list[str], env: dict[str, str]) -> tuple[int, list[str]]:
    """Run ``command``, its output (stderr too, every process it starts) echoed and kept."""
    output = []
    with subprocess.Popen(
        command, cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True
    ) as process:
        assert process.stdout is not None
        for line in process.stdout:
            print(line, end="", flush=True)
            output.append(line)
    return process.returncode, output


def junit_counts(path: Path) -> dict[str, int]:
    """tests, failures, errors and skipped from pytest's JUnit XML (zeros if none was written)."""
    counts = {"tests": 0, "failures": 0, "errors": 0, "skipped": 0}
    if path.exists():
        for suite in ET.parse(path).getroot().iter("testsuite"):  # noqa: S314 - our own file
            for key in counts:
                counts[key] += int(suite.get(key, 0))
    return counts


def asan_env(out: Path) -> tuple[dict[str, str], Path]:
    """The ASan + UBSan build, and the environment that loads it in every process."""
    print("building solver._core with ASan + UBSan ...", flush=True)
    so = build(out / "asan", f"{SANITIZE} -g -O1", "-fsanitize=address,undefined")
    libasan = subprocess.run(
        ["gcc", "-print-file-name=libasan.so"], capture_output=True, text=True, check=True
    ).stdout.strip()
    env = preload(so, out / "asan")
    env |= {"LD_PRELOAD": libasan, "ASAN_OPTIONS": ASAN_OPTIONS, "UBSAN_OPTIONS": UBSAN_OPTIONS}
    env.pop("CI", None)  # the slow parity tests: the corpora step below covers the corpora
    return env, so


def verdict(step: str, returncode: int, output: list[str], facts: str, ok: bool) -> bool:
    """Print the step's sanitizer reports and its verdict line; True when clean."""
    reports = sanitizer_reports(output)
    for report in reports:
        print(f"  report: {report.rstrip()}")
    clean = ok and not reports and returncode == 0
    print(
        f"{step}: exit {returncode}; {facts}; {len(reports)} sanitizer report(s): "
        f"{'CLEAN' if clean else 'ERRORS FOUND'}",
        flush=True,
    )
    return clean


def run_asan_tests(env: dict[str, str], out: Path, examples: int | None, extra: list[str]) -> bool:
    """The native tests (the slow ones aside) under ASan + UBSan; True when clean."""
    junit = out / "asan" / "junit.xml"
    command = [sys.executable, "-m", "pytest", *TESTS, "-q", "-p", "no:cacheprovider"]
    command += ["-m", "not slow", f"--junitxml={junit}", *extra]
    if examples:
        env = {**env, "SUDOKU_TEST_EXAMPLES": str(examples)}
    returncode, output = run_echoed(command, env)
    c = junit_counts(junit)
    ran = c["tests"] - c["skipped"]
    facts = (
        f"{c['tests']} tests, {ran} ran, {c['failures']} failed, {c['errors']} errors, "
        f"{c['skipped']} skipped"
    )
    return verdict("ASan+UBSan tests", returncode, output, facts, ran > 0 and not c["skipped"])


def run_asan_corpora(env: dict[str, str]) -> bool:
    """Every puzzle of the shared collections through the sanitized core; True when clean."""
    data = Path(os.environ.get("SUDOKU_SHARED_DATA", ROOT.parent / "shared" / "data"))
    if not data.is_dir():
        print(f"ASan+UBSan corpora: {data} is not there: SKIPPED")
        return True
    returncode, output = run_echoed([sys.executable, "-c", CORPORA, str(data)], env)
    done = [line for line in output if line.startswith("corpora:")]
    facts = done[0].strip() if done else "did not finish"
    return verdict("ASan+UBSan corpora", returncode, output, facts, bool(done))


def valgrind_errors(xml: Path, so: Path) -> tuple[list[str], Counter[str]]:
    """Valgrind's errors that have a frame in the core (any of their stacks, the origin's
    too), described; and how many others there are (CPython's own, libc's), by kind and first
    function. Leak records are left out: CPython keeps its objects at exit by design."""
    core, other = [], Counter[str]()
    for error in ET.parse(xml).getroot().iter("error"):  # noqa: S314 - valgrind's own file
        kind = error.findtext("kind", "")
        if kind.startswith("Leak_"):
            continue
        what = error.findtext("what") or error.findtext("xwhat/text") or ""
        frames = list(error.iter("frame"))
        if not any(f.findtext("obj") == str(so) for f in frames):
            other[f"{kind} in {frames[0].findtext('fn', '?') if frames else '?'}"] += 1
            continue
        where = [
            f"{f.findtext('fn', '?')} ({f.findtext('file', Path(f.findtext('obj', '?')).name)}"
            f":{f.findtext('line', '?')})"
            for f in frames[:8]
        ]
        core.append(f"{kind}: {what}\n      " + "\n      ".join(where))
    return core, other


def run_valgrind(out: Path) -> bool:
    """The smaller workload under valgrind, on a plain build with debug info; True when no
    error touches the core (CPython's own valgrind noise is listed, not counted)."""
    if not shutil.which("valgrind"):
        print("valgrind: not installed (apt-get install valgrind): SKIPPED")
        return True
    print("building solver._core plainly (-g) for valgrind ...", flush=True)
    so = build(out / "plain", "-g", "")
    env = preload(so, out / "plain")
    xml = out / "plain" / "valgrind.xml"
    command = ["valgrind", f"--error-exitcode={VALGRIND_ERRORS}", "--track-origins=yes"]
    command += ["--leak-check=no"]  # CPython keeps its objects at exit by design
    command += ["--xml=yes", f"--xml-file={xml}", sys.executable, "-c", WORKLOAD]
    done = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True)
    print(done.stdout.strip() or done.stderr.strip())
    core, other = valgrind_errors(xml, so) if xml.exists() else ([], Counter[str]())
    for line in core:
        print(f"  in the core: {line}")
    for what, times in other.most_common():
        print(f"  elsewhere (not counted): {times} x {what}")
    finished = done.returncode in (0, VALGRIND_ERRORS) and f"core in use: {so}" in done.stdout
    clean = finished and not core
    print(
        f"valgrind: exit {done.returncode}; {len(core)} error(s) in the core, {other.total()} "
        f"elsewhere (CPython, libc: not counted): {'CLEAN' if clean else 'ERRORS FOUND'}",
        flush=True,
    )
    return clean


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--no-asan", action="store_true", help="skip the ASan + UBSan run")
    parser.add_argument("--no-valgrind", action="store_true", help="skip the valgrind run")
    parser.add_argument("--keep", action="store_true", help="keep the build directory")
    parser.add_argument("--examples", type=int, help="hypothesis examples per property")
    parser.add_argument("pytest_args", nargs="*", help="extra pytest arguments (after --)")
    args = parser.parse_args()
    out = Path(tempfile.mkdtemp(prefix="sudoku-sanitize-"))
    try:
        results = []
        if not args.no_asan:
            env, so = asan_env(out)
            in_use = loaded_core(env)
            print(f"core in use: {in_use}", flush=True)
            if in_use != f"native {so}":
                print("ASan+UBSan: the sanitized core is not the one loaded: ERRORS FOUND")
                results.append(False)
            else:
                results.append(run_asan_tests(env, out, args.examples, args.pytest_args))
                results.append(run_asan_corpora(env))
        if not args.no_valgrind:
            results.append(run_valgrind(out))
    finally:
        if args.keep:
            print(f"builds and logs kept in {out}")
        else:
            shutil.rmtree(out, ignore_errors=True)
    clean = all(results)
    print(f"verdict: {'no errors found' if clean else 'ERRORS FOUND'}")
    sys.exit(0 if clean else 1)


if __name__ == "__main__":
    main()
