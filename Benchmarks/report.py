#!/usr/bin/env python3
"""Turns one run's results into one Markdown table (used by Benchmarks/run).

Inputs, all from the same run:
  RESULTS/core, RESULTS/gtk  histogramPercentiles exports of ordo-one/benchmark
                             (one file per benchmark and metric; p50 is used)
  RESULTS/scale.tsv          lines of Benchmarks/scale-form
  RESULTS/coldstart.tsv      "app|c <ns>" lines, one per launch
  RESULTS/firstframe-form.tsv  the same, for a 1,000-question form
  RESULTS/firstframe-many.tsv  the same, over 100,000 stored responses ("c": none)
  RESULTS/firstframe-public.tsv  the same, for the public form Q1309_BEHAVE and its media
  RESULTS/public-widgets.tsv "app|c N" widgets written from each window's page at
                             its first frame; "pictures|shown N" (Benchmarks/forms/window)
  RESULTS/frames.tsv         lines of Benchmarks/forms/frames.py
  RESULTS/forms.tsv          lines of Benchmarks/forms/run
  RESULTS/hostile.tsv        lines of Benchmarks/hostile/run.py
  RESULTS/export.tsv         lines of Benchmarks/export/run
  RESULTS/sync.tsv           lines of Benchmarks/sync/run
  RESULTS/drain.tsv          lines of Benchmarks/sync/drain.py
  RESULTS/openrosa.tsv       lines of Benchmarks/sync/openrosa

Every benchmark does K operations per measured iteration (" xK" ends its
name); figures are per operation, after subtracting the harness's own cost
(the "baseline: empty body" benchmark of the same target).
"""
import os
import re
import statistics
import sys

results = sys.argv[1]
UNITS = {"": 1, "K": 1e3, "M": 1e6, "G": 1e9}


def load(directory):
    """{benchmark name: {metric: p50 of one iteration}}"""
    table = {}
    for file in os.listdir(directory):
        match = re.match(r"[^.]+\.[^.]+\.(.+)\.(wallClock|instructions|mallocCountTotal)\.histogram\.percentiles\.tsv$", file)
        if not match:
            continue
        name, metric = match.group(1).replace("_", " "), match.group(2)
        with open(os.path.join(directory, file)) as handle:
            header = handle.readline()
            rows = dict(line.split("\t") for line in handle.read().split("\n") if "\t" in line)
        unit = re.search(r"\((K|M|G)\)", header)
        factor = UNITS[unit.group(1)] if unit and metric != "wallClock" else 1
        table.setdefault(name, {})[metric] = float(rows["50"]) * factor
    return table


def per_op(table):
    """Per-operation figures, the empty-body baseline subtracted."""
    base = next((v for k, v in table.items() if k.startswith("baseline")), {})
    out = {}
    for name, metrics in table.items():
        match = re.search(r" x(\d+)$", name)
        if not match or name.startswith("baseline"):
            continue
        ops = int(match.group(1))
        short = name[: match.start()]
        out[short] = {m: max(v - base.get(m, 0), 0) / ops for m, v in metrics.items()}
    return out


def load_callgrind(directory):
    """{benchmark name: {"instructions": Ir}} from the dumps gtk-instructions
    asked callgrind for, one per case: the main thread's (`-01`) where
    callgrind wrote one per thread."""
    table = {}
    if not os.path.isdir(directory):
        return table
    files = os.listdir(directory)
    if any(file.endswith("-01") for file in files):
        files = [file for file in files if file.endswith("-01")]
    for file in files:
        name = total = None
        with open(os.path.join(directory, file), errors="replace") as handle:
            for line in handle:
                if line.startswith("desc: Trigger: Client Request: "):
                    # As load() reads the benchmark tool's file names.
                    name = line.split(": ", 3)[3].strip().replace("_", " ")
                elif line.startswith("totals:") or (total is None and line.startswith("summary:")):
                    total = float(line.split()[1])
        if name and total is not None:
            table[name] = {"instructions": total}
    return table


def find(table, prefix):
    prefix = prefix.replace("_", " ")  # file names carry "_" for " "
    for name, value in table.items():
        if name.startswith(prefix):
            return value
    raise KeyError(prefix)


def ns(value):
    return f"{value:,.1f} ns" if value < 10_000 else f"{value / 1000:,.1f} µs"


def fig(m):
    instr = m.get("instructions", 0)
    instr_text = f"{instr:,.0f} instr" if instr > 0 else "instr n/a"
    if instr > 0 and m.get("counter"):
        instr_text += f" ({m['counter']})"
    return f"{ns(m['wallClock'])} · {instr_text} · {m.get('mallocCountTotal', 0):.2f} mallocs"


NO_COUNTER = "n/a: no instruction counter"


def verdict(ok):
    if isinstance(ok, str):
        return ok
    return "✅ holds" if ok else "❌ missed"


rows = []


def row(what, ours, peer_name, peer, ratio, target, ok):
    rows.append((what, ours, peer_name, peer, ratio, target, verdict(ok) if ok is not None else "—"))


core = per_op(load(os.path.join(results, "core")))
oc = lambda prefix: find(core, "OpenCombine: " + prefix)
us = lambda prefix: find(core, "ours: " + prefix)

s1, s2, s10 = us("set, 1 "), us("set, 2 "), us("set, 10 ")
o1, o2, o10 = oc("send, 1 "), oc("send, 2 "), oc("send, 10 ")
t = lambda m: m["wallClock"]
row("Observable set, 1 observer", fig(s1), "CurrentValueSubject.send, 1 sink", fig(o1),
    f"{t(s1) / t(o1):.2f}×", "≤ 40 ns and ≤ ⅓ of OpenCombine", t(s1) <= 40 and t(s1) <= t(o1) / 3)
extra2 = t(s2) - t(s1)
row("Observable set, 2 observers", fig(s2), "send, 2 sinks", fig(o2),
    f"{t(s2) / t(o2):.2f}×", f"extra observer ≤ 15 ns (is {extra2:.1f} ns)", extra2 <= 15)
extra10 = (t(s10) - t(s1)) / 9
row("Observable set, 10 observers", fig(s10), "send, 10 sinks", fig(o10),
    f"{t(s10) / t(o10):.2f}×", f"each extra observer ≤ 15 ns (is {extra10:.1f} ns)", extra10 <= 15)
eq, oeq = us("equal-value set"), oc("equal-value send")
row("Equal-value set (no notification)", fig(eq), "send through removeDuplicates", fig(oeq),
    f"{t(eq) / t(oeq):.2f}×", "≤ 2 ns", t(eq) <= 2)
sc, osc = us("subscribe and cancel"), oc("sink and cancel")
row("Subscribe and cancel", fig(sc), "sink and cancel", fig(osc),
    f"{t(sc) / t(osc):.2f}×", "≤ 50 ns", t(sc) <= 50)
dv, odv = us("derived recompute"), oc("map, removeDuplicates")
row("Derived value recompute (set → map → observer)", fig(dv), "map + removeDuplicates + sink", fig(odv),
    f"{t(dv) / t(odv):.2f}×", "(no target)", None)
bt, obt = us("batch of 4"), oc("4 sends")
row("Batch of 4 changes (4 observers + 1 derived sum)", fig(bt), "4 sends + sum subject", fig(obt),
    f"{t(bt) / t(obt):.2f}×", "(no target)", None)
notifying = {"set, 1": s1, "set, 2": s2, "set, 10": s10, "derived": dv}
worst = max(m.get("mallocCountTotal", 0) for m in notifying.values())
row("Allocations per notification (sets, derived)", f"max {worst:.4f} mallocs/op", "OpenCombine send, 1 sink",
    f"{o1.get('mallocCountTotal', 0):.4f} mallocs/op", "—", "0 (< 0.01 after the harness's own)", worst < 0.01)

gtk_dir = os.path.join(results, "gtk")
if os.path.isdir(gtk_dir):
    gtk = per_op(load(gtk_dir))
    # Where perf counts no instructions, callgrind's count of the same cases.
    for name, counted in per_op(load_callgrind(os.path.join(results, "callgrind"))).items():
        if name in gtk and not gtk[name].get("instructions"):
            gtk[name]["instructions"] = counted["instructions"]
            gtk[name]["counter"] = "callgrind"
    g = lambda prefix: find(gtk, prefix)
    i = lambda m: m.get("instructions", 0)

    def ratios(a, b):
        time_ratio = t(a) / t(b)
        instr_ratio = i(a) / i(b) if i(b) else float("nan")
        return time_ratio, instr_ratio, f"{time_ratio:.3f}× time, {instr_ratio:.3f}× instr"

    def by_instructions(ratio, holds):
        """A verdict from an instruction ratio; none where the machine counts
        no instructions (perf stat: "instructions <not supported>")."""
        return NO_COUNTER if ratio != ratio else holds(ratio)

    for widget, raw_name in (("spin button", "raw gtk_spin_button_set_value"), ("entry", "raw gtk_editable_set_text")):
        ours, raw, gb = g(f"model → {widget}: ours"), g(f"model → {widget}: raw"), g(f"model → {widget}: GBinding")
        tr, ir, text = ratios(ours, raw)
        row(f"Model → {widget}, our binding", fig(ours), raw_name, fig(raw), text,
            "≤ 1.05× the raw setter (instructions)", by_instructions(ir, lambda r: r <= 1.05))
        tr, ir, text = ratios(ours, gb)
        row(f"Model → {widget}, our binding", fig(ours), "GBinding (g_object_bind_property)", fig(gb), text,
            "cheaper than GBinding (instructions)", by_instructions(ir, lambda r: r < 1))
    ours_entry, two_way = g("model → entry: ours"), g("model → entry: two-way GBinding")
    rows.append(("Model → entry, our binding", fig(ours_entry), "GBinding both ways (G_BINDING_BIDIRECTIONAL)",
                 fig(two_way), ratios(ours_entry, two_way)[2],
                 "(both listen to the entry, as a two-way binding must)", "—"))
    raw_entry = g("model → entry: raw gtk")
    alone = g("model → entry: Entry.updateValue alone")
    rows.append(("Model → entry, the GTK layer's Entry.updateValue alone (no binding)", fig(alone),
                 "raw gtk_editable_set_text", fig(raw_entry), ratios(alone, raw_entry)[2],
                 "(where the entry gap is)", "—"))
    cursor = g("model → entry: raw set_text keeping")
    rows.append(("Model → entry, raw C: set_text + cursor put back as Entry.updateValue does", fig(cursor),
                 "raw gtk_editable_set_text", fig(raw_entry), ratios(cursor, raw_entry)[2],
                 "(the cursor move costs GTK a second relayout)", "—"))
    ours_entry = g("model → entry: ours")
    rows.append(("Model → entry, binding engine over Entry.updateValue", fig(ours_entry),
                 "Entry.updateValue alone", fig(alone), ratios(ours_entry, alone)[2],
                 "(the engine's own share)", "—"))
    for widget, bare_name in (("spin button", "bare value-changed handler"), ("entry", "bare notify::text handler")):
        ours, bare, gb = g(f"{widget} → model: ours"), g(f"{widget} → model: bare"), g(f"{widget} → model: GBinding")
        tr, ir, text = ratios(ours, bare)
        row(f"{widget.capitalize()} → model, our binding", fig(ours), bare_name, fig(bare), text,
            "≤ 1.05× a bare handler (instructions)", by_instructions(ir, lambda r: r <= 1.05))
        rows.append((f"{widget.capitalize()} → model, our binding", fig(ours), "GBinding", fig(gb),
                     ratios(ours, gb)[2], "(no target)", "—"))

    small, large = g("list change at the top, 100 items: ours"), g("list change at the top, 100000 items: ours")
    gtk_small = g("list change at the top, 100 items: GtkStringList")
    gtk_large = g("list change at the top, 100000 items: GtkStringList")
    plain_small = g("list change at the top, 100 items: GtkListView alone")
    plain_large = g("list change at the top, 100000 items: GtkListView alone")
    # As the other GTK rows: the verdict from instructions, the time beside.
    tr, ir, text = ratios(large, small)
    row("An insertion or removal at the top of an ObservableList shown in a GtkListView, 100,000 items", fig(large),
        "the same at 100 items", fig(small), text,
        "≤ 1.2× (cost independent of the list's length)", by_instructions(ir, lambda r: r <= 1.2))
    middle = g("list change at the top, 1000 items: ours")
    rows.append(("The same, 100,000 items", fig(large), "the same at 1,000 items", fig(middle),
                 ratios(large, middle)[2], "(the list's length alone: GTK keeps as many rows at both)", "—"))
    rows.append(("The same with GTK's own GtkStringList (C), 100,000 items", fig(gtk_large),
                 "GtkStringList at 100 items", fig(gtk_small), ratios(gtk_large, gtk_small)[2],
                 "(what GTK 4.8 itself does)", "—"))
    rows.append(("GtkListView alone, rows that bind nothing (C), 100,000 items", fig(plain_large),
                 "the same at 100 items", fig(plain_small), ratios(plain_large, plain_small)[2],
                 "(GTK 4.8's floor: it updates every row it keeps)", "—"))
    rows.append(("ObservableList and ListView beside GtkStringList, 100,000 items", fig(large),
                 "GtkStringList, 100,000 items", fig(gtk_large), ratios(large, gtk_large)[2],
                 "(no target)", "—"))

    ours_date, raw_date = g("model → date picker: ours"), g("model → date picker: raw")
    rows.append(("Model → date picker (GtkCalendar), our binding", fig(ours_date),
                 "raw gtk_calendar_select_day", fig(raw_date), ratios(ours_date, raw_date)[2],
                 "(no target)", "—"))
    ours_radio, raw_radio = g("model → radio group: ours"), g("model → radio group: raw")
    rows.append(("Model → radio group of four check buttons, our binding", fig(ours_radio),
                 "raw gtk_check_button_set_active", fig(raw_radio), ratios(ours_radio, raw_radio)[2],
                 "(no target)", "—"))
    getset = g("model → entry: Binding(get:set:)")
    rows.append(("Model → entry through Binding(get:set:) over a struct field", fig(getset),
                 "our binding to an Observable", fig(ours_entry), ratios(getset, ours_entry)[2],
                 "(no target)", "—"))

scale_file = os.path.join(results, "scale.tsv")
if os.path.exists(scale_file):
    scale = {}
    for line in open(scale_file):
        parts = line.split()
        if parts and parts[0] == "scale":
            n, bind, heap, rss, update = map(int, parts[1:6])
            scale[n] = (bind / n, heap / n, update / n)
    if 100 in scale:
        base_time, base_heap, _ = scale[100]
        for n in sorted(scale):
            bind, heap, update = scale[n]
            ok = bind <= 1.5 * base_time and heap <= 1.5 * base_heap
            row(f"Bind a generated form, N = {n:,}",
                f"{ns(bind)}/widget to bind · {heap:,.0f} B/widget kept · {ns(update)}/widget to update",
                "per-widget cost at N = 100", f"{ns(base_time)} · {base_heap:,.0f} B",
                f"{bind / base_time:.2f}× time, {heap / base_heap:.2f}× memory",
                "linear: per-widget cost ≤ 1.5× that at N = 100", ok)

def figures(name):
    """A "kind who value" file of the run as {(kind, who): value}; {} when absent."""
    path = os.path.join(results, name)
    if not os.path.exists(path):
        return {}
    return {(kind, who): float(value) for kind, who, value in (line.split() for line in open(path))}


forms = figures("forms.tsv")
if forms:
    ours, peer = forms.get(("parse", "ours")), forms.get(("parse", "pyxform"))
    if ours and peer:
        row("Read and check a generated 5,000-question .xlsx", f"{ours * 1000:,.1f} ms",
            "pyxform 4.5.0 xls2json, same file", f"{peer * 1000:,.0f} ms",
            f"{peer / ours:.1f}× faster", "≥ 20× faster", peer / ours >= 20)
    small, large = forms.get(("change", "100")), forms.get(("change", "10000"))
    if small and large:
        row("One answer change, 10,000-question form", ns(large),
            "the same change, 100-question form", ns(small),
            f"{large / small:.2f}×", "≤ 1.2× (cost follows dependents)", large / small <= 1.2)

# name, bytes, seconds, peak KiB per line (Benchmarks/hostile/run.py).
hostile_path = os.path.join(results, "hostile.tsv")
if os.path.exists(hostile_path):
    lines = [line.split("\t") for line in open(hostile_path).read().split("\n") if line]
    measured = {name: (int(size), float(seconds), int(peak)) for name, size, seconds, peak in lines}
    valid = measured.pop("valid", None)
    if valid and measured:
        def share(figures):
            size, _, peak = figures
            return peak * 1024 / (4 * size + 100 * (1 << 20))
        worst = max(measured, key=lambda name: share(measured[name]))
        slowest = max(measured, key=lambda name: measured[name][1])
        size, _, peak = measured[worst]
        row(f"survey-form --describe-form on {len(measured)} hostile inputs (bombs, cut files, 300,000 sheets, …): "
            f"worst memory ({worst}), slowest ({slowest})",
            f"{peak / 1024:.1f} MiB of {(4 * size + 100 * (1 << 20)) / (1 << 20):.1f} allowed · {measured[slowest][1]:.2f} s",
            "the valid 5,000-question .xlsx, described", f"{valid[2] / 1024:.1f} MiB · {valid[1]:.2f} s",
            f"{share(measured[worst]):.2f} of the memory bound",
            "≤ 4 × the file's size + 100 MiB, ≤ 10 s",
            share(measured[worst]) <= 1 and measured[slowest][1] <= 10)

export = figures("export.tsv")
if export:
    ours, peer = export.get(("export", "ours")), export.get(("export", "sqlite3"))
    if ours and peer:
        row("survey-form --export-csv, 100,000 responses (whole process)", f"{ours * 1000:,.0f} ms",
            "sqlite3 -csv, same table", f"{peer * 1000:,.0f} ms",
            f"{ours / peer:.2f}×", "≤ 2×", ours / peer <= 2)
    small, large = export.get(("memory", "10000")), export.get(("memory", "100000"))
    if small and large:
        row("Export's peak memory, 100,000 responses", f"{large / 1024:,.1f} MiB",
            "the same export of 10,000", f"{small / 1024:,.1f} MiB",
            f"{large / small:.2f}×", "flat: ≤ 1.1×", large / small <= 1.1)

sync = figures("sync.tsv")
if sync:
    # Throughput is rows over time: ours as a share of COPY's.
    ours, peer = sync.get(("session", "ours")), sync.get(("session", "copy"))
    if ours and peer:
        row("Delivering 10,000 queued responses to a local PostgreSQL: the server's session, login to logout",
            f"{ours * 1000:,.0f} ms ({10_000 / ours:,.0f} rows/s)",
            "psql \\copy of the same rows into the same tables", f"{peer * 1000:,.0f} ms ({10_000 / peer:,.0f} rows/s)",
            f"{peer / ours:.2f}× COPY's throughput", "≥ 0.9× COPY's throughput", peer / ours >= 0.9)
    ours, peer = sync.get(("deliver", "ours")), sync.get(("deliver", "copy"))
    if ours and peer:
        row("The same, whole process: survey-form --sync-now beside psql",
            f"{ours * 1000:,.0f} ms ({10_000 / ours:,.0f} rows/s)",
            "psql \\copy, whole process", f"{peer * 1000:,.0f} ms ({10_000 / peer:,.0f} rows/s)",
            f"{peer / ours:.2f}× COPY's throughput", "(no target)", None)

openrosa = figures("openrosa.tsv")
if openrosa:
    ours, peer = openrosa.get(("deliver", "ours")), openrosa.get(("deliver", "curl"))
    if ours and peer:
        row("Delivering 10,000 queued responses (one in ten with a 100 KB photo) to an OpenRosa endpoint "
            "on loopback: survey-form --sync-now, whole process",
            f"{ours * 1000:,.0f} ms ({10_000 / ours:,.0f} responses/s)",
            "one curl sending the very same requests over one connection", f"{peer * 1000:,.0f} ms ({10_000 / peer:,.0f}/s)",
            f"{peer / ours:.2f}× curl's throughput", "≥ 0.8× curl's throughput", peer / ours >= 0.8)

drain = figures("drain.tsv")
if drain:
    busy, idle, seconds = drain.get(("stall", "drain")), drain.get(("stall", "idle")), drain.get(("drain", "seconds"))
    if busy is not None and idle is not None and seconds is not None:
        row(f"The window while 10,000 queued responses drain to a local PostgreSQL ({seconds:.1f} s): "
            "longest frame (3 launches)",
            f"{busy / 1e6:.1f} ms", "the same window over the same responses, no server set",
            f"{idle / 1e6:.1f} ms", f"{busy / idle:.2f}×" if idle else "—", "every frame < 16 ms", busy < 16e6)
    busy, idle, seconds = (drain.get(("stall", "openrosa")), drain.get(("stall", "openrosa-idle")),
                           drain.get(("openrosa", "seconds")))
    if busy is not None and idle is not None and seconds is not None:
        row(f"The window while 10,000 queued responses (one in ten with a 100 KB photo) drain to an OpenRosa endpoint "
            f"on loopback ({seconds:.1f} s): longest frame (3 launches)",
            f"{busy / 1e6:.1f} ms", "the same window over the same responses, no server to send to",
            f"{idle / 1e6:.1f} ms", f"{busy / idle:.2f}×" if idle else "—", "every frame < 16 ms", busy < 16e6)

def first_frames(name, what, peer, limit):
    """A row for coldstart.py's "app|c NS" launches in RESULTS/NAME.tsv."""
    path = os.path.join(results, name + ".tsv")
    if not os.path.exists(path):
        return
    launches = {"app": [], "c": []}
    for line in open(path):
        who, value = line.split()
        launches[who].append(int(value) / 1e6)
    if launches["app"] and launches["c"]:
        app, c = statistics.median(launches["app"]), statistics.median(launches["c"])
        row(f"{what} (median of {len(launches['app'])})", f"survey-form: {app:,.0f} ms", peer, f"{c:,.0f} ms",
            f"{app / c:.2f}×", f"≤ {limit}×", app / c <= limit)


first_frames("coldstart", "Cold start to first frame", "C libadwaita program loading the same window from a .ui", 1.1)
first_frames("firstframe-many", "The window's first frame, 100,000 stored responses",
             "the same, no response stored", 1.2)
first_frames("firstframe-form", "A 1,000-question form to its first frame",
             "C libadwaita program loading the same widgets from a .ui", 1.5)
public_widgets = {}
if os.path.exists(os.path.join(results, "public-widgets.tsv")):
    public_widgets = {key: int(value) for key, value in
                      (line.split() for line in open(os.path.join(results, "public-widgets.tsv")) if line.strip())}
# Benchmarks/forms/public/README.md: 99 questions in 7 groups, a picture each.
public_peer = "C libadwaita program building the same widgets, written from ours at its first frame"
if "app" in public_widgets:
    public_peer += (f" ({public_widgets['app']:,} widgets, {public_widgets['c']:,} with the box it adds them in; "
                    f"{public_widgets.get('shown', 0)} of the {public_widgets.get('pictures', 0)} pictures "
                    "showing at that frame)")
first_frames("firstframe-public", "The largest public form found with its media (Q1309_BEHAVE: 99 questions, "
             "99 pictures) to its first frame", public_peer, 1.0)

frames = figures("frames.tsv")
if frames:
    heavy, plain = frames.get(("stall", "relevance")), frames.get(("stall", "plain"))
    if heavy is not None and plain is not None:
        row("Typing into a question 100 relevance expressions read: longest frame (3 launches, 31 keys each)",
            f"{heavy / 1e6:.1f} ms", "the same typing, nothing reading the answer", f"{plain / 1e6:.1f} ms",
            f"{heavy / plain:.2f}×" if plain else "—", "every frame < 16 ms", heavy < 16e6)
    search = frames.get(("stall", "search-list"))
    if search is not None and plain is not None:
        row("Searching a 100,000-row list from a file: longest frame from the first of 13 keys typed into its "
            "search until Enter's pick is in the draft (3 launches)",
            f"{search / 1e6:.1f} ms", "typing into a plain text question", f"{plain / 1e6:.1f} ms",
            f"{search / plain:.2f}×" if plain else "—", "every frame < 16 ms", search < 16e6)
    opened, opened_short = frames.get(("stall", "open-long")), frames.get(("stall", "open-short"))
    if opened is not None and opened_short is not None:
        row("Opening that 100,000-row list: longest frame from Enter until 2 s later (3 launches)",
            f"{opened / 1e6:.1f} ms", "opening a 20-row list from a file", f"{opened_short / 1e6:.1f} ms",
            f"{opened / opened_short:.2f}×" if opened_short else "—", "every frame < 16 ms", opened < 16e6)
    many, none = frames.get(("stall", "submit-many")), frames.get(("stall", "submit-none"))
    if many is not None and none is not None:
        row("Typing a name and submitting over 100,000 stored responses: longest frame (3 launches)",
            f"{many / 1e6:.1f} ms", "the same over no stored response", f"{none / 1e6:.1f} ms",
            f"{many / none:.2f}×" if none else "—", "every frame < 16 ms", many < 16e6)
    large, small = frames.get(("stall", "photo-20mp")), frames.get(("stall", "photo-small"))
    if large is not None and small is not None:
        row("Attaching a 20-megapixel JPEG to a photo question with max-pixels=1024: longest frame from the file "
            "dialog's Return until 2 s after the scaled copy is stored (3 launches)",
            f"{large / 1e6:.1f} ms", "the same with a 0.3-megapixel photo", f"{small / 1e6:.1f} ms",
            f"{large / small:.2f}×" if small else "—", "every frame ≤ 100 ms", large <= 100e6)
    pastes = {name: frames.get(("stall", f"paste-{name}")) for name in ("name", "comments", "years")}
    short = frames.get(("stall", "paste-short"))
    if all(value is not None for value in pastes.values()) and short is not None:
        worst = max(pastes.values())
        detail = ", ".join(f"{name} {value / 1e6:.0f} ms" for name, value in pastes.items())
        row(f"Pasting 100,000 characters: longest frame ({detail})", f"{worst / 1e6:.0f} ms",
            "pasting 100 characters into the name", f"{short / 1e6:.0f} ms",
            f"{worst / short:.1f}×" if short else "—", "every frame ≤ 100 ms", worst <= 100e6)

print("| Measurement | Ours (per op, p50) | Peer | Peer (per op, p50) | Ratio | Target | Verdict |")
print("|---|---|---|---|---|---|---|")
for r in rows:
    print("| " + " | ".join(r) + " |")
held = sum(1 for r in rows if r[6].startswith("✅"))
missed = sum(1 for r in rows if r[6].startswith("❌"))
unjudged = sum(1 for r in rows if r[6] == NO_COUNTER)
print(f"\nTargets: {held} held, {missed} missed" + (f", {unjudged} without a verdict (this machine counts no "
      "instructions)." if unjudged else "."))
