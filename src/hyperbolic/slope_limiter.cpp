// The Barth–Jespersen limiter's point table (include/polydg/hyperbolic/slope_limiter.hpp).
#include "polydg/hyperbolic/slope_limiter.hpp"

#include "polydg/hyperbolic/dubiner_basis.hpp"

namespace polydg::hyperbolic {

std::vector<double> make_limiter_point_values(const ReferenceTables& tables, LimiterPoints points) {
  const Point<2> corner[3] = {{0.0, 0.0}, {1.0, 0.0}, {0.0, 1.0}};
  std::vector<Point<2>> reference_points;
  if (points == LimiterPoints::vertices) {
    reference_points.assign(corner, corner + 3);
  } else {
    // Local edge e runs from V_{(e+1)%3} to V_{(e+2)%3} (triangle_geometry.hpp); the direction
    // does not matter, every Gauss point of every edge is taken.
    for (int e = 0; e < 3; ++e)
      for (int q = 0; q < tables.edge_point_count; ++q) {
        const Point<2>& a = corner[(e + 1) % 3];
        const Point<2>& b = corner[(e + 2) % 3];
        reference_points.push_back(a + tables.edge_parameters[q] * (b - a));
      }
  }
  require(!reference_points.empty(), "make_limiter_point_values: no edge Gauss points in the ",
          "reference tables of degree ", tables.degree);
  std::vector<double> values;
  values.reserve(2 * reference_points.size());
  for (const Point<2>& x : reference_points) {
    double phi[3];
    evaluate_dubiner_basis(1, x, phi);
    values.push_back(phi[1]);
    values.push_back(phi[2]);
  }
  return values;
}

}  // namespace polydg::hyperbolic
