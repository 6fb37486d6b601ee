#include "polydg/fem/quadrature_cache.hpp"

#include <map>
#include <memory>
#include <mutex>
#include <shared_mutex>
#include <utility>

#include "polydg/fem/gauss_jacobi.hpp"
#include "polydg/fem/simplex_quadrature.hpp"
#include "polydg/fem/symmetric_slab_rules.hpp"
#include "polydg/fem/tensor_quadrature.hpp"

namespace polydg {
namespace {

/// A map from a key to rules built on demand. Rules are heap-allocated so references survive
/// later insertions; a rule is built under the exclusive lock, so it is built once even when
/// several threads ask at the same time (building takes well under a millisecond). Lookups of
/// rules that exist share the lock: the assembly loops look rules up per element and thread,
/// and an exclusive lock there serialised them.
template <class Key, int Dim>
class RuleCache {
 public:
  template <class Make>
  const QuadratureRule<Dim>& get(const Key& key, Make make) {
    {
      const std::shared_lock<std::shared_mutex> lock(mutex_);
      const auto found = rules_.find(key);
      if (found != rules_.end()) return *found->second;
    }
    const std::lock_guard<std::shared_mutex> lock(mutex_);
    auto found = rules_.find(key);
    if (found == rules_.end())
      found = rules_.emplace(key, std::make_unique<const QuadratureRule<Dim>>(make())).first;
    return *found->second;
  }

 private:
  std::shared_mutex mutex_;
  std::map<Key, std::unique_ptr<const QuadratureRule<Dim>>> rules_;
};

}  // namespace

const QuadratureRule<1>& gauss_legendre_rule(int n) {
  static RuleCache<int, 1> cache;
  return cache.get(n, [n] { return make_gauss_legendre(n); });
}

template <int Dim>
const QuadratureRule<Dim>& simplex_rule(int degree) {
  static RuleCache<int, Dim> cache;
  return cache.get(degree, [degree] { return make_simplex_rule<Dim>(degree); });
}

template <int Dim>
const QuadratureRule<Dim>& cube_rule(int degree) {
  static RuleCache<int, Dim> cache;
  return cache.get(degree, [degree] { return make_cube_rule<Dim>(degree); });
}

template <int Dim>
const QuadratureRule<Dim>& prism_rule(int space_degree, int time_degree) {
  static RuleCache<std::pair<int, int>, Dim> cache;
  return cache.get({space_degree, time_degree}, [space_degree, time_degree] {
    return make_prism_rule<Dim>(space_degree, time_degree);
  });
}

const QuadratureRule<3>& total_degree_prism_rule(int degree) {
  static RuleCache<int, 3> cache;
  return cache.get(degree, [degree] {
    if (auto symmetric = make_symmetric_prism_rule(degree)) return std::move(*symmetric);
    return make_prism_rule<3>(degree, degree);
  });
}

const QuadratureRule<2>& total_degree_square_rule(int degree) {
  static RuleCache<int, 2> cache;
  return cache.get(degree, [degree] {
    if (auto symmetric = make_symmetric_square_rule(degree)) return std::move(*symmetric);
    return make_cube_rule<2>(degree);
  });
}

template const QuadratureRule<1>& simplex_rule<1>(int);
template const QuadratureRule<2>& simplex_rule<2>(int);
template const QuadratureRule<3>& simplex_rule<3>(int);
template const QuadratureRule<4>& simplex_rule<4>(int);
template const QuadratureRule<1>& cube_rule<1>(int);
template const QuadratureRule<2>& cube_rule<2>(int);
template const QuadratureRule<3>& cube_rule<3>(int);
template const QuadratureRule<4>& cube_rule<4>(int);
template const QuadratureRule<2>& prism_rule<2>(int, int);
template const QuadratureRule<3>& prism_rule<3>(int, int);
template const QuadratureRule<4>& prism_rule<4>(int, int);

}  // namespace polydg
