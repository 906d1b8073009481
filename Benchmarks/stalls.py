"""Reading the first-frame probe's notes ($STALL_FILE: one "END_NS STALL_NS"
line per wait of the main loop over 2 ms), for the benchmarks that time
frames under load."""
import sys


def longest(path, start, end, debug=None):
    """The longest stall that ended between `start` and `end` (monotonic
    nanoseconds); 0 if none. With `debug` (a label), prints every stall over
    4 ms, in milliseconds from `start`, to standard error."""
    notes = [(int(finished), int(length)) for finished, length in (line.split() for line in open(path))]
    if debug is not None:
        print(debug, [(round((finished - start) / 1e6), round(length / 1e6, 1)) for finished, length in notes
                      if length > 4e6], file=sys.stderr)
    return max((length for finished, length in notes if start <= finished <= end), default=0)
