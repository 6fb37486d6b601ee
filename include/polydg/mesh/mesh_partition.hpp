#pragma once
/// MeshPartition: the elements of a PolytopicMesh split over `part_count` parts (one per MPI
/// rank, one GPU each), computed from the mesh alone, so every rank computes the same one.
///
/// * Parts: METIS k-way on the element graph (elements adjacent when they share an interface)
///   with a fixed seed, contiguous parts requested, and vertex weights = each element's
///   quadrature cost (element_quadrature_cost), so parts balance assembly work rather than
///   element counts. METIS does not promise connected parts; disconnected ones are allowed
///   (a rank's rows need not be connected) and counted in disconnected_part_count.
/// * New numbering: part r owns the new elements [part_begin[r], part_begin[r + 1]), in their
///   old relative order, so a Hilbert (or first-cell) order from agglomeration is kept within
///   each part (polydg/mesh/element_order.hpp).
/// * Ghosts: per part, the elements of other parts that share an interface with one of its
///   own (the face neighbours whose data a rank's block rows read), as new indices, sorted;
///   with_ghost_layers widens them to the elements within k interfaces (ghost_layers = k).
/// One part gives the identity without calling METIS. Everything is in the new numbering
/// except part_of_element and element_weights, which are indexed by old element.
#include <span>
#include <vector>

#include "polydg/core/types.hpp"
#include "polydg/dg/quadrature_degree.hpp"
#include "polydg/mesh/polytopic_mesh.hpp"

namespace polydg {

/// The load imbalance METIS is asked to stay within: max part weight ≤ this × mean part weight
/// (METIS_OPTION_UFACTOR = 30, METIS's own default for k-way). METIS moves whole elements, so
/// the imbalance it reaches is this plus up to about one element's weight over the mean.
inline constexpr double mesh_partition_imbalance_tolerance = 1.03;

struct MeshPartitionOptions {
  /// METIS_OPTION_SEED: the same seed gives the same partition with the same METIS build.
  int seed = 1;
  /// The element rule's degree (2 p_κ + extra) used for the quadrature cost; the assembly's
  /// default unless the caller assembles with other QuadratureDegrees.
  QuadratureDegrees quadrature_degrees{};
};

struct MeshPartition {
  int part_count = 0;
  /// part_of_element[old element] ∈ [0, part_count).
  std::vector<int> part_of_element;
  /// new_from_old[old] and old_from_new[new]: inverse permutations of the elements.
  std::vector<Index> new_from_old, old_from_new;
  /// Size part_count + 1: part r owns new elements [part_begin[r], part_begin[r + 1]).
  std::vector<Index> part_begin;
  /// Per part: the new indices of the other parts' elements within ghost_layers interfaces of
  /// one of its elements (1: sharing an interface with one), ascending.
  std::vector<std::vector<Index>> ghosts;
  int ghost_layers = 1;
  /// Per part: interfaces with one element in the part and the other outside (the halo faces
  /// whose fluxes need ghost data).
  std::vector<Index> halo_interface_counts;
  /// The METIS vertex weight of each element (old numbering) and their sum per part.
  std::vector<GlobalIndex> element_weights;
  std::vector<GlobalIndex> part_weights;
  /// Parts whose elements are not connected through interfaces (always possible on a mesh
  /// that is itself disconnected, where contiguity is not requested), and parts with no
  /// element (METIS may leave one empty when parts are close to the element count).
  int disconnected_part_count = 0;
  int empty_part_count = 0;

  Index owned_count(int part) const { return part_begin[part + 1] - part_begin[part]; }
  /// The old indices (the mesh's own element ids) of the elements part `part` owns, in its
  /// order: a rank's local element k < owned_count(part) is owned_elements(part)[k].
  std::span<const Index> owned_elements(int part) const {
    return std::span<const Index>(old_from_new)
        .subspan(std::size_t(part_begin[part]), std::size_t(owned_count(part)));
  }
  Index ghost_count(int part) const { return Index(ghosts[part].size()); }
  /// max part weight / mean part weight (1 is perfect balance).
  double load_imbalance() const;
};

/// The quadrature cost of element e: its quadrature sub-simplices × the points of the simplex
/// rule of degree quadrature_degrees.element(p_κ) (the work of the element kernels, which
/// loop over exactly these points; docs/theory.md, "Quadrature"). With one degree everywhere
/// it is proportional to the sub-simplex count; with mixed degrees a p = 4 element weighs more
/// than a p = 1 element of the same size.
template <int Dim>
GlobalIndex element_quadrature_cost(const PolytopicMesh<Dim>& mesh, Index e,
                                    const QuadratureDegrees& quadrature_degrees = {});

/// Splits the mesh's elements into `parts` parts (see the file comment). Throws polydg::Error
/// for parts < 1, and for parts > element_count (a part, hence a rank, would own no element:
/// refused rather than handed to the caller as an empty rank), naming both counts; and when
/// METIS fails or the weights do not fit METIS's index type.
template <int Dim>
MeshPartition partition_mesh(const PolytopicMesh<Dim>& mesh, int parts,
                             const MeshPartitionOptions& options = {});

/// The MeshPartition of a part chosen for each element (`part_of_element[e]` ∈ [0, parts)), as
/// partition_mesh builds it from METIS's (the new numbering, ghosts, weights): e.g. a coarse
/// level of a distributed multigrid whose parts come from its children's (partition_levels).
/// Parts may be empty (counted in empty_part_count). Throws polydg::Error for a size that does
/// not match the mesh or a part outside [0, parts).
template <int Dim>
MeshPartition partition_from_parts(const PolytopicMesh<Dim>& mesh, std::vector<int> part_of_element,
                                   int parts, const MeshPartitionOptions& options = {});

/// `partition` (one ghost layer, of `mesh`) with each part's ghosts widened to the other parts'
/// elements within `layers` interfaces of its own (the same parts and numbering; halo interface
/// counts unchanged). A second layer lets a rank compute its first layer's residuals itself: the
/// device explicit solvers then need no exchange before a stage limiter
/// (DistributedDeviceExplicitDG). Throws polydg::Error for layers < 1 or a partition of another
/// mesh or already widened.
template <int Dim>
MeshPartition with_ghost_layers(const MeshPartition& partition, const PolytopicMesh<Dim>& mesh,
                                int layers);

}  // namespace polydg
