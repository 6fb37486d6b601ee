#!/usr/bin/env python3
"""Writes the small Gmsh meshes of tests/data/gmsh/ (the Gmsh reader's test files).

Usage:  pip install gmsh   # the Gmsh Python API (4.15.2 made the files in the repository)
        python3 scripts/make_gmsh_test_meshes.py [output-folder]   # default tests/data/gmsh

Every mesh has a measure and boundary lengths that tests/mesh/test_gmsh_reader.cpp checks in
closed form; the comments below give them. Each file stays well under 100 kB.

  square_hole_v22.msh, square_hole_v41.msh, square_hole_v41_binary.msh
      The same mesh in MSH 2.2 ASCII, 4.1 ASCII and 4.1 binary: [0,1]^2 minus the disk of
      radius 1/4 about (1/2, 1/2), whose circle has 32 equal segments (transfinite), so the
      area is 1 - 16 (1/4)^2 sin(2 pi/32) = 1 - sin(pi/16). Physical curves: 1 = outer square
      (length 4), 2 = hole (length 32 * 2 (1/4) sin(pi/32)). Physical surface 10.
  l_shape_v41.msh, l_shape_v22.msh
      [0,1]^2 minus (1/2,1]^2 as two surfaces: the lower rectangle [0,1]x[0,1/2] (physical
      surface 1, area 1/2) and the upper-left square [0,1/2]x[1/2,1] (physical surface 2, area
      1/4). Physical surface 3 holds both, so each surface is in two physical groups: the reader
      takes the first (1 or 2). Physical curves: 11 = the outer sides (length 3), 12 = the two
      re-entrant sides (length 1), and 13 = the re-entrant sides again (second group; ignored).
  no_physical_v41.msh, no_physical_v22.msh
      The trapezoid (0,0), (2,0), (1.5,1), (0.5,1) (area 3/2) with no physical groups at all:
      every cell has region 0 and every boundary facet tag 0.
  box_v41.msh, box_v41_binary.msh, box_v22.msh
      Tetrahedra of the box [0,1]x[0,2]x[0,1/2] (volume 1). Physical surfaces: 1 = bottom z = 0
      (area 2), 2 = top z = 1/2 (area 2), 3 = the four sides (area 3). Physical volume 7.
  square_order2_v41.msh
      A coarse unit square meshed with second-order (6-node) triangles: must be refused.
"""
import os
import sys

import gmsh


def write(name, folder, version, binary=False):
    gmsh.option.setNumber("Mesh.MshFileVersion", version)
    gmsh.option.setNumber("Mesh.Binary", 1 if binary else 0)
    gmsh.write(os.path.join(folder, name))


def square_hole(folder):
    gmsh.model.add("square_hole")
    occ = gmsh.model.occ
    square = occ.addRectangle(0, 0, 0, 1, 1)
    disk = occ.addDisk(0.5, 0.5, 0, 0.25, 0.25)
    cut, _ = occ.cut([(2, square)], [(2, disk)])
    occ.synchronize()
    surface = cut[0][1]
    curves = [c[1] for c in gmsh.model.getBoundary([(2, surface)], oriented=False)]
    circle = [c for c in curves if gmsh.model.getType(1, c) != "Line"]
    outer = [c for c in curves if c not in circle]
    gmsh.model.mesh.setTransfiniteCurve(circle[0], 33)  # 32 equal segments
    gmsh.model.addPhysicalGroup(1, outer, 1, "outer")
    gmsh.model.addPhysicalGroup(1, circle, 2, "hole")
    gmsh.model.addPhysicalGroup(2, [surface], 10, "domain")
    gmsh.option.setNumber("Mesh.MeshSizeMax", 0.1)
    gmsh.model.mesh.generate(2)
    write("square_hole_v22.msh", folder, 2.2)
    write("square_hole_v41.msh", folder, 4.1)
    write("square_hole_v41_binary.msh", folder, 4.1, binary=True)
    gmsh.model.remove()


def l_shape(folder):
    gmsh.model.add("l_shape")
    geo = gmsh.model.geo
    p = [geo.addPoint(x, y, 0, 0.125) for x, y in
         [(0, 0), (1, 0), (1, 0.5), (0.5, 0.5), (0.5, 1), (0, 1), (0, 0.5)]]
    bottom = geo.addLine(p[0], p[1])
    right = geo.addLine(p[1], p[2])
    reentrant_h = geo.addLine(p[2], p[3])
    middle = geo.addLine(p[3], p[6])  # shared by the two surfaces
    left_low = geo.addLine(p[6], p[0])
    reentrant_v = geo.addLine(p[3], p[4])
    top = geo.addLine(p[4], p[5])
    left_high = geo.addLine(p[5], p[6])
    lower = geo.addPlaneSurface([geo.addCurveLoop([bottom, right, reentrant_h, middle, left_low])])
    upper = geo.addPlaneSurface([geo.addCurveLoop([-middle, reentrant_v, top, left_high])])
    geo.synchronize()
    gmsh.model.addPhysicalGroup(2, [lower], 1, "lower")
    gmsh.model.addPhysicalGroup(2, [upper], 2, "upper")
    gmsh.model.addPhysicalGroup(2, [lower, upper], 3, "all")
    gmsh.model.addPhysicalGroup(1, [bottom, right, top, left_low, left_high], 11, "outer")
    gmsh.model.addPhysicalGroup(1, [reentrant_h, reentrant_v], 12, "reentrant")
    gmsh.model.addPhysicalGroup(1, [reentrant_h, reentrant_v], 13, "reentrant_again")
    gmsh.model.mesh.generate(2)
    write("l_shape_v41.msh", folder, 4.1)
    write("l_shape_v22.msh", folder, 2.2)
    gmsh.model.remove()


def no_physical(folder):
    gmsh.model.add("no_physical")
    geo = gmsh.model.geo
    p = [geo.addPoint(x, y, 0, 0.2) for x, y in [(0, 0), (2, 0), (1.5, 1), (0.5, 1)]]
    lines = [geo.addLine(p[i], p[(i + 1) % 4]) for i in range(4)]
    geo.addPlaneSurface([geo.addCurveLoop(lines)])
    geo.synchronize()
    gmsh.model.mesh.generate(2)
    write("no_physical_v41.msh", folder, 4.1)
    write("no_physical_v22.msh", folder, 2.2)
    gmsh.model.remove()


def box(folder):
    gmsh.model.add("box")
    occ = gmsh.model.occ
    volume = occ.addBox(0, 0, 0, 1, 2, 0.5)
    occ.synchronize()
    bottom, top, sides = [], [], []
    for _, surface in gmsh.model.getBoundary([(3, volume)], oriented=False):
        z = gmsh.model.occ.getCenterOfMass(2, surface)[2]
        (bottom if abs(z) < 1e-9 else top if abs(z - 0.5) < 1e-9 else sides).append(surface)
    gmsh.model.addPhysicalGroup(2, bottom, 1, "bottom")
    gmsh.model.addPhysicalGroup(2, top, 2, "top")
    gmsh.model.addPhysicalGroup(2, sides, 3, "sides")
    gmsh.model.addPhysicalGroup(3, [volume], 7, "box")
    gmsh.option.setNumber("Mesh.MeshSizeMax", 0.3)
    gmsh.model.mesh.generate(3)
    write("box_v41.msh", folder, 4.1)
    write("box_v41_binary.msh", folder, 4.1, binary=True)
    write("box_v22.msh", folder, 2.2)
    gmsh.model.remove()


def square_order2(folder):
    gmsh.model.add("square_order2")
    square = gmsh.model.occ.addRectangle(0, 0, 0, 1, 1)
    gmsh.model.occ.synchronize()
    gmsh.model.addPhysicalGroup(2, [square], 1)
    gmsh.option.setNumber("Mesh.MeshSizeMax", 0.5)
    gmsh.model.mesh.generate(2)
    gmsh.model.mesh.setOrder(2)
    write("square_order2_v41.msh", folder, 4.1)
    gmsh.model.remove()


def main():
    folder = sys.argv[1] if len(sys.argv) > 1 else os.path.join(
        os.path.dirname(os.path.abspath(__file__)), "..", "tests", "data", "gmsh")
    os.makedirs(folder, exist_ok=True)
    gmsh.initialize()
    gmsh.option.setNumber("General.Terminal", 0)
    for make in (square_hole, l_shape, no_physical, box, square_order2):
        gmsh.option.setNumber("Mesh.MeshSizeMax", 1e22)
        make(folder)
    gmsh.finalize()


if __name__ == "__main__":
    main()
