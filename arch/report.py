"""What ``ktc arch`` prints: a verdict, a summary in tables, the routing graph.

``verdict`` and ``summary`` are plain text; ``graph`` is Graphviz DOT (a cluster per
core and sub-core: core 0 marked ×N, or every core), which ``svg`` renders when
Graphviz is installed.
"""

import shutil
import subprocess
from collections.abc import Sequence

from ktc.arch.model import ENGINE, MEMORY, Device, Link, Node
from ktc.arch.roofline import bottleneck
from ktc.dialects.ktdf_arch import attr_text
from ktc.errors import KtcError


def verdict(device: Device) -> list[str]:
    """``ktc arch check``: one line saying the device is valid, then a note per
    missing timing figure when it is untimed."""
    timing = "timed" if device.timed else f"untimed: {len(device.missing_timing)} timing figures missing"
    line = (
        f"{device.files[0]}: device @{device.name} is valid ({_cores(device)}, "
        f"{device.subcores_per_core} sub-core(s) per core, {timing})"
    )
    return [line] + [f"{figure.where}: note: {figure.what}" for figure in device.missing_timing]


def _cores(device: Device) -> str:
    interconnect = device.interconnect
    if interconnect is None:
        return f"{device.cores} core(s)"
    return f"{device.cores} cores on a {interconnect.topology}"


def summary(device: Device) -> str:
    """``ktc arch show``: memories, engines, datapaths, routes and roofline constants."""
    sections = [
        _header(device),
        _section("memories", *_memories(device)),
        _section("engines", *_engines(device)),
        _section("datapaths of core 0, sub-core 0 (and its interconnect links)", *_datapaths(device)),
        _section("routes", *_routes(device)),
    ]
    if device.timed:
        sections.append(_section("roofline", *_roofline(device)))
        sections.append(_section("compute beside bandwidth (whole device, per cycle)",
                                 *_compute_roofline(device)))
    else:
        sections.append(f"untimed: {len(device.missing_timing)} timing figures missing "
                        "(ktc arch check lists them); no roofline")
    if device.example_values:
        sections.append(_section("example values (not public)", *_examples(device)))
    return "\n\n".join(sections) + "\n"


def _header(device: Device) -> str:
    spaces = ", ".join(f"{space} -> {kind}" for space, kind in device.spaces.items()) or "none"
    clock = f"{device.clock_mhz} MHz" if device.clock_mhz else "not given"
    lines = [
        f"device @{device.name} ({device.files[0]})",
        f"  cores: {_cores(device)}, {device.subcores_per_core} sub-core(s) per core",
        f"  clock: {clock}",
        f"  compute: {device.compute_kind}; device memory: {device.device_memory}; "
        f"scratchpad: {device.scratchpad}",
        f"  memory spaces: {spaces}",
    ]
    interconnect = device.interconnect
    if interconnect is not None:
        lines.append(
            f"  interconnect: {interconnect.topology} through {interconnect.stop}, "
            f"{interconnect.bytes_per_cycle} B/cycle per direction, "
            f"{interconnect.latency} cycles per hop"
        )
    return "\n".join(lines)


def _section(title: str, headers: Sequence[str], rows: Sequence[Sequence[object]]) -> str:
    table = [list(headers)] + [["-" if cell is None else str(cell) for cell in row] for row in rows]
    widths = [max(len(row[column]) for row in table) for column in range(len(headers))]
    lines = ["  ".join(cell.ljust(width) for cell, width in zip(row, widths)).rstrip() for row in table]
    return "\n".join([title, *(f"  {line}" for line in lines)])


def size_text(size: int) -> str:
    """Bytes in the largest binary unit that divides them (``2 MiB``)."""
    for unit, scale in (("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)):
        if size >= scale and size % scale == 0:
            return f"{size // scale} {unit}"
    return f"{size} B"


def _memories(device: Device) -> tuple[list[str], list[list[object]]]:
    headers = ["kind", "size", "count", "parent", "port B/cycle"]
    rows = [
        [m.kind, size_text(m.size), m.count, m.parent, m.port_bandwidth]
        for m in device.memory_kinds.values()
    ]
    return headers, rows


def _engines(device: Device) -> tuple[list[str], list[list[object]]]:
    headers = ["kind", "count", "features", "lanes", "issue cycles", "word sizes", "beside"]
    rows = []
    for engine in device.engine_kinds.values():
        words = {**(engine.load.word_sizes if engine.load else {}), **(engine.store.word_sizes if engine.store else {})}
        simd = [name for name, on in (("splat", engine.splat), ("zero_pad", engine.zero_pad)) if on]
        features = ", ".join(engine.features) + (f" ({', '.join(simd)})" if simd else "")
        matrix = engine.matrix
        rows.append([
            engine.kind,
            engine.count,
            features,
            _matrix_shape(matrix) if matrix else _pairs({attr_text(t): n for t, n in engine.lanes.items()}),
            _pairs({"step": matrix.issue_cycles, "fill": matrix.fill, "drain": matrix.drain})
            if matrix else _pairs(engine.issue_cycles),
            _pairs(words),
            ", ".join(engine.local_memories) or None,
        ])
    return headers, rows


def _matrix_shape(matrix) -> str:
    """``8x64 f16->f32``: rows x lanes, input and accumulator types."""
    return (f"{matrix.rows}x{matrix.lanes} {attr_text(matrix.input)}->"
            f"{attr_text(matrix.accumulator)}")


def _pairs(values: dict[str, int]) -> str | None:
    return " ".join(f"{key}={value}" for key, value in values.items()) or None


def _first(node: Node) -> bool:
    return node.core in (None, 0) and node.subcore in (None, 0)


def _datapaths(device: Device) -> tuple[list[str], list[list[object]]]:
    headers = ["from", "to", "kind", "B/cycle", "latency", "granularity", "queue (beats x bytes)"]
    rows = []
    for link in device.links:
        if not (_first(link.source) and (_first(link.target) or link.source.kind == link.target.kind)):
            continue
        queue = link.queue
        rows.append([
            link.source.name,
            link.target.name,
            link.kind or None,
            link.bytes_per_cycle,
            link.latency,
            ", ".join(map(str, link.granularity)) or None,
            None if queue is None else f"{queue.depth or '?'} x {queue.beat_bytes or '?'}" + (", ordered" if queue.ordered else ""),
        ])
    return headers, rows


def _routes(device: Device) -> tuple[list[str], list[list[object]]]:
    """Device memory to the compute engine and back (and to the matrix unit and back);
    scratchpad to the farthest core's."""
    root = device.node(device.device_memory)
    engine = device.node(device.compute_kind)
    pad = device.node(device.scratchpad)
    pairs = [(root, engine), (engine, root), (root, pad)]
    if device.matrix_kind is not None:
        matrix = device.node(device.matrix_kind)
        pairs += [(root, matrix), (matrix, root)]
    if device.interconnect is not None:
        far = max(range(device.cores), key=lambda core: device.core_hops(0, core))
        pairs.append((pad, device.node(device.scratchpad, far)))
    headers = ["from", "to", "via", "hops", "slowest B/cycle", "latency"]
    rows = [_route(device, source, target) for source, target in pairs]
    return headers, rows


def _route(device: Device, source: Node, target: Node) -> list[object]:
    route = device.path(source, target)
    stops = [link.target.name for link in route[:-1]]
    via = " ".join(stops if len(stops) <= 5 else [*stops[:2], "...", *stops[-2:]])
    timed = device.timed
    return [
        source.name,
        target.name,
        via or None,
        len(route),
        bottleneck(route) if timed else None,
        sum(link.latency for link in route) if timed else None,
    ]


def _examples(device: Device) -> tuple[list[str], list[list[object]]]:
    """Each example figure once, with the lines that give it."""
    places: dict[str, list[str]] = {}
    for figure in device.example_values:
        places.setdefault(figure.what, []).append(figure.where.rsplit(":", 2)[-2])
    return ["figure", "lines"], [[what, ", ".join(lines)] for what, lines in places.items()]


def _roofline(device: Device) -> tuple[list[str], list[list[object]]]:
    roof = device.roofline
    rows: list[list[object]] = [
        ["clock", f"{roof.clock_mhz} MHz"],
        ["cores x sub-cores", f"{roof.cores} x {roof.subcores_per_core}"],
        ["device memory (shared)", f"{roof.device_memory_bytes_per_cycle} B/cycle"],
        ["DMA read / write per core", f"{roof.dma_read_bytes_per_cycle} / {roof.dma_write_bytes_per_cycle} B/cycle"],
        ["DMA granularity", f"{roof.dma_granularity} B"],
        ["feed / drain per core", f"{roof.feed_bytes_per_cycle} / {roof.drain_bytes_per_cycle} B/cycle"],
    ]
    if roof.interconnect_bytes_per_cycle is not None:
        rows.append(["interconnect", f"{roof.interconnect_bytes_per_cycle} B/cycle per direction, "
                                     f"{roof.hop_latency} cycles per hop"])
    for element_type in roof.lanes:
        rates = ", ".join(
            f"{op_class} {roof.elements_per_cycle(op_class, element_type):g}" for op_class in roof.issue_cycles
        )
        rows.append([f"{attr_text(element_type)} elements/cycle", rates])
    for level in roof.memories:
        rows.append([f"{level.kind} x{level.instances} read / write",
                     f"{level.read_bytes_per_cycle} / {level.write_bytes_per_cycle} B/cycle each"])
    return ["constant", "value"], rows


def _compute_roofline(device: Device) -> tuple[list[str], list[list[object]]]:
    """Per operand type: the flops of the unit that multiplies it (the matrix unit for
    its input type, else the SIMD engine's fma), the device memory bandwidth and the
    ridge point, the flops per byte a kernel needs to be bound by compute."""
    roof = device.roofline
    types = list(roof.lanes)
    if roof.matrix is not None and roof.matrix.input not in types:
        types.insert(0, roof.matrix.input)
    rows = []
    for element_type in types:
        flops = roof.flops_per_cycle(element_type)
        matrix = roof.matrix is not None and roof.matrix.input == element_type
        unit = (f"{roof.matrix.kind} x{roof.matrix_units} ({_matrix_shape(roof.matrix)})" if matrix
                else f"{device.compute_kind} x{roof.cores * roof.subcores_per_core} (fma)")
        bandwidth = roof.device_memory_bytes_per_cycle
        rows.append([attr_text(element_type), unit, f"{flops:g}",
                     f"{flops * roof.clock_mhz / 1e6:g}", bandwidth, f"{flops / bandwidth:g}"])
    return ["operands", "multiplied on", "flop/cycle", "TFLOP/s", "device memory B/cycle",
            "ridge flop/B"], rows


# ---------------------------------------------------------------------------------
# Graphviz
# ---------------------------------------------------------------------------------

_SHAPES = {MEMORY: "cylinder", ENGINE: "box", "port": "point"}


def graph(device: Device, expand: bool = False) -> str:
    """The routing graph in DOT: a cluster per core holding one per sub-core,
    memories as cylinders, compute engines and matrix units bold, links labelled with
    B/cycle and latency. Unless ``expand``, the cores being alike, only core 0 is drawn, marked
    ``×N``, and its links to the other cores end at one node standing for them.
    ``newrank`` lets Graphviz 2.43 (Debian's) rank edges between clusters."""
    cores = sorted({node.core for node in device.nodes if node.core is not None})
    drawn = cores if expand or len(cores) < 2 else cores[:1]
    lines = [f'digraph "{device.name}" {{', "  rankdir=LR;", "  newrank=true;",
             '  node [fontname="monospace"];']
    lines += [f"  {_node(device, node)}" for node in device.nodes if node.core is None]
    for core in drawn:
        label = f"core {core}" if drawn == cores else f"core 0 (×{len(cores)}, alike)"
        lines += _cluster(device, label, core, [n for n in device.nodes if n.core == core])
    if drawn != cores:
        others = "core 1" if len(cores) == 2 else f"cores 1..{cores[-1]}"
        lines.append(f'  others [label="{others}" shape=box style="dashed"];')
    edges = dict.fromkeys(_edge(link, drawn) for link in device.links)
    lines += [f"  {edge}" for edge in edges if edge]
    lines.append("}")
    return "\n".join(lines) + "\n"


def _cluster(device: Device, label: str, core: int, nodes: list[Node]) -> list[str]:
    lines = [f'  subgraph "cluster_{core}" {{', f'    label="{label}";']
    lines += [f"    {_node(device, node)}" for node in nodes if node.subcore is None]
    for subcore in sorted({node.subcore for node in nodes if node.subcore is not None}):
        lines += [f'    subgraph "cluster_{core}_{subcore}" {{', f'      label="sub-core {subcore}";']
        lines += [f"      {_node(device, node)}" for node in nodes if node.subcore == subcore]
        lines.append("    }")
    return [*lines, "  }"]


def _node(device: Device, node: Node) -> str:
    label = node.name
    if node.role == MEMORY:
        label += f"\\n{size_text(device.memory(node.kind).size)}"
    computes = node.role == ENGINE and (device.engine(node.kind).compute or device.engine(node.kind).matrix)
    style = ' style="bold"' if computes else ""
    return f'n{node.index} [label="{label}" shape={_SHAPES[node.role]}{style}];'


def _edge(link: Link, cores: Sequence[int]) -> str:
    """The DOT edge of ``link`` when it touches a drawn core or none ("" when it joins
    two cores not drawn); an end in a core not drawn is the node standing for them."""
    ends = [_end(node, cores) for node in (link.source, link.target)]
    if ends == ["others", "others"]:
        return ""
    parts = [link.kind] if link.kind else []
    if link.bytes_per_cycle is not None:
        parts.append(f"{link.bytes_per_cycle} B/c")
    if link.latency:
        parts.append(f"{link.latency} cy")
    label = f' [label="{" ".join(parts)}"]' if parts else ""
    return f"{ends[0]} -> {ends[1]}{label};"


def _end(node: Node, cores: Sequence[int]) -> str:
    return "others" if node.core is not None and node.core not in cores else f"n{node.index}"


def svg(dot_text: str) -> str:
    """The graph rendered by Graphviz's ``dot``."""
    dot = shutil.which("dot")
    if dot is None:
        raise KtcError("Graphviz 'dot' is not installed; write DOT instead (an output file not ending in .svg)")
    run = subprocess.run([dot, "-Tsvg"], input=dot_text, capture_output=True, text=True)
    if run.returncode != 0:
        first = (run.stderr.strip().splitlines() or [f"exit code {run.returncode}"])[0]
        raise KtcError(f"Graphviz 'dot' failed: {first}")
    return run.stdout
