#!/usr/bin/env python3
"""Checks a parallel VTK data set written under mpiexec (a .pvtu and its pieces, or a .pvd
series of .pvtu files) against the same computation's one-rank output (a .vtu, or a .pvd series
of .vtu files), as libpolydg writes them (include/polydg/petsc/solution_pvtu.hpp).

Usage: check_pvtu_against_vtu.py --parallel FILE.pvtu|FILE.pvd --serial FILE.vtu|FILE.pvd
                                 --ranks N --tolerance T

For every .pvtu (with .pvd files: every time step, at the serial series' times):
  (a) it lists exactly N pieces, <stem>_0.vtu .. <stem>_<N-1>.vtu, which exist, and its
      PPointData, PCellData and PPoints declare exactly the arrays of every piece (type, name,
      order); piece k's cell field "rank" is k;
  (b) the union of the pieces' cells, each keyed by (element_id, its corners' positions), is
      the serial file's: the same number of cells and points, every key once, the same
      "degree" and "exact", and "u" at every corner within T (absolute) of the serial value;
  (c) every element id appears in exactly one piece, and the pieces' ids are the serial ones.
Where meshio can be imported, each piece is also read with it (an independent reader) and its
cell and point counts and "u" compared; without meshio that part is skipped (said so), the
rest still runs. Prints one line per check; exit status 0 when all hold, 1 otherwise.
"""
import argparse
import math
import os
import sys
import xml.etree.ElementTree as ElementTree


class Checks:
    def __init__(self):
        self.failed = 0

    def check(self, condition, what):
        print(f"check: {what}: {'ok' if condition else 'FAILED'}")
        if not condition:
            self.failed += 1
        return condition


def arrays_of(section):
    """(type, name, components) of every DataArray / PDataArray in an XML section."""
    if section is None:
        return []
    return [
        (a.get("type"), a.get("Name"), a.get("NumberOfComponents", "1"))
        for a in section
        if a.tag in ("DataArray", "PDataArray")
    ]


def values(array):
    kind = int if array.get("type").startswith(("Int", "UInt")) else float
    return [kind(v) for v in array.text.split()]


class Grid:
    """One .vtu: its points (x, y, z), cells (triangles or tetrahedra), point and cell arrays
    and their declarations."""

    def __init__(self, path):
        piece = ElementTree.parse(path).getroot().find("./UnstructuredGrid/Piece")
        if piece is None:
            raise ValueError(f"{path}: no UnstructuredGrid/Piece")
        self.path = path
        self.point_count = int(piece.get("NumberOfPoints"))
        self.cell_count = int(piece.get("NumberOfCells"))
        self.declared = {
            "PointData": arrays_of(piece.find("PointData")),
            "CellData": arrays_of(piece.find("CellData")),
            "Points": arrays_of(piece.find("Points")),
        }
        coordinates = values(piece.find("./Points/DataArray"))
        self.points = [tuple(coordinates[3 * k : 3 * k + 3]) for k in range(self.point_count)]
        cells = {a.get("Name"): values(a) for a in piece.find("Cells")}
        offsets = [0] + cells["offsets"]
        connectivity = cells["connectivity"]
        self.cells = [connectivity[offsets[k] : offsets[k + 1]] for k in range(self.cell_count)]
        self.point_data = {a.get("Name"): values(a) for a in piece.find("PointData")}
        self.cell_data = {a.get("Name"): values(a) for a in piece.find("CellData")}

    def keyed_cells(self):
        """{(element_id, corner positions): (degree, [u at corners], [exact at corners])}."""
        keyed = {}
        exact = self.point_data.get("exact")
        for k, corners in enumerate(self.cells):
            key = (
                self.cell_data["element_id"][k],
                tuple(tuple(round(x, 12) for x in self.points[c]) for c in corners),
            )
            keyed.setdefault(key, []).append(
                (
                    self.cell_data["degree"][k],
                    [self.point_data["u"][c] for c in corners],
                    [exact[c] for c in corners] if exact else None,
                )
            )
        return keyed


MESHIO_MISSING_SAID = []


def check_with_meshio(checks, piece):
    try:
        import meshio
    except ImportError as error:
        if not MESHIO_MISSING_SAID:
            print(f"meshio: skipped, {sys.executable} cannot import it ({error})")
            MESHIO_MISSING_SAID.append(True)
        return
    mesh = meshio.read(piece.path)
    cells = sum(len(block.data) for block in mesh.cells)
    u = mesh.point_data.get("u")
    checks.check(
        cells == piece.cell_count
        and len(mesh.points) == piece.point_count
        and u is not None
        and all(float(a) == b for a, b in zip(u, piece.point_data["u"])),
        f"meshio reads {os.path.basename(piece.path)}: {cells} cells, {len(mesh.points)} points, "
        "the same u",
    )


def check_pvtu(checks, pvtu_path, serial_path, ranks, tolerance):
    name = os.path.basename(pvtu_path)
    root = ElementTree.parse(pvtu_path).getroot()
    grid = root.find("PUnstructuredGrid")
    if not checks.check(
        root.get("type") == "PUnstructuredGrid" and grid is not None,
        f"{name} is a PUnstructuredGrid",
    ):
        return
    # (a) N pieces, named after the .pvtu, existing, declaring what they hold.
    sources = [p.get("Source") for p in grid.findall("Piece")]
    stem = os.path.splitext(name)[0]
    checks.check(
        sources == [f"{stem}_{r}.vtu" for r in range(ranks)],
        f"{name} lists the {ranks} pieces {stem}_0.vtu .. {stem}_{ranks - 1}.vtu ({sources})",
    )
    folder = os.path.dirname(pvtu_path)
    paths = [os.path.join(folder, s) for s in sources]
    if not checks.check(all(os.path.isfile(p) for p in paths), f"{name}'s pieces exist"):
        return
    pieces = [Grid(p) for p in paths]
    declared = {
        "PointData": arrays_of(grid.find("PPointData")),
        "CellData": arrays_of(grid.find("PCellData")),
        "Points": arrays_of(grid.find("PPoints")),
    }
    for rank, piece in enumerate(pieces):
        checks.check(
            piece.declared == declared,
            f"{sources[rank]}: its arrays are the .pvtu's declarations {declared}",
        )
        checks.check(
            piece.cell_count > 0 and piece.cell_data.get("rank") == [rank] * piece.cell_count,
            f"{sources[rank]}: {piece.cell_count} cells, each with rank = {rank}",
        )
        check_with_meshio(checks, piece)

    # (c) every element in exactly one piece, the serial ids.
    serial = Grid(serial_path)
    owner = {}
    shared = set()
    for rank, piece in enumerate(pieces):
        for e in set(piece.cell_data["element_id"]):
            if e in owner:
                shared.add(e)
            owner[e] = rank
    checks.check(not shared, f"no element in two pieces (shared: {sorted(shared)[:10]})")
    serial_ids = set(serial.cell_data["element_id"])
    checks.check(
        set(owner) == serial_ids,
        f"the pieces' {len(owner)} element ids are the serial {len(serial_ids)}",
    )

    # (b) the union of the cells, keyed by (element_id, position), is the serial file.
    checks.check(
        sum(p.cell_count for p in pieces) == serial.cell_count
        and sum(p.point_count for p in pieces) == serial.point_count,
        f"{sum(p.cell_count for p in pieces)} cells and {sum(p.point_count for p in pieces)} "
        f"points in the pieces, {serial.cell_count} and {serial.point_count} in "
        f"{os.path.basename(serial_path)}",
    )
    union = {}
    for piece in pieces:
        for key, found in piece.keyed_cells().items():
            union.setdefault(key, []).extend(found)
    expected = serial.keyed_cells()
    checks.check(
        set(union) == set(expected) and all(len(v) == 1 for v in union.values()),
        f"each of the serial {len(expected)} (element_id, position) cells once in the pieces "
        f"({len(set(union) - set(expected))} extra, {len(set(expected) - set(union))} missing)",
    )
    difference, same_data = 0.0, True
    for key, [(degree, u, exact)] in expected.items():
        if key not in union or len(union[key]) != 1:
            continue
        other_degree, other_u, other_exact = union[key][0]
        same_data = same_data and degree == other_degree and exact == other_exact
        difference = max([difference] + [abs(a - b) for a, b in zip(u, other_u)])
    checks.check(same_data, "the same degree and exact at every cell")
    checks.check(
        math.isfinite(difference) and difference <= tolerance,
        f"u within {tolerance} of the serial u at every corner (max |difference| "
        f"{difference:.3e})",
    )


def series(pvd_path):
    """[(time, path)] of a .pvd, the paths relative to its folder."""
    folder = os.path.dirname(pvd_path)
    return [
        (float(d.get("timestep")), os.path.join(folder, d.get("file")))
        for d in ElementTree.parse(pvd_path).getroot().findall("./Collection/DataSet")
    ]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--parallel", required=True)
    parser.add_argument("--serial", required=True)
    parser.add_argument("--ranks", type=int, required=True)
    parser.add_argument("--tolerance", type=float, required=True)
    arguments = parser.parse_args()
    checks = Checks()
    for path in (arguments.parallel, arguments.serial):
        if not checks.check(os.path.isfile(path), f"{path} exists"):
            return 1
    if arguments.parallel.endswith(".pvd"):
        parallel, serial = series(arguments.parallel), series(arguments.serial)
        checks.check(
            [t for t, _ in parallel] == [t for t, _ in serial] and len(parallel) > 0,
            f"{arguments.parallel} lists the serial series' {len(serial)} times",
        )
        checks.check(
            all(p.endswith(".pvtu") for _, p in parallel),
            f"{arguments.parallel} lists .pvtu files",
        )
        pairs = [(p, s) for (_, p), (_, s) in zip(parallel, serial)]
    else:
        pairs = [(arguments.parallel, arguments.serial)]
    for parallel_file, serial_file in pairs:
        if all(
            checks.check(os.path.isfile(path), f"{path} exists")
            for path in (parallel_file, serial_file)
            if path not in (arguments.parallel, arguments.serial)
        ):
            check_pvtu(checks, parallel_file, serial_file, arguments.ranks, arguments.tolerance)
    print(f"{checks.failed} check(s) failed" if checks.failed else "all checks passed")
    return 1 if checks.failed else 0


if __name__ == "__main__":
    sys.exit(main())
