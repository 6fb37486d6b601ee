#!/usr/bin/env python3
"""Opens a polytopic-mesh .vtu written by libpolydg with meshio (an independent reader) and
checks the number of polygon cells, the element ids and the total polygon area.

Usage: check_vtu_with_meshio.py FILE.vtu FILE.expected
FILE.expected holds "<element count> <total area>" (written by test_vtk_writer).
Exits 77 (ctest: Skipped), saying why, when meshio or numpy cannot be imported."""
import sys

SKIPPED = 77

try:
    import meshio
    import numpy as np
except ImportError as error:
    print(
        f"SKIPPED: {sys.executable} cannot import meshio / numpy ({error}); "
        "install python3-meshio (scripts/setup.sh does) to read the VTU with meshio"
    )
    sys.exit(SKIPPED)


def main(vtu_path: str, expected_path: str) -> int:
    with open(expected_path) as expected:
        element_count, total_area = expected.read().split()
    element_count, total_area = int(element_count), float(total_area)

    mesh = meshio.read(vtu_path)
    polygons = 0
    area = 0.0
    ids = []
    for block_index, block in enumerate(mesh.cells):
        if block.type != "polygon":
            print(f"unexpected cell type {block.type}")
            return 1
        x = mesh.points[block.data, 0]
        y = mesh.points[block.data, 1]
        # Shoelace formula per polygon (rows), vectorised over the block.
        area += 0.5 * np.sum(x * np.roll(y, -1, axis=1) - np.roll(x, -1, axis=1) * y)
        polygons += len(block.data)
        ids.extend(mesh.cell_data["element_id"][block_index].tolist())

    ok = True
    if polygons != element_count:
        print(f"{polygons} polygons read, {element_count} expected")
        ok = False
    if sorted(ids) != list(range(element_count)):
        print("element_id is not a permutation of 0..N-1")
        ok = False
    if abs(area - total_area) > 1e-12 * abs(total_area):
        print(f"total polygon area {area!r}, expected {total_area!r}")
        ok = False
    print(f"meshio read {polygons} polygons, total area {area!r}: {'ok' if ok else 'FAILED'}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2]))
