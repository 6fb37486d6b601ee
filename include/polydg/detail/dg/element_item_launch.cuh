#pragma once
// What the launches of the element and boundary kernels (element_kernel.cuh,
// boundary_face_kernel.cuh) share: their items are the elements of one degree p, an item's
// points are its pieces' rule points (point k: piece k / Q, rule point k mod Q — sub-simplices
// for the element kernel, boundary sub-facets for the boundary kernel), and its table is the
// element's diagonal block and rhs segment (ElementTableTargets). Each kernel's launch derives
// from this and adds its point data (evaluate_point, evaluate_function) for
// tiled_point_schedule.cuh and vector_point_schedule.cuh; launch_element_items sends one
// degree's launch to the right one.
#include "polydg/core/macros.hpp"
#include "polydg/core/types.hpp"
#include "polydg/detail/dg/device_quadrature_mesh.cuh"
#include "polydg/detail/dg/element_table_targets.cuh"
#include "polydg/detail/dg/non_finite_watch.cuh"
#include "polydg/detail/dg/tiled_point_schedule.cuh"
#include "polydg/detail/dg/vector_point_schedule.cuh"
#include "polydg/sparse/device_block_pattern.hpp"

namespace polydg::device::detail {

template <int Dim, class ValueType>
struct ElementItemLaunch {
  using Real = ValueType;
  DeviceQuadratureMeshView<Dim> mesh;
  DeviceBlockPatternView pattern;
  const Index* elements;  ///< the items: elements of degree p
  int p, n;               ///< the degree and N_p
  Real* values;           ///< null: matrix not assembled
  Real* rhs;              ///< null: rhs not assembled
  NonFiniteWatch<Real> watch;
  bool overwrite_blocks = false;  ///< ElementTableTargets::overwrite_block

  struct Item {
    Index element;
    Index piece_begin;            ///< the element's first piece
    Index rule_begin, rule_size;  ///< the degree's rule in the mesh's rule arrays
    Index point_count;
    ElementTableTargets<Real> targets;
  };

  /// Item b: element elements[b], whose pieces are piece_begins[e] .. piece_ends[e] − 1
  /// (piece_begins null: piece_offsets; piece_ends null: piece_offsets + 1), each integrated
  /// with the rule rule_offsets[p] .. rule_offsets[p + 1] − 1.
  __device__ Item element_item(Index b, const Index* piece_offsets, const Index* rule_offsets,
                               const Index* piece_begins = nullptr,
                               const Index* piece_ends = nullptr) const {
    Item it;
    it.element = elements[b];
    it.piece_begin = piece_begins ? piece_begins[it.element] : piece_offsets[it.element];
    it.rule_begin = rule_offsets[p];
    it.rule_size = rule_offsets[p + 1] - it.rule_begin;
    const Index piece_end = piece_ends ? piece_ends[it.element] : piece_offsets[it.element + 1];
    it.point_count = Index(piece_end - it.piece_begin) * it.rule_size;
    it.targets =
        ElementTableTargets<Real>(pattern, it.element, n, values, rhs, overwrite_blocks, watch);
    return it;
  }
  /// Point k of the item: its piece and its rule point.
  __device__ Index piece(const Item& it, Index k) const {
    return it.piece_begin + Index(k / it.rule_size);
  }
  __device__ Index rule_point(const Item& it, Index k) const {
    return it.rule_begin + Index(k % it.rule_size);
  }

  POLYDG_HD int stride() const { return p + 1; }
  __device__ int rows(const Item&) const { return n; }
  __device__ int columns(const Item& it) const { return it.targets.columns(); }
  __device__ Index point_count(const Item& it) const { return it.point_count; }
  __device__ int function_code(const Item&, int u) const {
    return u < n ? mesh.basis_code(p, u) : 0;
  }
  __device__ Real initial(const Item& it, int i, int j) const { return it.targets.initial(i, j); }
  __device__ void store(const Item& it, int i, int j, Real value) const {
    it.targets.store(i, j, value);
  }
  /// store() of (i, j) and (i, j + 1), j + 1 < columns, given their sums (ElementTableTargets).
  __device__ void store_pair(const Item& it, int i, int j, Real first, Real second) const {
    it.targets.store_pair(i, j, first, second);
  }
  template <int R, int C>
  __device__ bool store_table(const Item& it, const Real (&sum)[R][C]) const {
    return it.targets.store_table(sum);
  }
};

/// One degree's launch of the element or boundary kernel: its matrix
/// table (launch.values; rhs null) by launch_tiled_points, or its rhs column (launch.rhs;
/// values null) by launch_rhs_points. groups: the launch's items by degree; rule_size: the
/// points of one of their pieces.
template <class Launch>
void launch_element_items(const Launch& launch, const DegreeGroups& groups, Index rule_size,
                          const char* name, const LaunchLimits& limits) {
  const int p = launch.p, n = launch.n;
  const GlobalIndex max_points = GlobalIndex(groups.max_pieces[p]) * rule_size;
  const GlobalIndex total_points = groups.total_pieces[p] * rule_size;
  if (launch.values)
    launch_tiled_points(launch, groups.count(p), n, n, launch.record_size(), max_points,
                        total_points, name, limits);
  else
    launch_rhs_points(launch, groups.count(p), n, launch.record_size(), max_points, total_points,
                      name, limits);
}

}  // namespace polydg::device::detail
