#pragma once
// Test helper: the least-squares slope of log(y) against log(x), the convergence rate (or
// growth exponent) the convergence studies fit over several levels.
#include <cmath>
#include <vector>

namespace polydg::testing {

inline double log_log_slope(const std::vector<double>& x, const std::vector<double>& y) {
  double mean_x = 0, mean_y = 0;
  for (std::size_t i = 0; i < x.size(); ++i) {
    mean_x += std::log(x[i]) / double(x.size());
    mean_y += std::log(y[i]) / double(x.size());
  }
  double sxy = 0, sxx = 0;
  for (std::size_t i = 0; i < x.size(); ++i) {
    sxy += (std::log(x[i]) - mean_x) * (std::log(y[i]) - mean_y);
    sxx += (std::log(x[i]) - mean_x) * (std::log(x[i]) - mean_x);
  }
  return sxy / sxx;
}

}  // namespace polydg::testing
