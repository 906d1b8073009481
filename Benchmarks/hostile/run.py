#!/usr/bin/env python3
"""`--describe-form` on hostile inputs beside the valid 5,000-question workbook.

    python hostile/run.py BIN RESULTS_DIR    (the python of build-aux/pyxform-env)

The hostile inputs are those of Tests/EndToEnd/test_hostile_files.py, made
the same way as this runs (no bomb is stored). For each: its size, the peak
resident size of the process (wait4) and its wall time; the README's row
gives the worst of them against the promise (4 x the file's size + 100 MiB,
10 s) and beside the valid workbook's own figures. Writes RESULTS/hostile.tsv.
"""

import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

here = Path(__file__).resolve().parent
sys.path.insert(0, str(here.parent.parent / "Tests/EndToEnd"))
import test_hostile_files as hostile  # noqa: E402

MIB = 1 << 20


def measure(binary, path, work):
    """Median wall time and largest peak (KiB) of three runs. The peak is GNU
    time's: it forks the binary from its own small process, where a child of
    this script would count the script's memory too."""
    times, peaks = [], []
    for _ in range(3):
        start = time.perf_counter()
        subprocess.run(["/usr/bin/time", "-f", "%x %M", "-o", str(work / "peak"), binary, "--describe-form", str(path)],
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        times.append(time.perf_counter() - start)
        report = (work / "peak").read_text().strip().splitlines()
        assert not report[0].startswith("Command terminated by signal"), f"{path.name}: {report[0]}"
        peaks.append(int(report[-1].split()[1]))
    return statistics.median(times), max(peaks)


def inputs(folder: Path):
    z = hostile
    rows = z.SURVEY_ROWS * 40
    made = {
        "half-downloaded.xlsx": z.workbook(rows, keep=200),
        "bomb-1GiB.xlsx": z.workbook(extra=lambda w: w.add("xl/sharedStrings.xml", chunks=(bytes(MIB) for _ in range(1024)))),
        "liar-64MiB.xlsx": z.workbook(extra=lambda w: w.add("xl/sharedStrings.xml", chunks=(bytes(MIB) for _ in range(64)),
                                                              claimed=10)),
        "column-ZZZZZZ.xlsx": z.workbook(z.SURVEY_ROWS + f'<row r="3">{z.inline("ZZZZZZ3", "x")}</row>'),
        "row-near-int-max.xlsx": z.workbook(z.SURVEY_ROWS + f'<row r="9223372036854775807">{z.inline("A1", "x")}</row>'),
        "20000-sheets.xlsx": z.workbook(sheets=[f"s{i}" for i in range(20_000)]),
        "40M-shared-strings.xlsx": z.workbook(extra=lambda w: w.add("xl/sharedStrings.xml",
                                                                     chunks=(b"<si/>" * (MIB // 5) for _ in range(200)))),
        "million-term-sum.md": ("| survey |\n| | type | name | label | calculation |\n| | calculate | c | | "
                                + "+".join(["1"] * 1_000_000) + " |\n").encode(),
        "300000-sheets.csv": "".join(f"s{i},\n" for i in range(300_000)).encode(),
        "300000-columns.csv": ("survey,type,name,label," + ",".join(f"x{i}" for i in range(300_000)) + "\n,text,a,A\n").encode(),
        "5000-nested-groups.md": ("| survey |\n| | type | name | label |\n"
                                  + "".join(f"| | begin group | g{i} | G |\n" for i in range(5000))
                                  + "| | text | a | A |\n" + "| | end group | | |\n" * 5000).encode(),
    }
    for name, data in made.items():
        (folder / name).write_bytes(data)
        yield folder / name


def main():
    binary, results = sys.argv[1], Path(sys.argv[2])
    results.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as work:
        work = Path(work)
        valid = work / "form-5000.xlsx"
        subprocess.run([sys.executable, str(here.parent / "forms/make-large-form.py"), "5000", str(valid)], check=True)
        lines = []
        seconds, peak = measure(binary, valid, work)
        lines.append(f"valid\t{valid.stat().st_size}\t{seconds:.4f}\t{peak}")
        for path in inputs(work):
            seconds, peak = measure(binary, path, work)
            lines.append(f"{path.name}\t{path.stat().st_size}\t{seconds:.4f}\t{peak}")
    (results / "hostile.tsv").write_text("\n".join(lines) + "\n")
    worst = max((line.split("\t") for line in lines[1:]),
                key=lambda f: int(f[3]) * 1024 / (4 * int(f[1]) + 100 * MIB))
    slowest = max((line.split("\t") for line in lines[1:]), key=lambda f: float(f[2]))
    print("\n".join(lines))
    print(f"worst memory: {worst[0]} {int(worst[3]) / 1024:.1f} MiB of {(4 * int(worst[1]) + 100 * MIB) / MIB:.1f} MiB allowed")
    print(f"slowest: {slowest[0]} {float(slowest[2]):.3f} s")


if __name__ == "__main__":
    main()
