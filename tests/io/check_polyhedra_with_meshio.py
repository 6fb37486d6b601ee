#!/usr/bin/env python3
"""Opens a 3D polytopic-mesh .vtu written by libpolydg with meshio (an independent reader) and
checks the polyhedra: their number, that element_id is a permutation of 0..N-1, and their
volumes by the divergence theorem over each polyhedron's faces, V = sum over the faces'
triangles (a x b) . c / 6. This also checks the faces' orientation: every volume must be
positive (outward faces), the sorted volumes must equal the sorted "measure" cell data, and
their sum the fine mesh's volume, to 1e-12.

Usage: check_polyhedra_with_meshio.py FILE.vtu FILE.expected
FILE.expected holds "<element count> <total volume>" (written by test_vtk_writer).
Exits 77 (ctest: Skipped), saying why, when meshio or numpy cannot be imported.

meshio (5.x as in Debian 12, and later) reads VTK_POLYHEDRON cells into blocks named
"polyhedron<N>" (N: the cell's point count), each cell a list of faces, each face an array of
point indices. Which block order and which cell data order it uses differs between versions,
so nothing here pairs a cell with its cell data: the data are compared as sets."""
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


def polyhedron_volume(points, faces) -> float:
    """Divergence theorem over the faces (each fanned into triangles from its first point)."""
    volume = 0.0
    for face in faces:
        corners = points[np.asarray(face, dtype=int)]
        for k in range(1, len(corners) - 1):
            volume += np.dot(np.cross(corners[0], corners[k]), corners[k + 1])
    return volume / 6.0


def cell_data(mesh, name):
    blocks = mesh.cell_data.get(name)
    if blocks is None:
        return None
    return np.concatenate([np.asarray(block).ravel() for block in blocks])


def main(vtu_path: str, expected_path: str) -> int:
    with open(expected_path) as expected:
        element_count, total_volume = expected.read().split()
    element_count, total_volume = int(element_count), float(total_volume)

    mesh = meshio.read(vtu_path)
    points = np.asarray(mesh.points, dtype=float)
    volumes = []
    ok = True
    for block in mesh.cells:
        if not block.type.startswith("polyhedron"):
            print(f"unexpected cell type {block.type}")
            return 1
        for faces in block.data:
            point_count = len(np.unique(np.concatenate([np.asarray(f) for f in faces])))
            if block.type != f"polyhedron{point_count}":
                print(f"a cell of {point_count} points in block {block.type}")
                ok = False
            volumes.append(polyhedron_volume(points, faces))
    volumes = np.array(volumes)

    if len(volumes) != element_count:
        print(f"{len(volumes)} polyhedra read, {element_count} expected")
        ok = False
    ids = cell_data(mesh, "element_id")
    if ids is None or sorted(ids.tolist()) != list(range(element_count)):
        print("element_id is not a permutation of 0..N-1")
        ok = False
    if np.any(volumes <= 0):
        print(f"{np.count_nonzero(volumes <= 0)} polyhedra have a volume <= 0 (inward faces)")
        ok = False
    measures = cell_data(mesh, "measure")
    if measures is None or len(measures) != len(volumes):
        print("no measure per polyhedron")
        ok = False
    elif np.max(np.abs(np.sort(volumes) - np.sort(measures))) > 1e-12 * np.max(measures):
        print("the polyhedra's volumes are not the elements' measures")
        ok = False
    total = float(np.sum(volumes))
    if abs(total - total_volume) > 1e-12 * abs(total_volume):
        print(f"total polyhedron volume {total!r}, expected {total_volume!r}")
        ok = False
    print(
        f"meshio {meshio.__version__} read {len(volumes)} polyhedra, total volume {total!r}: "
        f"{'ok' if ok else 'FAILED'}"
    )
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2]))
