#!/usr/bin/env python3
"""Prints the seconds pyxform takes to read an XLSForm into its json form
(workbook → dict, with its checks; not the XForm XML): the median of 3 runs.

    time-pyxform.py FORM

Run with the python of build-aux/pyxform-env.
"""

import statistics
import sys
import time

from pyxform.xls2json import parse_file_to_json


def main() -> None:
    if len(sys.argv) != 2:
        sys.exit("usage: time-pyxform.py FORM")
    seconds = []
    for _ in range(3):
        start = time.perf_counter()
        parse_file_to_json(sys.argv[1])
        seconds.append(time.perf_counter() - start)
    print(f"{statistics.median(seconds):.3f}")


if __name__ == "__main__":
    main()
