#pragma once
/// Space-time slabs (docs/theory.md, "Space-time slabs, as built"): the polytopic mesh of D × I_n
/// on which one time step is solved.
///
/// The slab is problem (1) in d + 1 = 3 dimensions: each fine triangle K of the spatial mesh
/// becomes the prism K × I_n, cut into three tetrahedra whose lateral diagonals are chosen by
/// global vertex number, so neighbouring prisms agree and the tetrahedra form a conforming
/// SimplexMesh<3>. A space-time element is κ × I_n: the tetrahedra of κ's triangles. So the
/// element integrals, the lateral faces F × I_n (interfaces and spatial boundary, split into
/// two triangles each), the bottom face (t = t_{n−1}, hyperbolic inflow in time) and the top
/// face (outflow) all go through the general 3D machinery, and P_p(κ × I_n) is the 3D
/// bounding-box Legendre space on B_κ × I_n. The quadrature may still run over the prisms and
/// the lateral rectangles instead of their tetrahedra and triangles
/// (QuadraturePieces::slab_prisms, slab_assembly_options(): cells 3k..3k+2 are prism k).
///
/// Lateral faces keep the spatial boundary tags; the bottom and top faces get
/// slab_bottom_tag and slab_top_tag. The slab is built once on the reference interval [0, 1];
/// each time step maps it onto I_n (Assembler::map_last_coordinate), so every slab shares the
/// pattern and the index arrays of the first.
#include <memory>

#include "polydg/mesh/polytopic_mesh.hpp"
#include "polydg/mesh/simplex_mesh.hpp"

namespace polydg {

/// Boundary tags of the slab's bottom (t = t_{n−1}) and top (t = t_n) faces.
inline constexpr int slab_bottom_tag = 1'000'001;
inline constexpr int slab_top_tag = 1'000'002;

/// The prisms K × [t0, t1] of every triangle K, each as three tetrahedra (see above).
/// Vertex v of the spatial mesh gives vertices v (at t0) and v + V (at t1), V = vertex count.
/// Cell 3k + j is tetrahedron j of triangle k; regions are the triangles' regions.
SimplexMesh<3> extrude_to_slab(const SimplexMesh<2>& spatial, double t0 = 0, double t1 = 1);

/// The space-time elements κ × [0, 1] of a polytopic spatial mesh, with degree p per element
/// (the spatial mesh's degrees, or `degree` for all when given).
PolytopicMesh<3> make_slab_mesh(const PolytopicMesh<2>& spatial);
PolytopicMesh<3> make_slab_mesh(const PolytopicMesh<2>& spatial, int degree);

}  // namespace polydg
