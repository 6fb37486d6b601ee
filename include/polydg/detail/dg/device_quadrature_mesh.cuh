#pragma once
// DeviceQuadratureMesh: the QuadratureMesh (polydg/dg/quadrature_mesh.hpp) in device memory,
// with the quadrature rules the kernels use and the work lists they are launched on.
//
// * Arrays: those of QuadratureMesh, flattened (vertices Dim + 1 or Dim points per piece, two
//   cell measures per interface facet, two elements per interface).
// * Rules: for every degree p ≤ max_degree, the element piece rule of
//   QuadratureDegrees::element(p), and the interface piece rule and the boundary (simplex)
//   facet rule of face(p, p), each kind concatenated (rule p at offsets[p] .. offsets[p + 1]);
//   the piece rules follow QuadratureMesh::pieces (simplices or slab prisms).
// * Work lists, grouped by degree so one launch has one block shape: all elements (by degree),
//   interfaces (by the larger degree of their elements, which their rule uses), and for each
//   BoundaryFacetSelection the elements with facets in it (QuadratureMesh's runs of previous_slab,
//   other and top facets); within a degree, items with more pieces (sub-simplices / sub-facets)
//   first. Each group knows the most pieces of its items, to size the point batches.
// Built once per mesh; update_geometry re-uploads coordinates after map_last_coordinate.
#include <algorithm>
#include <array>
#include <future>
#include <span>
#include <utility>
#include <vector>

#include "polydg/core/device_buffer.hpp"
#include "polydg/core/types.hpp"
#include "polydg/detail/core/cuda_check.cuh"
#include "polydg/detail/dg/basis_tables.cuh"
#include "polydg/dg/boundary_conditions.hpp"
#include "polydg/dg/last_coordinate_map.hpp"
#include "polydg/dg/penalty.hpp"
#include "polydg/dg/point_coefficients.hpp"
#include "polydg/dg/quadrature_degree.hpp"
#include "polydg/dg/quadrature_mesh.hpp"
#include "polydg/fem/basis_space.hpp"
#include "polydg/fem/legendre_basis.hpp"
#include "polydg/fem/quadrature_cache.hpp"

namespace polydg {

/// Raw device pointers of a DeviceQuadratureMesh, passed by value to kernels (read-only).
template <int Dim>
struct DeviceQuadratureMeshView {
  BasisSpace space = BasisSpace::total_degree;
  PenaltyScaling penalty_scaling = PenaltyScaling::element_trace;
  // elements
  const int* degrees = nullptr;
  const Box<Dim>* boxes = nullptr;
  /// inverse_extents(boxes[e]) (legendre_basis.hpp)
  const Point<Dim>* box_inverse_extents = nullptr;
  const double* measures = nullptr;
  /// T_κ (element_trace_constants.hpp); null unless penalty_scaling is element_trace
  const double* trace_constants = nullptr;
  const Index* simplex_offsets = nullptr;        ///< element_count + 1
  const Point<Dim>* simplex_vertices = nullptr;  ///< Dim + 1 per sub-simplex
  // interfaces
  const Index* interface_elements = nullptr;  ///< 2 per interface (first < second)
  const Index* interface_facet_offsets = nullptr;
  const Point<Dim>* interface_facet_vertices = nullptr;  ///< Dim per sub-facet
  const Point<Dim>* interface_facet_normals = nullptr;   ///< out of the first element
  const double* interface_facet_measures = nullptr;
  const double* interface_facet_cell_measures = nullptr;  ///< 2 per sub-facet
  // boundary sub-facets, grouped by element
  const Index* element_boundary_offsets = nullptr;
  // (the runs of each element's facets reach the kernels as BoundaryFacetRanges)
  const Point<Dim>* boundary_facet_vertices = nullptr;  ///< Dim per sub-facet
  const Point<Dim>* boundary_facet_normals = nullptr;
  const double* boundary_facet_measures = nullptr;
  const double* boundary_facet_cell_measures = nullptr;
  const BoundaryKind* boundary_facet_kinds = nullptr;
  // The number of the first quadrature point of each sub-simplex, boundary sub-facet and
  // interface sub-facet among the points of its kind (point_coefficients.hpp); null until
  // DeviceQuadratureMesh::number_points
  const GlobalIndex* element_point_offsets = nullptr;
  const GlobalIndex* boundary_point_offsets = nullptr;
  const GlobalIndex* interface_point_offsets = nullptr;
  // basis functions: the code (basis_tables.cuh) of function k of the degree-p basis of `space`
  // at basis_codes[p · basis_code_stride + k], p ≤ the mesh's max degree — a load where
  // basis_function_code's loops and integer divisions cost thousands of instructions per P_1
  // interface (its eight functions, once per item)
  const int* basis_codes = nullptr;
  int basis_code_stride = 0;
  // rules (reference points and weights, all degrees)
  const Index* element_rule_offsets = nullptr;
  const Point<Dim>* element_rule_points = nullptr;
  const double* element_rule_weights = nullptr;
  const Index* interface_rule_offsets = nullptr;
  const Point<Dim - 1>* interface_rule_points = nullptr;
  const double* interface_rule_weights = nullptr;
  const Index* boundary_rule_offsets = nullptr;
  const Point<Dim - 1>* boundary_rule_points = nullptr;
  const double* boundary_rule_weights = nullptr;

  __device__ int basis_code(int p, int k) const { return basis_codes[p * basis_code_stride + k]; }
};

/// Items of one kind grouped by degree: items[offsets[p] .. offsets[p + 1]) have degree p, the
/// largest of them has max_pieces[p] pieces and all together total_pieces[p]. items lives on the
/// device, the rest on the host.
struct DegreeGroups {
  device::DeviceBuffer<Index> items;
  std::vector<Index> offsets;
  std::vector<Index> max_pieces;
  std::vector<GlobalIndex> total_pieces;
  std::vector<Index> host_items;

  Index count(int p) const { return offsets[p + 1] - offsets[p]; }
  const Index* group(int p) const { return items.data() + offsets[p]; }
};

/// Which of each element's boundary sub-facets a launch integrates, from QuadratureMesh's three
/// runs (previous_slab, other, top).
enum class BoundaryFacetSelection {
  all,
  all_below_top,                ///< not the top ones
  not_previous_slab,            ///< not the leading previous_slab ones
  not_previous_slab_below_top,  ///< neither (the other run alone)
  previous_slab,                ///< the leading previous_slab ones alone
};
inline constexpr int boundary_facet_selections = 5;  ///< BoundaryFacetSelection's values

/// The bounds of an element's runs of boundary facets: its first facet, the end of its
/// previous_slab run, the start of its top run, its end.
enum class FacetRunBound { first, previous_slab_end, top_begin, end };
/// Where a selection's facets start and stop in each element: the one map from selections to
/// ranges, for the work lists (host) and the launches (device).
struct FacetRunBounds {
  FacetRunBound begin, end;
};
constexpr FacetRunBounds run_bounds(BoundaryFacetSelection selection) {
  using Bound = FacetRunBound;
  switch (selection) {
    case BoundaryFacetSelection::all:
      return {Bound::first, Bound::end};
    case BoundaryFacetSelection::all_below_top:
      return {Bound::first, Bound::top_begin};
    case BoundaryFacetSelection::not_previous_slab:
      return {Bound::previous_slab_end, Bound::end};
    case BoundaryFacetSelection::not_previous_slab_below_top:
      return {Bound::previous_slab_end, Bound::top_begin};
    case BoundaryFacetSelection::previous_slab:
      break;
  }
  return {Bound::first, Bound::previous_slab_end};
}

/// The facets of one BoundaryFacetSelection: per element of `groups` (those with any), facets
/// begins[e] .. ends[e] − 1 (device arrays; null: element_boundary_offsets[e], [e + 1]); the
/// groups' pieces count those facets.
struct BoundaryFacetRanges {
  const DegreeGroups* groups = nullptr;
  const Index* begins = nullptr;
  const Index* ends = nullptr;
};

namespace detail {

/// Groups the items i < count with include(i) by degree(i) ≤ max_degree, and within a degree by
/// pieces(i) (quadrature pieces: its points are pieces × the rule's), most first, otherwise in
/// index order. Items of a size side by side keep a one-item-per-thread launch's warps from
/// waiting on their largest item (a warp of mixed sizes takes as long as its largest), and the
/// largest items go first; which
/// item a thread or block takes does not change the sums.
/// (The host part: everything but `items`, which DeviceQuadratureMesh uploads.)
template <class Degree, class Include, class Pieces>
DegreeGroups order_degree_groups(Index count, int max_degree, const Degree& degree,
                                 const Include& include, const Pieces& pieces) {
  DegreeGroups groups;
  groups.offsets.assign(std::size_t(max_degree) + 2, 0);
  groups.max_pieces.assign(std::size_t(max_degree) + 1, 0);
  groups.total_pieces.assign(std::size_t(max_degree) + 1, 0);
  for (Index i = 0; i < count; ++i)
    if (include(i)) {
      ++groups.offsets[degree(i) + 1];
      groups.max_pieces[degree(i)] = std::max(groups.max_pieces[degree(i)], pieces(i));
      groups.total_pieces[degree(i)] += pieces(i);
    }
  for (int p = 0; p <= max_degree; ++p) groups.offsets[p + 1] += groups.offsets[p];
  // A counting sort on (degree, max_pieces[degree] − pieces): fill[p][m] is where the next item
  // of degree p with m pieces fewer than the most goes.
  std::vector<std::vector<Index>> fill(std::size_t(max_degree) + 1);
  for (int p = 0; p <= max_degree; ++p) fill[p].assign(std::size_t(groups.max_pieces[p]) + 2, 0);
  for (Index i = 0; i < count; ++i)
    if (include(i)) ++fill[degree(i)][std::size_t(groups.max_pieces[degree(i)] - pieces(i)) + 1];
  for (int p = 0; p <= max_degree; ++p) {
    fill[p][0] = groups.offsets[p];
    for (std::size_t m = 1; m < fill[p].size(); ++m) fill[p][m] += fill[p][m - 1];
  }
  groups.host_items.resize(groups.offsets.back());
  for (Index i = 0; i < count; ++i)
    if (include(i))
      groups.host_items[fill[degree(i)][std::size_t(groups.max_pieces[degree(i)] - pieces(i))]++] =
          i;
  return groups;
}

/// The values of a vector of N-arrays as one span, without a copy (std::array has no padding):
/// copying them into a flat vector first was a large part of the upload of a large mesh.
template <class T, std::size_t N, class Allocator>
std::span<const T> flat_view(const std::vector<std::array<T, N>, Allocator>& pieces) {
  static_assert(sizeof(std::array<T, N>) == N * sizeof(T));
  return {reinterpret_cast<const T*>(pieces.data()), pieces.size() * N};
}

template <class T>
device::DeviceBuffer<T> upload(const std::vector<T>& host) {
  return device::DeviceBuffer<T>(std::span<const T>(host));
}

/// The reference rules rule(p), p = 0..max_degree, concatenated on the device (rule p at
/// offsets[p] .. offsets[p + 1]), with the offsets also on the host.
template <int K>
struct RuleTable {
  device::DeviceBuffer<Index> offsets;
  device::DeviceBuffer<Point<K>> points;
  device::DeviceBuffer<double> weights;
  std::vector<Index> host_offsets;

  RuleTable() = default;
  template <class Rule>
  RuleTable(int max_degree, const Rule& rule) : host_offsets{0} {
    std::vector<Point<K>> all_points;
    std::vector<double> all_weights;
    for (int p = 0; p <= max_degree; ++p) {
      const QuadratureRule<K>& r = rule(p);
      all_points.insert(all_points.end(), r.points.begin(), r.points.end());
      all_weights.insert(all_weights.end(), r.weights.begin(), r.weights.end());
      host_offsets.push_back(Index(all_points.size()));
    }
    offsets = upload(host_offsets);
    points = upload(all_points);
    weights = upload(all_weights);
  }
  Index size(int p) const { return host_offsets[p + 1] - host_offsets[p]; }
};

// The kernels of DeviceQuadratureMesh::map_last_coordinate: one thread per record, each the
// host loop's body (map_last_coordinate in quadrature_mesh.cpp).
template <int Dim>
__global__ void map_points_last_coordinate(Point<Dim>* points, GlobalIndex count,
                                           LastCoordinateMap map) {
  const GlobalIndex i = GlobalIndex(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < count) points[i][Dim - 1] = map(points[i][Dim - 1]);
}

template <int Dim>
__global__ void map_boxes_last_coordinate(Box<Dim>* boxes, GlobalIndex count,
                                          LastCoordinateMap map) {
  const GlobalIndex i = GlobalIndex(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= count) return;
  boxes[i].lower[Dim - 1] = map(boxes[i].lower[Dim - 1]);
  boxes[i].upper[Dim - 1] = map(boxes[i].upper[Dim - 1]);
}

/// measures[i] *= map.scale, or with normals given, *= map.facet_scale(normals[i]'s last
/// component).
template <int Dim>
__global__ void scale_measures(double* measures, GlobalIndex count, const Point<Dim>* normals,
                               LastCoordinateMap map) {
  const GlobalIndex i = GlobalIndex(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < count) measures[i] *= normals ? map.facet_scale(normals[i][Dim - 1]) : map.scale;
}

/// inverses[e] = inverse_extents(boxes[e]), so the kernels multiply where they would divide at
/// every point.
template <int Dim>
__global__ void box_inverse_extents_kernel(const Box<Dim>* boxes, GlobalIndex count,
                                           Point<Dim>* inverses) {
  const GlobalIndex i = GlobalIndex(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < count) inverses[i] = inverse_extents(boxes[i]);
}

inline unsigned map_blocks(std::size_t count) { return unsigned((count + 255) / 256); }

}  // namespace detail

template <int Dim>
class DeviceQuadratureMesh {
 public:
  DeviceQuadratureMesh(const QuadratureMesh<Dim>& mesh, const QuadratureDegrees& degrees)
      : space_(mesh.space),
        penalty_scaling_(mesh.penalty_scaling),
        element_count_(mesh.element_count()),
        interface_count_(mesh.interface_count()),
        max_degree_(mesh.max_degree()),
        degrees_(detail::upload(mesh.element_degrees)),
        simplex_offsets_(detail::upload(mesh.element_simplex_offsets)),
        interface_elements_(
            device::DeviceBuffer<Index>(detail::flat_view(mesh.interface_elements))),
        interface_facet_offsets_(detail::upload(mesh.interface_facet_offsets)),
        element_boundary_offsets_(detail::upload(mesh.element_boundary_offsets)),
        element_boundary_previous_slab_ends_(
            detail::upload(checked_boundary_runs(mesh).element_boundary_previous_slab_ends)),
        element_boundary_top_begins_(detail::upload(mesh.element_boundary_top_begins)),
        boundary_facet_kinds_(detail::upload(mesh.boundary_facet_kinds)) {
    trace_constants_ =
        device::DeviceBuffer<double>(std::span<const double>(mesh.element_trace_constants));
    allocate_geometry(mesh);
    update_geometry(mesh);

    basis_code_stride_ = space_basis_size(space_, Dim, max_degree_);
    std::vector<int> codes(std::size_t(max_degree_ + 1) * std::size_t(basis_code_stride_), 0);
    for (int p = 0; p <= max_degree_; ++p)
      for (int k = 0; k < space_basis_size(space_, Dim, p); ++k)
        codes[std::size_t(p) * std::size_t(basis_code_stride_) + std::size_t(k)] =
            device::detail::basis_function_code<Dim>(space_, p, k);
    basis_codes_ = detail::upload(codes);

    element_rules_ = detail::RuleTable<Dim>(
        max_degree_, [&](int p) -> const auto& {
          return element_piece_rule<Dim>(mesh.pieces, mesh.slab_rules, degrees.element(p));
        });
    interface_rules_ = detail::RuleTable<Dim - 1>(
        max_degree_, [&](int p) -> const auto& {
          return interface_piece_rule<Dim>(mesh.pieces, mesh.slab_rules, degrees.face(p, p));
        });
    boundary_rules_ = detail::RuleTable<Dim - 1>(
        max_degree_, [&](int p) -> const auto& {
          return simplex_rule<Dim - 1>(degrees.face(p, p));
        });

    WorkLists lists = order_work_lists(mesh);
    const auto upload_items = [](DegreeGroups& groups) {
      groups.items = device::DeviceBuffer<Index>(std::span<const Index>(groups.host_items));
    };
    elements_ = std::move(lists.elements);
    interfaces_ = std::move(lists.interfaces);
    upload_items(elements_);
    upload_items(interfaces_);
    for (int k = 0; k < boundary_facet_selections; ++k) {
      boundary_groups_[k] = std::move(lists.boundary[k]);
      upload_items(boundary_groups_[k]);
    }
  }

  /// The host part of the work lists (detail::order_degree_groups; items not uploaded).
  struct WorkLists {
    DegreeGroups elements, interfaces;
    DegreeGroups boundary[boundary_facet_selections];  ///< per BoundaryFacetSelection
  };
  /// The work lists' host part for `mesh` (the constructor's host loops, timed apart by
  /// bench_assembly).
  static WorkLists order_work_lists(const QuadratureMesh<Dim>& mesh) {
    WorkLists lists;
    const Index element_count = mesh.element_count();
    const int max_degree = mesh.max_degree();
    const auto element_degree = [&](Index e) { return mesh.element_degrees[e]; };
    const auto all = [](Index) { return true; };
    // Only owned elements are integrated over (ghosts: quadrature_mesh.hpp).
    const Index owned = mesh.owned_element_count;
    const auto is_owned = [owned](Index e) { return e < owned; };
    // Per element, its facet at `bound` (at FacetRunBound::end: the offsets shifted by one).
    const auto bound_values = [&](FacetRunBound bound) -> const Index* {
      switch (bound) {
        case FacetRunBound::first:
          return mesh.element_boundary_offsets.data();
        case FacetRunBound::previous_slab_end:
          return mesh.element_boundary_previous_slab_ends.data();
        case FacetRunBound::top_begin:
          return mesh.element_boundary_top_begins.data();
        case FacetRunBound::end:
          break;
      }
      return mesh.element_boundary_offsets.data() + 1;
    };
    // The seven groups are independent, each a few serial loops over a large mesh, so a thread
    // each. A selection's group: the elements with facets
    // in it, their pieces those facets.
    const auto task = [&](int k) -> DegreeGroups {
      if (k == 0)
        return detail::order_degree_groups(
            element_count, max_degree, element_degree, is_owned, [&](Index e) {
              return mesh.element_simplex_offsets[e + 1] - mesh.element_simplex_offsets[e];
            });
      if (k == 1)
        return detail::order_degree_groups(
            mesh.interface_count(), max_degree,
            [&](Index i) {
              return std::max(element_degree(mesh.interface_elements[i][0]),
                              element_degree(mesh.interface_elements[i][1]));
            },
            all,
            [&](Index i) {
              return mesh.interface_facet_offsets[i + 1] - mesh.interface_facet_offsets[i];
            });
      const FacetRunBounds bounds = run_bounds(BoundaryFacetSelection(k - 2));
      const Index* begins = bound_values(bounds.begin);
      const Index* ends = bound_values(bounds.end);
      const auto facets = [=](Index e) { return ends[e] - begins[e]; };
      return detail::order_degree_groups(
          element_count, max_degree, element_degree,
          [&](Index e) { return is_owned(e) && facets(e) > 0; }, facets);
    };
    std::vector<std::future<DegreeGroups>> groups;
    for (int k = 0; k < 2 + boundary_facet_selections; ++k)
      groups.push_back(std::async(std::launch::async, task, k));
    lists.elements = groups[0].get();
    lists.interfaces = groups[1].get();
    for (int k = 0; k < boundary_facet_selections; ++k) lists.boundary[k] = groups[2 + k].get();
    return lists;
  }

  /// Re-uploads the coordinates, boxes and measures of `mesh` (the same mesh, mapped: see
  /// map_last_coordinate); index arrays and rules stay.
  void update_geometry(const QuadratureMesh<Dim>& mesh) {
    require(mesh.element_count() == element_count_ && mesh.interface_count() == interface_count_,
            "DeviceQuadratureMesh::update_geometry: another mesh");
    boxes_.assign(std::span<const Box<Dim>>(mesh.element_boxes));
    measures_.assign(std::span<const double>(mesh.element_measures));
    simplex_vertices_.assign(detail::flat_view(mesh.simplex_vertices));
    interface_facet_vertices_.assign(detail::flat_view(mesh.interface_facet_vertices));
    interface_facet_measures_.assign(std::span<const double>(mesh.interface_facet_measures));
    interface_facet_cell_measures_.assign(detail::flat_view(mesh.interface_facet_cell_measures));
    boundary_facet_vertices_.assign(detail::flat_view(mesh.boundary_facet_vertices));
    boundary_facet_measures_.assign(std::span<const double>(mesh.boundary_facet_measures));
    boundary_facet_cell_measures_.assign(
        std::span<const double>(mesh.boundary_facet_cell_measures));
    interface_facet_normals_.assign(std::span<const Point<Dim>>(mesh.interface_facet_normals));
    boundary_facet_normals_.assign(std::span<const Point<Dim>>(mesh.boundary_facet_normals));
    update_box_inverse_extents();
  }

  /// Maps the last coordinate of the device geometry in place, with the host's arithmetic
  /// (LastCoordinateMap): after it the buffers hold what update_geometry would upload from the
  /// host mesh mapped by map_last_coordinate, bit for bit, and nothing crossed PCIe (a slab
  /// solver maps every time step). Asynchronous on the default stream. The caller checks once
  /// that the facets are parallel or orthogonal to the last axis (check_last_axis_facets).
  void map_last_coordinate(const LastCoordinateMap& map) {
    using detail::map_blocks;
    const auto points = [&](device::DeviceBuffer<Point<Dim>>& buffer) {
      if (buffer.size() == 0) return;
      detail::map_points_last_coordinate<Dim>
          <<<map_blocks(buffer.size()), 256>>>(buffer.data(), GlobalIndex(buffer.size()), map);
      POLYDG_CUDA_CHECK_LAUNCH("map_points_last_coordinate");
    };
    const auto measures = [&](device::DeviceBuffer<double>& buffer,
                              const device::DeviceBuffer<Point<Dim>>* normals) {
      if (buffer.size() == 0) return;
      detail::scale_measures<Dim><<<map_blocks(buffer.size()), 256>>>(
          buffer.data(), GlobalIndex(buffer.size()), normals ? normals->data() : nullptr, map);
      POLYDG_CUDA_CHECK_LAUNCH("scale_measures");
    };
    points(simplex_vertices_);
    if (boxes_.size() > 0) {
      detail::map_boxes_last_coordinate<Dim>
          <<<map_blocks(boxes_.size()), 256>>>(boxes_.data(), GlobalIndex(boxes_.size()), map);
      POLYDG_CUDA_CHECK_LAUNCH("map_boxes_last_coordinate");
      update_box_inverse_extents();
    }
    measures(measures_, nullptr);
    points(interface_facet_vertices_);
    measures(interface_facet_measures_, &interface_facet_normals_);
    measures(interface_facet_cell_measures_, nullptr);
    points(boundary_facet_vertices_);
    measures(boundary_facet_measures_, &boundary_facet_normals_);
    measures(boundary_facet_cell_measures_, nullptr);
  }

  BasisSpace space() const { return space_; }
  Index element_count() const { return element_count_; }
  Index interface_count() const { return interface_count_; }
  /// Sub-facets of all interfaces.
  Index interface_facet_count() const { return Index(interface_facet_normals_.size()); }
  int max_degree() const { return max_degree_; }
  Index element_rule_size(int p) const { return element_rules_.size(p); }
  Index interface_rule_size(int p) const { return interface_rules_.size(p); }
  Index boundary_rule_size(int p) const { return boundary_rules_.size(p); }
  const DegreeGroups& elements() const { return elements_; }
  const DegreeGroups& interfaces() const { return interfaces_; }
  /// The facets of a selection and the elements that have any (the boundary kernels' launch).
  BoundaryFacetRanges boundary_facets(BoundaryFacetSelection selection) const {
    // first and end are the kernels' defaults (null: element_boundary_offsets[e], [e + 1]).
    const auto bound_array = [&](FacetRunBound bound) -> const Index* {
      if (bound == FacetRunBound::previous_slab_end)
        return element_boundary_previous_slab_ends_.data();
      if (bound == FacetRunBound::top_begin) return element_boundary_top_begins_.data();
      return nullptr;
    };
    const FacetRunBounds bounds = run_bounds(selection);
    return {&boundary_groups_[int(selection)], bound_array(bounds.begin), bound_array(bounds.end)};
  }

  /// Numbers the quadrature points of each kind (PointIndex, point_coefficients.hpp): a piece's
  /// points in rule order, the pieces in their order in `mesh` (the QuadratureMesh this was
  /// built from). Once: later calls do nothing.
  void number_points(const QuadratureMesh<Dim>& mesh) {
    if (points_numbered_) return;
    const auto degree = [&](Index e) { return mesh.element_degrees[std::size_t(e)]; };
    std::vector<GlobalIndex> offsets;
    GlobalIndex next = 0;
    const auto number = [&](Index begin, Index end, Index rule_size) {
      for (Index piece = begin; piece < end; ++piece) {
        offsets.push_back(next);
        next += rule_size;
      }
    };
    for (Index e = 0; e < element_count_; ++e)
      number(mesh.element_simplex_offsets[e], mesh.element_simplex_offsets[e + 1],
             element_rule_size(degree(e)));
    element_point_offsets_ = detail::upload(offsets);
    point_counts_[int(PointKind::element)] = next;
    offsets.clear();
    next = 0;
    for (Index e = 0; e < element_count_; ++e)
      number(mesh.element_boundary_offsets[e], mesh.element_boundary_offsets[e + 1],
             boundary_rule_size(degree(e)));
    boundary_point_offsets_ = detail::upload(offsets);
    point_counts_[int(PointKind::boundary)] = next;
    offsets.clear();
    next = 0;
    for (Index i = 0; i < interface_count_; ++i) {
      const auto& pair = mesh.interface_elements[std::size_t(i)];
      number(mesh.interface_facet_offsets[i], mesh.interface_facet_offsets[i + 1],
             interface_rule_size(std::max(degree(pair[0]), degree(pair[1]))));
    }
    interface_point_offsets_ = detail::upload(offsets);
    point_counts_[int(PointKind::interface)] = next;
    points_numbered_ = true;
  }
  bool points_numbered() const { return points_numbered_; }
  /// The quadrature points of a kind (number_points first).
  GlobalIndex point_count(PointKind kind) const {
    require(points_numbered_, "DeviceQuadratureMesh::point_count: the points are not numbered");
    return point_counts_[int(kind)];
  }

  DeviceQuadratureMeshView<Dim> view() const {
    DeviceQuadratureMeshView<Dim> v;
    v.space = space_;
    v.penalty_scaling = penalty_scaling_;
    v.degrees = degrees_.data();
    v.boxes = boxes_.data();
    v.box_inverse_extents = box_inverse_extents_.data();
    v.measures = measures_.data();
    v.trace_constants = trace_constants_.size() ? trace_constants_.data() : nullptr;
    v.simplex_offsets = simplex_offsets_.data();
    v.simplex_vertices = simplex_vertices_.data();
    v.interface_elements = interface_elements_.data();
    v.interface_facet_offsets = interface_facet_offsets_.data();
    v.interface_facet_vertices = interface_facet_vertices_.data();
    v.interface_facet_normals = interface_facet_normals_.data();
    v.interface_facet_measures = interface_facet_measures_.data();
    v.interface_facet_cell_measures = interface_facet_cell_measures_.data();
    v.element_boundary_offsets = element_boundary_offsets_.data();
    v.boundary_facet_vertices = boundary_facet_vertices_.data();
    v.boundary_facet_normals = boundary_facet_normals_.data();
    v.boundary_facet_measures = boundary_facet_measures_.data();
    v.boundary_facet_cell_measures = boundary_facet_cell_measures_.data();
    v.boundary_facet_kinds = boundary_facet_kinds_.data();
    if (points_numbered_) {
      v.element_point_offsets = element_point_offsets_.data();
      v.boundary_point_offsets = boundary_point_offsets_.data();
      v.interface_point_offsets = interface_point_offsets_.data();
    }
    v.element_rule_offsets = element_rules_.offsets.data();
    v.element_rule_points = element_rules_.points.data();
    v.element_rule_weights = element_rules_.weights.data();
    v.interface_rule_offsets = interface_rules_.offsets.data();
    v.interface_rule_points = interface_rules_.points.data();
    v.interface_rule_weights = interface_rules_.weights.data();
    v.boundary_rule_offsets = boundary_rules_.offsets.data();
    v.boundary_rule_points = boundary_rules_.points.data();
    v.boundary_rule_weights = boundary_rules_.weights.data();
    v.basis_codes = basis_codes_.data();
    v.basis_code_stride = basis_code_stride_;
    return v;
  }

 private:
  /// `mesh`, after checking the bounds of its elements' runs of boundary facets (QuadratureMesh):
  /// one of each per element, offsets[e] ≤ previous_slab_ends[e] ≤ top_begins[e] ≤
  /// offsets[e + 1], or polydg::Error. (The facets' kinds and normals are trusted.)
  static const QuadratureMesh<Dim>& checked_boundary_runs(const QuadratureMesh<Dim>& mesh) {
    const std::size_t elements = std::size_t(mesh.element_count());
    for (const auto& [array, name] :
         {std::pair{&mesh.element_boundary_previous_slab_ends,
                    "element_boundary_previous_slab_ends"},
          std::pair{&mesh.element_boundary_top_begins, "element_boundary_top_begins"}})
      require(array->size() == elements, "DeviceQuadratureMesh: ", name, " has ", array->size(),
              " entries for ", elements, " elements");
    require(mesh.element_boundary_offsets.size() == elements + 1,
            "DeviceQuadratureMesh: element_boundary_offsets has ",
            mesh.element_boundary_offsets.size(), " entries for ", elements, " elements");
    for (std::size_t e = 0; e < elements; ++e) {
      const Index begin = mesh.element_boundary_offsets[e],
                  end = mesh.element_boundary_offsets[e + 1];
      const Index previous_slab_end = mesh.element_boundary_previous_slab_ends[e];
      const Index top_begin = mesh.element_boundary_top_begins[e];
      require(begin <= previous_slab_end && previous_slab_end <= top_begin && top_begin <= end,
              "DeviceQuadratureMesh: element ", e, "'s boundary facets ", begin, " .. ", end,
              " have runs ending at ", previous_slab_end, " (previous_slab) and ", top_begin,
              " (others), out of order");
    }
    return mesh;
  }

  void update_box_inverse_extents() {
    if (boxes_.size() == 0) return;
    detail::box_inverse_extents_kernel<Dim><<<detail::map_blocks(boxes_.size()), 256>>>(
        boxes_.data(), GlobalIndex(boxes_.size()), box_inverse_extents_.data());
    POLYDG_CUDA_CHECK_LAUNCH("box_inverse_extents_kernel");
  }

  // Buffers of the geometry's sizes; update_geometry fills them (at construction and after
  // every map_last_coordinate).
  void allocate_geometry(const QuadratureMesh<Dim>& mesh) {
    const std::size_t simplices = mesh.simplex_vertices.size();
    const std::size_t interface_facets = mesh.interface_facet_vertices.size();
    const std::size_t boundary_facets = mesh.boundary_facet_vertices.size();
    boxes_ = device::DeviceBuffer<Box<Dim>>(mesh.element_boxes.size());
    box_inverse_extents_ = device::DeviceBuffer<Point<Dim>>(mesh.element_boxes.size());
    measures_ = device::DeviceBuffer<double>(mesh.element_measures.size());
    simplex_vertices_ = device::DeviceBuffer<Point<Dim>>(simplices * (Dim + 1));
    interface_facet_vertices_ = device::DeviceBuffer<Point<Dim>>(interface_facets * Dim);
    interface_facet_normals_ = device::DeviceBuffer<Point<Dim>>(interface_facets);
    interface_facet_measures_ = device::DeviceBuffer<double>(interface_facets);
    interface_facet_cell_measures_ = device::DeviceBuffer<double>(interface_facets * 2);
    boundary_facet_vertices_ = device::DeviceBuffer<Point<Dim>>(boundary_facets * Dim);
    boundary_facet_normals_ = device::DeviceBuffer<Point<Dim>>(boundary_facets);
    boundary_facet_measures_ = device::DeviceBuffer<double>(boundary_facets);
    boundary_facet_cell_measures_ = device::DeviceBuffer<double>(boundary_facets);
  }

  BasisSpace space_;
  PenaltyScaling penalty_scaling_;
  Index element_count_, interface_count_;
  int max_degree_;
  DegreeGroups elements_, interfaces_;
  DegreeGroups boundary_groups_[boundary_facet_selections];  ///< per BoundaryFacetSelection
  device::DeviceBuffer<int> degrees_;
  device::DeviceBuffer<Box<Dim>> boxes_;
  device::DeviceBuffer<Point<Dim>> box_inverse_extents_;
  device::DeviceBuffer<double> measures_;
  /// Invariant under map_last_coordinate (element_trace_constants.hpp): uploaded once.
  device::DeviceBuffer<double> trace_constants_;
  device::DeviceBuffer<Index> simplex_offsets_;
  device::DeviceBuffer<Point<Dim>> simplex_vertices_;
  device::DeviceBuffer<Index> interface_elements_, interface_facet_offsets_;
  device::DeviceBuffer<Point<Dim>> interface_facet_vertices_, interface_facet_normals_;
  device::DeviceBuffer<double> interface_facet_measures_, interface_facet_cell_measures_;
  device::DeviceBuffer<Index> element_boundary_offsets_, element_boundary_previous_slab_ends_,
      element_boundary_top_begins_;
  device::DeviceBuffer<Point<Dim>> boundary_facet_vertices_, boundary_facet_normals_;
  device::DeviceBuffer<double> boundary_facet_measures_, boundary_facet_cell_measures_;
  device::DeviceBuffer<BoundaryKind> boundary_facet_kinds_;
  device::DeviceBuffer<int> basis_codes_;
  int basis_code_stride_ = 0;
  bool points_numbered_ = false;  ///< number_points
  device::DeviceBuffer<GlobalIndex> element_point_offsets_, boundary_point_offsets_,
      interface_point_offsets_;
  GlobalIndex point_counts_[3] = {0, 0, 0};  ///< per PointKind
  detail::RuleTable<Dim> element_rules_;
  detail::RuleTable<Dim - 1> interface_rules_, boundary_rules_;
};

}  // namespace polydg
