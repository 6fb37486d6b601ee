#pragma once
/// PolytopicMesh: the elements of a DG discretisation, each a connected set of fine simplices
/// of a SimplexMesh (a partition, e.g. from agglomerate()), with everything later stages need:
///
/// * elements: their fine cells (CSR) and the quadrature sub-triangulation (docs/theory.md,
/// "Quadrature"): the fine
///   cells themselves, or in 2D optionally an ear-clipping triangulation of the element's
///   boundary polygon with about one triangle per face (3D always keeps the fine tetrahedra);
/// * interfaces: one per unordered pair of neighbouring elements (a < b), however many faces
///   or fine facets it has, sorted by (a, b); each lists its fine facets with the fine cell on
///   either side (K_F of the penalty, docs/theory.md, "Penalty");
/// * boundary facets: the fine facets of each element on ∂Ω with their tag and owning cell;
/// * per element: bounding box B_κ (docs/theory.md, "Basis"), measure, diameter (largest vertex
/// distance),
///   boundary measure, number of faces, polynomial degree p_κ ∈ [1, 10];
/// * 2D: the boundary loop(s) of each element as ordered vertex cycles (for VTK_POLYGON).
///
/// Faces. A face of κ is a maximal connected piece of ∂κ over which both the unit normal and
/// what lies on the other side (one neighbouring element, or ∂Ω with one tag) are constant: a
/// flat part of one interface, or of one tagged boundary. Fine boundary facets that share a
/// (Dim−2)-subfacet, have parallel normals and the same other side belong to one face. This is
/// the face of the polytopic DG literature (a planar piece of an interface); the penalty itself
/// is evaluated per fine facet with |K_F| and does not depend on the count.
///
/// Construction throws polydg::Error when the partition has the wrong length, a label outside
/// [0, N), an empty element, or an element that is not connected through interior facets
/// (repair_partition fixes all of these), and for a degree outside [1, 10] (naming the
/// element). The fine mesh is shared (shared_ptr) and stays alive as long as the PolytopicMesh.
#include <array>
#include <iosfwd>
#include <memory>
#include <span>
#include <vector>

#include "polydg/core/types.hpp"
#include "polydg/mesh/simplex_mesh.hpp"

namespace polydg {

inline constexpr int min_element_degree = 1;
inline constexpr int max_element_degree = 10;

struct PolytopicMeshOptions {
  /// 2D: triangulate each element's boundary polygon (ear clipping after dropping the vertices
  /// where the boundary runs straight up to round-off, so that the triangles cover exactly the
  /// element) instead of reusing its fine triangles. An element whose boundary is not one
  /// simple loop (it has a hole), or where ear clipping fails or does not reproduce the
  /// element's area to 1e-12 relative, keeps its fine triangles and is counted in
  /// retriangulation_fallback_count(). 3D: ignored; the fine tetrahedra are kept.
  bool retriangulate = false;
  /// Two boundary facets that meet belong to one face when their unit normals differ by at most
  /// this (about the angle in radians) and they have the same thing on the other side.
  double face_angle_tolerance = 1e-10;
};

template <int Dim>
class PolytopicMesh {
 public:
  static_assert(Dim == 2 || Dim == 3, "PolytopicMesh is built for 2D and 3D meshes");
  static constexpr int dimension = Dim;
  /// A simplex of the quadrature sub-triangulation: indices into fine_mesh().vertices(),
  /// positively oriented.
  using Simplex = std::array<Index, Dim + 1>;
  /// A fine facet of an interface; cells[s] is the fine cell of interface_elements(i)[s] that
  /// has the facet (K_F on that side).
  struct InterfaceFacet {
    Index facet;
    std::array<Index, 2> cells;
  };
  /// A fine facet of an element on ∂Ω; `cell` is the element's fine cell that has it (K_F).
  struct BoundaryFacet {
    Index facet;
    Index cell;
    int tag;
  };

  /// One degree for every element.
  PolytopicMesh(std::shared_ptr<const SimplexMesh<Dim>> fine_mesh,
                std::span<const Index> element_of_cell, int degree,
                const PolytopicMeshOptions& options = {});
  /// One degree per element (degrees.size() == number of elements).
  PolytopicMesh(std::shared_ptr<const SimplexMesh<Dim>> fine_mesh,
                std::span<const Index> element_of_cell, std::vector<int> degrees,
                const PolytopicMeshOptions& options = {});

  const SimplexMesh<Dim>& fine_mesh() const { return *fine_mesh_; }
  const std::shared_ptr<const SimplexMesh<Dim>>& shared_fine_mesh() const { return fine_mesh_; }

  // ---- elements -----------------------------------------------------------------------------
  Index element_count() const { return Index(degrees_.size()); }
  Index element_of_cell(Index cell) const { return element_of_cell_[cell]; }
  std::span<const Index> partition() const { return element_of_cell_; }
  /// The fine cells of element e, ascending.
  std::span<const Index> element_cells(Index e) const {
    return range(element_cells_, element_cell_offsets_, e);
  }
  Index element_fine_cell_count(Index e) const {
    return element_cell_offsets_[e + 1] - element_cell_offsets_[e];
  }

  // ---- quadrature sub-triangulation ---------------------------------------------------------
  std::span<const Simplex> element_simplices(Index e) const {
    return range(simplices_, simplex_offsets_, e);
  }
  Index simplex_count() const { return Index(simplices_.size()); }
  std::array<Point<Dim>, Dim + 1> simplex_points(const Simplex& simplex) const;
  /// Elements that kept their fine cells although retriangulation was requested (2D).
  Index retriangulation_fallback_count() const { return retriangulation_fallbacks_; }

  // ---- interfaces ---------------------------------------------------------------------------
  Index interface_count() const { return Index(interface_elements_.size()); }
  /// The two elements of interface i, first < second.
  const std::array<Index, 2>& interface_elements(Index i) const { return interface_elements_[i]; }
  /// The fine facets of interface i, ascending by facet index.
  std::span<const InterfaceFacet> interface_facets(Index i) const {
    return range(interface_facets_, interface_facet_offsets_, i);
  }
  /// The interfaces of element e, ordered by the neighbouring element.
  std::span<const Index> element_interfaces(Index e) const {
    return range(element_interfaces_, element_interface_offsets_, e);
  }
  /// The element across interface i from element e (e must be one of its two elements).
  Index neighbour(Index interface, Index e) const {
    const auto& pair = interface_elements_[interface];
    return pair[0] == e ? pair[1] : pair[0];
  }

  // ---- boundary -----------------------------------------------------------------------------
  /// The fine facets of element e on ∂Ω, ascending by facet index.
  std::span<const BoundaryFacet> element_boundary_facets(Index e) const {
    return range(boundary_facets_, boundary_facet_offsets_, e);
  }
  Index boundary_facet_count() const { return Index(boundary_facets_.size()); }

  // ---- per-element geometry and degree ------------------------------------------------------
  const Box<Dim>& element_box(Index e) const { return boxes_[e]; }
  double element_measure(Index e) const { return measures_[e]; }
  /// Largest distance between two vertices of the element.
  double element_diameter(Index e) const { return diameters_[e]; }
  /// |∂κ|: the total measure of the element's boundary facets (interfaces and ∂Ω).
  double element_boundary_measure(Index e) const { return boundary_measures_[e]; }
  /// Number of faces (see the file comment for the definition).
  Index element_face_count(Index e) const { return face_counts_[e]; }
  int element_degree(Index e) const { return degrees_[e]; }
  std::span<const int> degrees() const { return degrees_; }
  /// |B_κ| / |κ| ≥ 1: how much of the bounding box the element fills (1 for a box).
  double element_box_coverage(Index e) const { return boxes_[e].measure() / measures_[e]; }
  /// Isoperimetric quotient d^d ω_d |κ|^(d−1) / |∂κ|^d ∈ (0, 1] (ω_d the unit ball's volume):
  /// 4π|κ|/|∂κ|² in 2D, 36π|κ|²/|∂κ|³ in 3D. 1 for a ball, π/4 for a square, 0.60 for an
  /// equilateral triangle; small for elongated elements and for ragged agglomerated boundaries.
  double element_roundness(Index e) const;

  // ---- 2D boundary loops --------------------------------------------------------------------
  /// Number of closed loops of ∂κ: 1, or 1 + the number of holes.
  Index element_loop_count(Index e) const requires(Dim == 2) {
    return element_loop_offsets_[e + 1] - element_loop_offsets_[e];
  }
  /// Loop k of element e as a vertex cycle (first vertex not repeated), the element on the
  /// left: loop 0 is the outer boundary, counter-clockwise; further loops are holes, clockwise.
  /// Every fine vertex on ∂κ is listed (straight corners included).
  std::span<const Index> element_loop(Index e, Index k) const requires(Dim == 2) {
    return range(loop_vertices_, loop_vertex_offsets_, element_loop_offsets_[e] + k);
  }

 private:
  template <class T>
  static std::span<const T> range(const std::vector<T>& values, const std::vector<Index>& offsets,
                                  Index i) {
    return {values.data() + offsets[i], values.data() + offsets[i + 1]};
  }
  void build(std::span<const Index> element_of_cell, const PolytopicMeshOptions& options);
  void collect_element_cells();
  void require_connected_elements() const;
  void collect_interfaces();
  void collect_boundary_facets();
  void compute_element_data(const PolytopicMeshOptions& options);

  std::shared_ptr<const SimplexMesh<Dim>> fine_mesh_;
  std::vector<Index> element_of_cell_;
  std::vector<Index> element_cell_offsets_, element_cells_;
  std::vector<Index> simplex_offsets_;
  std::vector<Simplex> simplices_;
  Index retriangulation_fallbacks_ = 0;
  std::vector<std::array<Index, 2>> interface_elements_;
  std::vector<Index> interface_facet_offsets_;
  std::vector<InterfaceFacet> interface_facets_;
  std::vector<Index> element_interface_offsets_, element_interfaces_;
  std::vector<Index> boundary_facet_offsets_;
  std::vector<BoundaryFacet> boundary_facets_;
  std::vector<Box<Dim>> boxes_;
  std::vector<double> measures_, diameters_, boundary_measures_;
  std::vector<Index> face_counts_;
  std::vector<int> degrees_;
  std::vector<Index> element_loop_offsets_, loop_vertex_offsets_, loop_vertices_;
};

extern template class PolytopicMesh<2>;
extern template class PolytopicMesh<3>;

/// One vertex cycle that traces the whole boundary of a 2D element, for formats that need a
/// single polygon (VTK_POLYGON): the outer loop, and for each hole a zero-width slit along
/// interior fine edges from the outer boundary to the hole, around the hole, and back. The
/// slit's two sides cancel, so the shoelace area is the element's measure. For an element
/// without holes this is element_loop(e, 0). Empty only if a hole cannot be reached through
/// interior fine edges (not expected for a connected element).
std::vector<Index> element_polygon(const PolytopicMesh<2>& mesh, Index e);

/// min / mean / max of one quality metric over the elements.
struct QualityStatistic {
  double min = 0, mean = 0, max = 0;
};

/// Summary of a polytopic mesh's element quality (see the PolytopicMesh accessors).
struct QualitySummary {
  int dimension = 0;
  Index element_count = 0, fine_cell_count = 0, simplex_count = 0, interface_count = 0;
  QualityStatistic box_coverage;  ///< |B_κ| / |κ|
  QualityStatistic faces;         ///< faces per element
  QualityStatistic fine_cells;    ///< fine cells per element
  QualityStatistic simplices;     ///< quadrature simplices per element
  QualityStatistic roundness;     ///< isoperimetric quotient
  QualityStatistic neighbours;    ///< interfaces per element
};

template <int Dim>
QualitySummary summarize_quality(const PolytopicMesh<Dim>& mesh);

/// Prints the summary as a table (one row per metric: min, mean, max).
void print_quality_summary(std::ostream& out, const QualitySummary& summary);

}  // namespace polydg
