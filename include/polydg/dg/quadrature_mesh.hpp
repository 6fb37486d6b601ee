#pragma once
/// QuadratureMesh: the flat structure-of-arrays the assembly kernels read (docs/theory.md,
/// "Quadrature"), built once per mesh and boundary conditions and reused by every assembly.
///
/// * elements: bounding box, degree, measure, their sub-simplices (CSR, sorted by element);
///   `elements_by_degree` lists the elements grouped by degree (ascending), with
///   `degree_offsets[p] .. degree_offsets[p + 1]` the elements of degree p;
/// * interfaces (as PolytopicMesh): the element pair (first < second) and the sub-facets
///   between them (CSR), each with its vertices, its unit normal pointing out of the first
///   element, its measure and |K_F| on both sides; `interfaces_by_degree` groups interfaces by
///   the larger degree of their elements (the degree their quadrature uses);
/// * boundary sub-facets grouped by element (CSR), each with vertices, outward unit normal,
///   measure, |K_F|, tag and the tag's BoundaryKind; within an element, in three runs: the
///   previous_slab facets (a slab's bottom face) up to element_boundary_previous_slab_ends[e],
///   the other facets, and the others whose normal is along +e_last (is_last_axis_top: a slab's
///   top face) from element_boundary_top_begins[e] on. So the device's
///   boundary kernels take each element's facets as one range: without the top ones where the
///   coefficients leave that face idle, without the previous_slab ones for the rhs (which they
///   give no boundary data), those alone for the previous slab's term (boundary_face_kernel.cuh).
/// Vertices are copied (not indexed) so a kernel reads one contiguous record per piece.
///
/// Pieces (QuadraturePieces): by default the sub-cells and sub-facets are the fine simplices.
/// On a space-time slab (make_slab_mesh) `slab_prisms` integrates over the prisms K × I_n
/// instead of their three tetrahedra and over the lateral rectangles F × I_n of interfaces
/// instead of their two triangles: the same integrals with a third of the element points and
/// half the interface points (prism and square rules: SlabRules). A
/// piece record is still Dim + 1 (sub-cell) or Dim (sub-facet) points v_0.. defining the affine
/// map x(ξ) = v_0 + Σ ξ_i (v_i − v_0) (fem/affine_simplex_map.hpp), now from the reference
/// prism (simplex × [0, 1], time last: v_Dim is v_0 one slab later) or square; weights are
/// reference weights × affine_measure_ratio as for simplices. Boundary sub-facets stay
/// triangles (the bottom and top faces are triangles; the lateral boundary keeps its two).
/// Only the quadrature changes, not the discretisation: the penalty (penalty.hpp) stays that of
/// the tetrahedral sub-mesh — a rectangle's |F| is one of its (equal) triangles' areas and
/// |K_F| on each side the smaller of its two triangles' cells, so σ on the rectangle is the
/// larger of its triangles' σ (equal to them where the polytopic cap binds, e.g. p = 1).
/// element_piece_rule() and interface_piece_rule() give the reference rules (pieces, slab_rules).
///
/// A rank's part of a distributed mesh (the constructor with a MeshPartition): the elements the
/// rank owns, [0, owned_element_count), in the partition's new order, then its ghosts (the
/// partition's ghosts of that rank, ascending); the interfaces with an owned element, oriented
/// and sorted by local index as on a whole mesh; the boundary sub-facets of every element here.
/// The assembly kernels integrate over owned elements and their boundary only, and over every
/// interface here, so the owned block rows are complete while the ghost rows get only their
/// halo interfaces' blocks (to be discarded). A ghost's trace constant needs its whole boundary:
/// the sub-facets of its interfaces that are not here (to other ghosts, or to elements not
/// here) are kept as ghost_outer_facet_vertices.
///
/// The same part from a rank part file (rank_part_file.hpp: no rank holds the whole mesh): the
/// constructor with an owned count and a cut tag takes the PolytopicMesh of the part's
/// submesh, its elements already owned first, and its facets of `cut_tag` are where the part
/// ends, not ∂Ω: they bound ghosts only, are no boundary sub-facets, and join the ghosts' outer
/// facets (with slab_prisms, the two triangles of each lateral rectangle as one piece: the slab
/// of a part, make_slab_mesh of its PolytopicMesh, is the whole slab's part).
#include <array>
#include <string>
#include <vector>

#include "polydg/core/default_init_allocator.hpp"
#include "polydg/core/error.hpp"
#include "polydg/core/types.hpp"
#include "polydg/dg/boundary_conditions.hpp"
#include "polydg/dg/penalty.hpp"
#include "polydg/fem/basis_space.hpp"
#include "polydg/fem/quadrature_rule.hpp"
#include "polydg/mesh/mesh_partition.hpp"
#include "polydg/mesh/polytopic_mesh.hpp"

namespace polydg {

/// What the quadrature pieces of a QuadratureMesh are (see above).
enum class QuadraturePieces {
  simplices,    ///< the fine simplices and facets
  slab_prisms,  ///< space-time slabs only: prisms K × I_n and lateral rectangles F × I_n
};

/// The reference rules on slab_prisms pieces (prisms and lateral rectangles).
enum class SlabRules {
  /// Exact to the degree in space and in time separately: tensor products of a triangle or
  /// segment rule and a Gauss rule in time (fem/tensor_quadrature.hpp).
  tensor,
  /// Exact to the total degree (fem/symmetric_slab_rules.hpp): 1.6–1.8× fewer prism points
  /// from degree 4 on, 1.25–1.5× fewer rectangle points at even degrees; the tensor rule at a
  /// degree they do not improve. Exact for the same integrands as `tensor` on P_p spaces, not
  /// on PQ_p (slab_rules_for).
  total_degree,
};

/// The rules an assembly of `space` takes when `requested` is asked for: total_degree only for
/// P_p, whose products have total degree 2p; PQ_p's have degree 2p in space and 2p in time.
inline SlabRules slab_rules_for(BasisSpace space, SlabRules requested) {
  return space == BasisSpace::total_degree ? requested : SlabRules::tensor;
}

/// The reference rule of degree `degree` on an element piece: the reference Dim-simplex, or
/// the reference prism (`rules`; SlabRules::total_degree only in 3D).
template <int Dim>
const QuadratureRule<Dim>& element_piece_rule(QuadraturePieces pieces, SlabRules rules, int degree);
/// The reference rule on an interface piece: the reference (Dim−1)-simplex, or the unit
/// square/segment × [0, 1] (a lateral facet of a slab; `rules` as above). Boundary pieces are
/// always simplices.
template <int Dim>
const QuadratureRule<Dim - 1>& interface_piece_rule(QuadraturePieces pieces, SlabRules rules,
                                                    int degree);

/// The geometry arrays of a QuadratureMesh (hundreds of MB on large slabs): std::vector whose
/// resize leaves the elements uninitialized, for the parallel loops that fill them to write
/// (and first touch) them (DefaultInitAllocator).
template <class T>
using GeometryArray = std::vector<T, DefaultInitAllocator<T>>;

template <int Dim>
struct QuadratureMesh {
  using SimplexVertices = std::array<Point<Dim>, Dim + 1>;
  using FacetVertices = std::array<Point<Dim>, Dim>;

  /// Throws polydg::Error (from BoundaryConditions) for a boundary tag with no condition, and
  /// for slab_prisms on a mesh that is not a slab: Dim ≠ 3, or fine cells 3k..3k+2 that are
  /// not the three tetrahedra of one prism between two time levels (extrude_to_slab's order).
  QuadratureMesh(const PolytopicMesh<Dim>& mesh, const BoundaryConditions& conditions,
                 QuadraturePieces pieces = QuadraturePieces::simplices);
  /// Rank `rank`'s part of `mesh` split by `partition` (see the file comment): the partition
  /// must be of this mesh (its element count is checked). Throws polydg::Error as above, and
  /// for a rank outside [0, partition.part_count).
  QuadratureMesh(const PolytopicMesh<Dim>& mesh, const BoundaryConditions& conditions,
                 QuadraturePieces pieces, const MeshPartition& partition, int rank);
  /// A rank's part as a mesh of its own (see the file comment): `part` on a RankPart's
  /// submesh (or the slab of one), elements [0, owned_elements) owned. Throws polydg::Error as
  /// above, for an owned element with a facet of `cut_tag`, and for a cut triangle of a slab
  /// with no second one in its lateral rectangle.
  QuadratureMesh(const PolytopicMesh<Dim>& part, const BoundaryConditions& conditions,
                 QuadraturePieces pieces, Index owned_elements, int cut_tag);

  Index element_count() const { return Index(element_degrees.size()); }
  /// Elements [0, owned_element_count) are assembled; the rest are ghosts (file comment). The
  /// element count on a whole mesh.
  Index owned_element_count = 0;
  /// What simplex_vertices and interface_facet_vertices describe (see the file comment).
  QuadraturePieces pieces = QuadraturePieces::simplices;
  Index interface_count() const { return Index(interface_elements.size()); }
  int max_degree() const { return Index(degree_offsets.size()) - 2; }

  /// The element space: P_p, or PQ_p on space-time slabs (set by the Assembler).
  BasisSpace space = BasisSpace::total_degree;
  /// The rules on slab_prisms pieces (set by the Assembler, through slab_rules_for: total_degree
  /// only with a P_p space). Every kernel, estimate and error norm on this mesh takes them.
  SlabRules slab_rules = SlabRules::tensor;
  /// The penalty's inverse-estimate factor (set by the Assembler; see penalty.hpp).
  PenaltyScaling penalty_scaling = PenaltyScaling::element_trace;
  /// T_κ per element (element_trace_constants.hpp) where penalty_scaling is element_trace,
  /// empty otherwise (set with the scaling by apply_assembly_options).
  GeometryArray<double> element_trace_constants;

  // elements
  GeometryArray<Box<Dim>> element_boxes;
  std::vector<int> element_degrees;
  GeometryArray<double> element_measures;
  std::vector<Index> element_simplex_offsets;
  /// The element pieces (sub-simplices, or prisms with slab_prisms).
  GeometryArray<SimplexVertices> simplex_vertices;
  std::vector<Index> elements_by_degree;
  std::vector<Index> degree_offsets;

  // interfaces and their sub-facets
  std::vector<std::array<Index, 2>> interface_elements;
  std::vector<Index> interface_facet_offsets;
  GeometryArray<FacetVertices> interface_facet_vertices;
  GeometryArray<Point<Dim>> interface_facet_normals;
  GeometryArray<double> interface_facet_measures;
  GeometryArray<std::array<double, 2>> interface_facet_cell_measures;
  std::vector<Index> interfaces_by_degree;
  std::vector<Index> interface_degree_offsets;

  // boundary sub-facets, grouped by element
  std::vector<Index> element_boundary_offsets;
  /// Per element, the end of its leading previous_slab sub-facets (all of them; see the file
  /// comment): element_boundary_offsets[e] where it has none.
  std::vector<Index> element_boundary_previous_slab_ends;
  /// Per element, its first boundary sub-facet after the previous_slab ones whose normal is
  /// along +e_last (is_last_axis_top; the rest of its range are such too);
  /// element_boundary_offsets[e + 1] where it has none.
  std::vector<Index> element_boundary_top_begins;
  GeometryArray<FacetVertices> boundary_facet_vertices;
  GeometryArray<Point<Dim>> boundary_facet_normals;
  GeometryArray<double> boundary_facet_measures;
  GeometryArray<double> boundary_facet_cell_measures;
  std::vector<int> boundary_facet_tags;
  std::vector<BoundaryKind> boundary_facet_kinds;

  // ghosts' sub-facets of interfaces not here (CSR over ghosts g = e − owned; empty on a whole
  // mesh): read by the trace constants only
  std::vector<Index> ghost_outer_facet_offsets;
  GeometryArray<FacetVertices> ghost_outer_facet_vertices;

 private:
  struct Selection;
  QuadratureMesh(const PolytopicMesh<Dim>& mesh, const BoundaryConditions& conditions,
                 QuadraturePieces pieces, const Selection& selection);
};

/// T_κ of element e for penalty_term: element_trace_constants[e], or 0 where the scaling does
/// not read it.
template <int Dim>
double element_trace_constant(const QuadratureMesh<Dim>& mesh, Index e) {
  return mesh.element_trace_constants.empty() ? 0.0 : mesh.element_trace_constants[e];
}

/// Throws polydg::Error (naming `user`) when the mesh's penalty scaling needs the element trace
/// constants and they are missing: a QuadratureMesh that did not go through
/// apply_assembly_options (assembler.hpp).
template <int Dim>
void require_penalty_data(const QuadratureMesh<Dim>& mesh, const char* user) {
  if (mesh.penalty_scaling == PenaltyScaling::element_trace &&
      Index(mesh.element_trace_constants.size()) != mesh.element_count())
    throw Error(std::string(user) +
                ": the penalty scaling element_trace needs the element trace constants, which "
                "this QuadratureMesh lacks; pass it through apply_assembly_options first");
}

/// Whether a normal points along +e_last: its other components exact zeros, the last positive
/// (a space-time slab's top face, n = e_t; a facet at one time level has exact zeros there, and
/// its last component is 1 to rounding).
template <int Dim>
bool is_last_axis_top(const Point<Dim>& normal) {
  for (int d = 0; d + 1 < Dim; ++d)
    if (normal[d] != 0) return false;
  return normal[Dim - 1] > 0;
}

/// Maps the mesh's last coordinate affinely from [from_begin, from_end] onto [to_begin, to_end]
/// (a space-time slab onto the next time interval; LastCoordinateMap): vertices, boxes and
/// measures change, the index arrays do not. Only for meshes whose interface and boundary
/// sub-facets are parallel or orthogonal to the last axis (prismatic slabs), whose normals the
/// map leaves unchanged; throws polydg::Error otherwise (check_last_axis_facets), and for an
/// empty interval.
template <int Dim>
void map_last_coordinate(QuadratureMesh<Dim>& mesh, double from_begin, double from_end,
                         double to_begin, double to_end);

/// Throws polydg::Error naming the first interface or boundary sub-facet whose normal is
/// neither parallel nor orthogonal to the last axis (map_last_coordinate's requirement).
template <int Dim>
void check_last_axis_facets(const QuadratureMesh<Dim>& mesh);

extern template struct QuadratureMesh<2>;
extern template struct QuadratureMesh<3>;

}  // namespace polydg
