#include "polydg/fem/mapped_quadrature.hpp"

#include <cmath>
#include <limits>
#include <sstream>

#include "polydg/core/error.hpp"
#include "polydg/core/point_io.hpp"
#include "polydg/fem/affine_simplex_map.hpp"

namespace polydg {
namespace {

constexpr const char* domain_name(ReferenceDomain domain) {
  switch (domain) {
    case ReferenceDomain::interval:
      return "[-1, 1]";
    case ReferenceDomain::simplex:
      return "the reference simplex";
    case ReferenceDomain::unit_cube:
      return "[0, 1]^d";
    case ReferenceDomain::prism:
      return "the reference prism";
    case ReferenceDomain::physical:
      return "a physical domain";
  }
  return "an unknown domain";
}

/// The affine maps of map_to_simplex / map_to_facet take the simplex, and also the prism and
/// the cube: x = v_0 + J ξ maps them onto an affine prism or parallelepiped.
template <int Dim>
void require_affine_domain(const QuadratureRule<Dim>& rule, const char* what) {
  require(rule.domain == ReferenceDomain::simplex || rule.domain == ReferenceDomain::prism ||
              rule.domain == ReferenceDomain::unit_cube,
          what, ": the rule must live on the reference simplex, prism or cube, but it lives on ",
          domain_name(rule.domain));
}

template <int Dim>
void require_domain(const QuadratureRule<Dim>& rule, ReferenceDomain expected, const char* what) {
  require(rule.domain == expected, what, ": the rule must live on ", domain_name(expected),
          ", but it lives on ", domain_name(rule.domain));
}

/// Throws unless the K-simplex v[0..K] in R^Dim has a measure ratio that is not negligible
/// against the product of its edge lengths from v_0 (the ratio's size for a regular shape).
template <int K, int Dim>
double checked_measure_ratio(const Point<Dim>* vertices, const char* what) {
  const double ratio = affine_measure_ratio<K, Dim>(vertices);
  double scale = 1.0;
  for (int i = 1; i <= K; ++i) {
    const Point<Dim> edge = vertices[i] - vertices[0];
    scale *= std::sqrt(dot(edge, edge));
  }
  if (!(std::isfinite(ratio) && ratio > 64 * std::numeric_limits<double>::epsilon() * scale)) {
    std::ostringstream corners;
    corners.precision(17);
    for (int i = 0; i <= K; ++i) corners << (i ? ", " : "") << vertices[i];
    raise(what, ": the simplex with vertices ", corners.str(), " is degenerate (measure ratio ",
          ratio, " against edge-length product ", scale, ")");
  }
  return ratio;
}

/// The reference rule with every point sent through `map` and every weight times `ratio`.
template <int Dim, int ReferenceDim, class Map>
QuadratureRule<Dim> mapped_rule(const QuadratureRule<ReferenceDim>& reference, double ratio,
                                Map map) {
  QuadratureRule<Dim> rule;
  rule.degree = reference.degree;
  rule.domain = ReferenceDomain::physical;
  rule.points.reserve(reference.size());
  rule.weights.reserve(reference.size());
  for (std::size_t q = 0; q < reference.size(); ++q) {
    rule.points.push_back(map(reference.points[q]));
    rule.weights.push_back(reference.weights[q] * ratio);
  }
  return rule;
}

}  // namespace

template <int Dim>
QuadratureRule<Dim> map_to_simplex(const QuadratureRule<Dim>& reference,
                                   const std::array<Point<Dim>, Dim + 1>& vertices) {
  require_affine_domain(reference, "map_to_simplex");
  const double ratio = checked_measure_ratio<Dim, Dim>(vertices.data(), "map_to_simplex");
  return mapped_rule<Dim>(reference, ratio, [&](const Point<Dim>& xi) {
    return map_reference_point<Dim>(vertices.data(), xi);
  });
}

template <int Dim>
QuadratureRule<Dim> map_to_facet(const QuadratureRule<Dim - 1>& reference,
                                 const std::array<Point<Dim>, std::size_t(Dim)>& vertices) {
  require_affine_domain(reference, "map_to_facet");
  const double ratio = checked_measure_ratio<Dim - 1, Dim>(vertices.data(), "map_to_facet");
  return mapped_rule<Dim>(reference, ratio, [&](const Point<Dim - 1>& xi) {
    return map_reference_point<Dim - 1>(vertices.data(), xi);
  });
}

template <int Dim>
QuadratureRule<Dim> map_to_prism(const QuadratureRule<Dim>& reference,
                                 const std::array<Point<Dim - 1>, std::size_t(Dim)>& space_vertices,
                                 double t0, double t1) {
  require_domain(reference, ReferenceDomain::prism, "map_to_prism");
  require(t1 > t0, "map_to_prism: the time interval [", t0, ", ", t1, "] is empty");
  const double ratio =
      checked_measure_ratio<Dim - 1, Dim - 1>(space_vertices.data(), "map_to_prism") * (t1 - t0);
  return mapped_rule<Dim>(reference, ratio, [&](const Point<Dim>& xi) {
    Point<Dim - 1> space_reference;
    for (int i = 0; i < Dim - 1; ++i) space_reference[i] = xi[i];
    const Point<Dim - 1> x = map_reference_point<Dim - 1>(space_vertices.data(), space_reference);
    Point<Dim> mapped;
    for (int i = 0; i < Dim - 1; ++i) mapped[i] = x[i];
    mapped[Dim - 1] = t0 + (t1 - t0) * xi[Dim - 1];
    return mapped;
  });
}

template <int Dim>
QuadratureRule<Dim> map_to_box(const QuadratureRule<Dim>& unit_cube_rule, const Box<Dim>& box) {
  require_domain(unit_cube_rule, ReferenceDomain::unit_cube, "map_to_box");
  for (int i = 0; i < Dim; ++i)
    require(box.extent(i) > 0, "map_to_box: the box has extent ", box.extent(i), " on axis ", i);
  return mapped_rule<Dim>(unit_cube_rule, box.measure(), [&](const Point<Dim>& xi) {
    Point<Dim> x;
    for (int i = 0; i < Dim; ++i) x[i] = box.lower[i] + box.extent(i) * xi[i];
    return x;
  });
}

template QuadratureRule<1> map_to_simplex<1>(const QuadratureRule<1>&,
                                             const std::array<Point<1>, 2>&);
template QuadratureRule<2> map_to_simplex<2>(const QuadratureRule<2>&,
                                             const std::array<Point<2>, 3>&);
template QuadratureRule<3> map_to_simplex<3>(const QuadratureRule<3>&,
                                             const std::array<Point<3>, 4>&);
template QuadratureRule<4> map_to_simplex<4>(const QuadratureRule<4>&,
                                             const std::array<Point<4>, 5>&);
template QuadratureRule<2> map_to_facet<2>(const QuadratureRule<1>&,
                                           const std::array<Point<2>, 2>&);
template QuadratureRule<3> map_to_facet<3>(const QuadratureRule<2>&,
                                           const std::array<Point<3>, 3>&);
template QuadratureRule<4> map_to_facet<4>(const QuadratureRule<3>&,
                                           const std::array<Point<4>, 4>&);
template QuadratureRule<2> map_to_prism<2>(const QuadratureRule<2>&, const std::array<Point<1>, 2>&,
                                           double, double);
template QuadratureRule<3> map_to_prism<3>(const QuadratureRule<3>&, const std::array<Point<2>, 3>&,
                                           double, double);
template QuadratureRule<4> map_to_prism<4>(const QuadratureRule<4>&, const std::array<Point<3>, 4>&,
                                           double, double);
template QuadratureRule<1> map_to_box<1>(const QuadratureRule<1>&, const Box<1>&);
template QuadratureRule<2> map_to_box<2>(const QuadratureRule<2>&, const Box<2>&);
template QuadratureRule<3> map_to_box<3>(const QuadratureRule<3>&, const Box<3>&);
template QuadratureRule<4> map_to_box<4>(const QuadratureRule<4>&, const Box<4>&);

}  // namespace polydg
