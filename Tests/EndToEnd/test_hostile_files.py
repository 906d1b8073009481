"""Hostile and damaged form files given to the real binary.

Each input is generated here as the test runs (no bomb is stored), then
given to `--describe-form`, to `--describe-instance` (which runs the form)
and to the app itself (`survey-form FILE`), each
under a timeout and an address-space limit. The promise, stated in the
README's benchmark table: a clear refusal (exit 2, a message naming the file)
or a correct description, never a signal or a hang, within 10 s and a peak
resident size of at most 4 x the file's size + 100 MiB.
"""

import os
import signal
import struct
import subprocess
import zlib
from pathlib import Path

import pytest

SECONDS = 10
MIB = 1 << 20
# Past any bound the test states; keeps a runaway from taking the machine.
ADDRESS_SPACE = 8 << 30

NS = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"
REL = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"


# ---------------------------------------------------------------------------
# Running the binary with limits


def run_limited(args, env, tmp: Path):
    """Runs the binary under prlimit: (exit status or -signal, stdout,
    stderr, its own peak resident size in KiB).

    The peak comes from GNU time, which forks the binary from its own small
    process: a child forked from this test would count the test's memory
    too (Linux keeps the larger peak across exec)."""
    out_path, err_path, peak_path = tmp / "stdout", tmp / "stderr", tmp / "peak"
    with out_path.open("wb") as out, err_path.open("wb") as err:
        process = subprocess.Popen(
            ["/usr/bin/time", "-f", "%x %M", "-o", str(peak_path),
             "prlimit", f"--as={ADDRESS_SPACE}", "--core=0", "--", os.environ["SURVEY_FORM_BINARY"], *args],
            env=env, stdout=out, stderr=err, stdin=subprocess.DEVNULL, start_new_session=True,
        )
    try:
        process.wait(timeout=SECONDS)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        process.wait()
        pytest.fail(f"{args} still running after {SECONDS} s: a hang")
    # "Command terminated by signal N" comes first when the binary died of one.
    report = peak_path.read_text().strip().splitlines()
    status, peak = report[-1].split()
    if report[0].startswith("Command terminated by signal"):
        status = -int(report[0].split()[-1])
    return int(status), out_path.read_bytes(), err_path.read_bytes(), int(peak)


def check(path: Path, env, expect, tmp: Path):
    """Describes `path`, and opens it unless it is valid: both refuse with a
    message naming it, or, when `expect` is None, it is described. Within
    the time and memory bound."""
    size = path.stat().st_size if path.is_file() else 0
    bound_kib = (4 * size + 100 * MIB) // 1024
    runs = [["--describe-form", str(path)], ["--describe-instance", str(path)]] + ([[str(path)]] if expect is not None else [])
    for args in runs:
        status, out, err, peak = run_limited(args, env, tmp)
        assert status >= 0, f"{args}: killed by signal {-status}: {err[-2000:]!r}"
        if expect is None:
            assert status == 0, (args, err[-2000:])
        else:
            assert status == 2, (args, status, err[-2000:])
            text = err.decode("utf-8", "replace")
            assert path.name in text or "row" in text, text
            assert expect in text, text
            assert b"\x1b" not in err, "control characters reach the terminal escaped"
        assert peak <= bound_kib, f"{args}: peak {peak} KiB, bound {bound_kib} KiB"


# ---------------------------------------------------------------------------
# Making workbooks


class Zip:
    """A zip archive written by hand, so that a part can be cut short or its
    sizes can lie; deflated parts are streamed, so a bomb is never held."""

    def __init__(self):
        self.local = bytearray()
        self.directory = bytearray()
        self.count = 0

    def add(self, name, data=b"", *, chunks=None, keep=None, claimed=None):
        """`chunks`: an iterable of bytes deflated in turn instead of `data`;
        `keep`: keep only that many packed bytes; `claimed`: the size to claim."""
        deflater = zlib.compressobj(9, zlib.DEFLATED, -15)
        crc, size, packed = 0, 0, bytearray()
        for chunk in (chunks if chunks is not None else [data]):
            crc = zlib.crc32(chunk, crc)
            size += len(chunk)
            packed += deflater.compress(chunk)
        packed += deflater.flush()
        if keep is not None:
            packed = packed[:keep]
        claimed = size if claimed is None else claimed
        raw_name = name.encode()
        offset = len(self.local)
        self.local += struct.pack("<IHHHHHIIIHH", 0x04034B50, 20, 0, 8, 0, 0, crc, len(packed), claimed, len(raw_name), 0)
        self.local += raw_name + packed
        self.directory += struct.pack("<IHHHHHHIIIHHHHHII", 0x02014B50, 20, 20, 0, 8, 0, 0, crc, len(packed), claimed,
                                      len(raw_name), 0, 0, 0, 0, 0, offset) + raw_name
        self.count += 1
        return self

    def bytes(self):
        end = struct.pack("<IHHHHIIH", 0x06054B50, 0, 0, self.count, self.count, len(self.directory), len(self.local), 0)
        return bytes(self.local + self.directory + end)


def inline(reference, text):
    return f'<c r="{reference}" t="inlineStr"><is><t>{text}</t></is></c>'


SURVEY_ROWS = (
    f'<row r="1">{inline("A1", "type")}{inline("B1", "name")}{inline("C1", "label")}</row>'
    f'<row r="2">{inline("A2", "text")}{inline("B2", "a")}{inline("C2", "A")}</row>'
)


def workbook(sheet_data=SURVEY_ROWS, sheets=("survey",), extra=None, **sheet_options):
    zip_file = Zip()
    listed = "".join(f'<sheet name="{name}" sheetId="{i + 1}" r:id="rId1"/>' for i, name in enumerate(sheets))
    zip_file.add("xl/workbook.xml", f'<workbook xmlns="{NS}" xmlns:r="{REL}"><sheets>{listed}</sheets></workbook>'.encode())
    zip_file.add("xl/_rels/workbook.xml.rels",
                 b'<Relationships><Relationship Id="rId1" Target="worksheets/sheet1.xml"/></Relationships>')
    zip_file.add("xl/worksheets/sheet1.xml",
                 f'<worksheet xmlns="{NS}"><sheetData>{sheet_data}</sheetData></worksheet>'.encode(), **sheet_options)
    if extra:
        extra(zip_file)
    return zip_file.bytes()


def write(tmp_path, name, data):
    path = tmp_path / name
    path.write_bytes(data if isinstance(data, bytes) else data.encode())
    return path


# ---------------------------------------------------------------------------
# The inputs


def test_a_valid_workbook_is_described_and_opens(profile, tmp_path):
    check(write(tmp_path, "fine.xlsx", workbook()), profile.environment(), None, tmp_path)


@pytest.mark.parametrize("keep", [1, 40, 97])
def test_a_half_downloaded_workbook_is_refused_not_inflated_for_ever(profile, tmp_path, keep):
    # The deflate stream stops early; the directory is whole and says otherwise.
    rows = SURVEY_ROWS * 40
    deflater = zlib.compressobj(9, zlib.DEFLATED, -15)
    sheet = f'<worksheet xmlns="{NS}"><sheetData>{rows}</sheetData></worksheet>'.encode()
    full = len(deflater.compress(sheet) + deflater.flush())
    data = workbook(rows, keep=max(1, full * keep // 100))
    check(write(tmp_path, "half.xlsx", data), profile.environment(), "cut short", tmp_path)


def test_a_download_that_stopped_anywhere_is_refused(profile, tmp_path):
    data = workbook(SURVEY_ROWS * 40)
    for fraction in (10, 50, 90, 99):
        check(write(tmp_path, f"cut{fraction}.xlsx", data[: len(data) * fraction // 100]), profile.environment(),
              "not a readable .xlsx workbook", tmp_path)


def test_a_small_workbook_that_inflates_to_gigabytes_is_refused(profile, tmp_path):
    # About 1 MB on disk, a gigabyte of zeros inside: streamed into the file, never held.
    zeros = (bytes(MIB) for _ in range(1024))
    data = workbook(extra=lambda z: z.add("xl/sharedStrings.xml", chunks=zeros))
    check(write(tmp_path, "bomb.xlsx", data), profile.environment(), "would unpack to more than 32 MB", tmp_path)


def test_a_part_claiming_a_small_size_is_still_stopped_at_the_limit(profile, tmp_path):
    zeros = (bytes(MIB) for _ in range(64))
    data = workbook(extra=lambda z: z.add("xl/sharedStrings.xml", chunks=zeros, claimed=10))
    check(write(tmp_path, "liar.xlsx", data), profile.environment(), "would unpack to more than 32 MB", tmp_path)


@pytest.mark.parametrize("reference", ["ZZZZZZ3", "Z" * 20 + "3"])
def test_a_cell_beyond_the_last_column_is_refused_with_its_row(profile, tmp_path, reference):
    data = workbook(SURVEY_ROWS + f'<row r="3">{inline(reference, "x")}</row>')
    check(write(tmp_path, "wide.xlsx", data), profile.environment(), "sheet 'survey' row 3: a cell lies beyond the last column", tmp_path)


@pytest.mark.parametrize("number", ["9223372036854775807", "9" * 30])
def test_a_row_numbered_near_int_max_is_refused(profile, tmp_path, number):
    data = workbook(SURVEY_ROWS + f'<row r="{number}">{inline("A1", "x")}</row>')
    check(write(tmp_path, "rows.xlsx", data), profile.environment(), "beyond the last row a spreadsheet has", tmp_path)


def test_twenty_thousand_sheets_sharing_one_part_are_refused(profile, tmp_path):
    data = workbook(sheets=[f"s{i}" for i in range(20_000)])
    check(write(tmp_path, "sheets.xlsx", data), profile.environment(), "it has 20000 sheets", tmp_path)


def test_forty_million_empty_shared_strings_are_refused(profile, tmp_path):
    strings = (b"<si/>" * (MIB // 5) for _ in range(200))
    data = workbook(extra=lambda z: z.add("xl/sharedStrings.xml", chunks=strings))
    check(write(tmp_path, "strings.xlsx", data), profile.environment(), "more than", tmp_path)


def test_a_million_term_expression_is_refused_when_the_form_opens(profile, tmp_path):
    form = "| survey |\n| | type | name | label | calculation |\n| | calculate | c | | " + "+".join(["1"] * 1_000_000) + " |\n"
    path = write(tmp_path, "flat.md", form)
    env = profile.environment()
    # Describing does not evaluate; opening checks every expression and refuses with its row.
    status, _, err, _ = run_limited(["--describe-form", str(path)], env, tmp_path)
    assert status == 0, err[-2000:]
    status, _, err, _ = run_limited([str(path)], env, tmp_path)
    assert status == 2, err[-2000:]
    assert b"nested too deeply" in err and b"row 2" in err, err[-2000:]


def test_a_csv_naming_300000_sheets_or_columns_is_refused(profile, tmp_path):
    env = profile.environment()
    check(write(tmp_path, "sheets.csv", "".join(f"s{i},\n" for i in range(300_000))), env, "more than 1000 sheets", tmp_path)
    columns = ",".join(f"x{i}" for i in range(300_000))
    check(write(tmp_path, "columns.csv", f"survey,type,name,label,{columns}\n,text,a,A\n"), env, "more than 16384 cells", tmp_path)


def test_a_fifo_or_a_link_to_dev_zero_is_refused_without_waiting(profile, tmp_path):
    fifo = tmp_path / "x.csv"
    os.mkfifo(fifo)
    check(fifo, profile.environment(), "not a regular file", tmp_path)
    zero = tmp_path / "zero.csv"
    zero.symlink_to("/dev/zero")
    check(zero, profile.environment(), "not a regular file", tmp_path)


def test_a_file_larger_than_any_form_is_refused_unread(profile, tmp_path):
    big = tmp_path / "big.csv"
    with big.open("wb") as file:
        file.truncate(1280 * MIB)  # sparse: nothing is written
    status, _, err, _ = run_limited(["--describe-form", str(big)], profile.environment(), tmp_path)
    assert status == 2 and b"is at most 64 MB" in err, err


def test_escape_sequences_in_a_cell_reach_the_terminal_escaped(profile, tmp_path):
    # Clearing the screen and writing the clipboard (OSC 52), as a question type.
    hostile = "\x1b[2J\x1b]52;c;SGVsbG8=\x07"
    path = write(tmp_path, "escape.md", f"| survey |\n| | type | name | label |\n| | {hostile} | a | A |\n")
    check(path, profile.environment(), "\\x1B]52;c;SGVsbG8=\\x07", tmp_path)


def test_a_markdown_form_saved_with_windows_line_ends_is_read(profile, tmp_path):
    path = write(tmp_path, "crlf.md", "| survey |\r\n| | type | name | label |\r\n| | text | a | A |\r\n")
    status, out, err, _ = run_limited(["--describe-form", str(path)], profile.environment(), tmp_path)
    assert status == 0, err
    assert b'"name":"a"' in out


def test_groups_nested_past_pyxforms_depth_are_refused(profile, tmp_path):
    depth = 5_000
    form = ("| survey |\n| | type | name | label |\n" + "".join(f"| | begin group | g{i} | G |\n" for i in range(depth))
            + "| | text | a | A |\n" + "| | end group | | |\n" * depth)
    check(write(tmp_path, "deep.md", form), profile.environment(), "nest more than 490 deep", tmp_path)


def test_a_loop_over_a_huge_list_is_refused_not_expanded(profile, tmp_path):
    # Two survey lines over 15,000 choices would be 30,000 questions; the
    # same two over a million would be two million.
    choices = "".join(f"| | big | c{i} | C{i} |\n" for i in range(15_000))
    form = ("| survey |\n| | type | name | label |\n| | begin loop over big | each | Each |\n"
            "| | integer | n | How many %(label)s? |\n| | end loop | | |\n"
            "| choices |\n| | list_name | name | label |\n" + choices)
    check(write(tmp_path, "loop-bomb.md", form), profile.environment(), "loops may make 20000 at most", tmp_path)


XFORM_HEAD = ('<h:html xmlns="http://www.w3.org/2002/xforms" xmlns:h="http://www.w3.org/1999/xhtml">'
              '<h:head><h:title>T</h:title><model><instance><data id="t">')
XFORM_TAIL = ('</data></instance><bind nodeset="/data/a" type="string"/></model></h:head>'
              '<h:body><input ref="/data/a"><label>A</label></input></h:body></h:html>')


def test_a_valid_xform_is_described_and_opens(profile, tmp_path):
    check(write(tmp_path, "plain.xml", XFORM_HEAD + "<a/>" + XFORM_TAIL), profile.environment(), None, tmp_path)


def test_an_xform_of_millions_of_elements_is_refused_within_bounds(profile, tmp_path):
    # Two and a half million empty elements in 10 MB: past the element
    # limit, each read into the tree until the count stops it, within the
    # memory bound (a first cut at two million went past it).
    path = tmp_path / "elements.xml"
    with path.open("w") as out:
        out.write(XFORM_HEAD + "<a/>")
        for _ in range(250):
            out.write("<b/>" * 10_000)
        out.write(XFORM_TAIL)
    check(path, profile.environment(), "more than 1000000 elements", tmp_path)


def test_an_xform_nested_past_the_xml_depth_is_refused(profile, tmp_path):
    deep = "<g>" * 100_000 + "</g>" * 100_000
    check(write(tmp_path, "deep.xml", XFORM_HEAD + "<a/>" + deep + XFORM_TAIL), profile.environment(),
          "nests elements more than 64 deep", tmp_path)


def test_an_xform_declaring_entities_expands_none_of_them(profile, tmp_path):
    # The billion laughs: ten entities of ten references each. The reader
    # decodes XML's five predefined entities and numeric ones, nothing declared.
    entities = '<!ENTITY lol "lol">' + "".join(
        f'<!ENTITY lol{i} "{("&lol" + (str(i - 1) if i > 1 else "") + ";") * 10}">' for i in range(1, 10))
    form = f'<?xml version="1.0"?><!DOCTYPE h:html [{entities}]>' + XFORM_HEAD.replace(
        "<h:title>T</h:title>", "<h:title>&lol9;</h:title>") + "<a/>" + XFORM_TAIL
    path = write(tmp_path, "laughs.xml", form)
    status, out, err, peak = run_limited(["--describe-form", str(path)], profile.environment(), tmp_path)
    assert status in (0, 2), err
    assert len(out) < 10_000, "no entity was expanded"
    assert peak <= (100 * MIB) // 1024
