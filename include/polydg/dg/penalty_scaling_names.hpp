#pragma once
/// The names of the penalty scalings (penalty.hpp) for command lines and output:
/// "element_trace", "polytopic_cap", "sub_simplex".
#include <string_view>

#include "polydg/core/error.hpp"
#include "polydg/dg/penalty.hpp"

namespace polydg {

inline const char* penalty_scaling_name(PenaltyScaling scaling) {
  switch (scaling) {
    case PenaltyScaling::element_trace:
      return "element_trace";
    case PenaltyScaling::polytopic_cap:
      return "polytopic_cap";
    case PenaltyScaling::sub_simplex:
      return "sub_simplex";
  }
  return "unknown";
}

/// The scaling called `name`; throws polydg::Error naming it and the valid names otherwise.
inline PenaltyScaling penalty_scaling_from_name(std::string_view name) {
  for (PenaltyScaling scaling :
       {PenaltyScaling::element_trace, PenaltyScaling::polytopic_cap, PenaltyScaling::sub_simplex})
    if (name == penalty_scaling_name(scaling)) return scaling;
  raise("unknown penalty scaling '", name, "': use element_trace, polytopic_cap or sub_simplex");
}

}  // namespace polydg
