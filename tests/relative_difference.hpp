#pragma once
// The relative difference of two arrays of values in the Frobenius norm: the measure the tests
// compare assembled matrices and right-hand sides by (GPU against CPU, one rule against another).
#include <cmath>
#include <cstddef>

namespace polydg::testing {

/// ‖a − reference‖ / ‖reference‖ in the Frobenius norm (‖a − reference‖ where reference is
/// zero), for any two indexable containers of floating-point values of the same size.
template <class Values, class Reference>
double relative_difference(const Values& a, const Reference& reference) {
  double difference = 0, norm = 0;
  for (std::size_t k = 0; k < reference.size(); ++k) {
    const double error = double(a[k]) - double(reference[k]);
    difference += error * error;
    norm += double(reference[k]) * double(reference[k]);
  }
  return norm > 0 ? std::sqrt(difference / norm) : std::sqrt(difference);
}

}  // namespace polydg::testing
