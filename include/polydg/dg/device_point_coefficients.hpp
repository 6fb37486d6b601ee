#pragma once
/// DevicePointCoefficients: per-point coefficient arrays on the device (PointCoefficients,
/// point_coefficients.hpp), filled from host functions evaluated at a DeviceAssembler's
/// quadrature points — the route for data that is not a __host__ __device__ functor, and the
/// one that keeps a program plain C++ (no nvcc):
///
///   polydg::DeviceAssembler<2> assembler(mesh, conditions);
///   polydg::DevicePointCoefficients<2> data(assembler);         // the points, host copies
///   data.set(polydg::make_coefficients<2>()
///                .with_diffusion([](const polydg::Point<2>& x) { return a(x); })
///                .with_source([](const polydg::Point<2>& x) { return f(x); }));
///   assembler.assemble(data.view());
///
/// A member that is a Constant stays a constant (no array); any other callable is evaluated on
/// the host (OpenMP threads) at the points of the kinds it is read at (PointValues) and copied
/// to the device. After the assembler's map_last_coordinate, update_points takes the new
/// points; the arrays keep their values until set again.
///
/// ValueDim < Dim: on 2D+1 slabs (Dim = 3, ValueDim = 2) the members are the spatial data of
/// space_time_coefficients, callables of the space-time point X = (x, y, t) giving a 2D a and
/// w (neumann takes the spatial normal); view() is then the spatial PointCoefficients<2> whose
/// space_time_coefficients() the slab assembly takes.
#include <array>
#include <cstddef>
#include <initializer_list>
#include <span>
#include <vector>

#include "polydg/core/device_buffer.hpp"
#include "polydg/core/types.hpp"
#include "polydg/dg/coefficients.hpp"
#include "polydg/dg/device_assembler.hpp"
#include "polydg/dg/point_coefficients.hpp"

namespace polydg {

template <int Dim, int ValueDim = Dim>
class DevicePointCoefficients {
 public:
  DevicePointCoefficients() = default;
  template <class Real>
  explicit DevicePointCoefficients(const DeviceAssembler<Dim, Real>& assembler) {
    update_points(assembler);
  }

  /// The assembler's quadrature points (and boundary normals) with its current geometry.
  template <class Real>
  void update_points(const DeviceAssembler<Dim, Real>& assembler) {
    for (const PointKind kind : {PointKind::element, PointKind::boundary, PointKind::interface})
      points_[int(kind)] = assembler.quadrature_points(kind);
    normals_ = assembler.boundary_point_normals();
  }
  const std::vector<Point<Dim>>& points(PointKind kind) const { return points_[int(kind)]; }

  /// Every member from `data` (a Coefficients<ValueDim, ...>, members callable with a
  /// Point<Dim>).
  template <class Data>
  void set(const Data& data) {
    set_matrix_data(data);
    set_rhs_data(data);
  }
  /// A, b and c: what the matrix depends on (the rhs too: A and b decide the boundary terms).
  template <class Data>
  void set_matrix_data(const Data& data) {
    set_member(diffusion_, {PointKind::element, PointKind::boundary, PointKind::interface},
               data.diffusion);
    set_member(advection_, {PointKind::element, PointKind::boundary, PointKind::interface},
               data.advection);
    set_member(reaction_, {PointKind::element}, data.reaction);
  }
  /// f, g_D and g_N: the rhs alone.
  template <class Data>
  void set_rhs_data(const Data& data) {
    set_member(source_, {PointKind::element}, data.source);
    set_member(dirichlet_, {PointKind::boundary}, data.dirichlet);
    set_member(neumann_, {PointKind::boundary}, data.neumann);
  }

  PointCoefficients<ValueDim> view() const {
    PointCoefficients<ValueDim> result;
    result.diffusion = diffusion_.view();
    result.advection = advection_.view();
    result.reaction = reaction_.view();
    result.source = source_.view();
    result.dirichlet = dirichlet_.view();
    result.neumann = neumann_.view();
    return result;
  }

  /// One value per boundary point from value(X) (e.g. u_0 for the coupling term of a slab's
  /// first step), on the device: add_previous_slab_term takes it.
  template <class Value>
  PointValues<double> boundary_values(const Value& value,
                                      device::DeviceBuffer<double>& storage) const {
    store(storage, evaluate<double>(PointKind::boundary, value));
    PointValues<double> result;
    result.boundary = storage.data();
    return result;
  }

 private:
  template <class T>
  struct Member {
    T constant{};
    std::array<device::DeviceBuffer<T>, 3> arrays;  ///< per PointKind; empty: the constant
    PointValues<T> view() const {
      PointValues<T> values;
      values.constant = constant;
      const auto array = [&](PointKind kind) -> const T* {
        return arrays[int(kind)].size() ? arrays[int(kind)].data() : nullptr;
      };
      values.element = array(PointKind::element);
      values.boundary = array(PointKind::boundary);
      values.interface = array(PointKind::interface);
      return values;
    }
  };

  template <class T>
  static void store(device::DeviceBuffer<T>& buffer, const std::vector<T>& values) {
    if (buffer.size() == values.size()) {
      buffer.assign(std::span<const T>(values));
    } else {
      buffer = device::DeviceBuffer<T>(std::span<const T>(values));
    }
  }

  /// f at the points of `kind`: f(x), or f(x, n) with n the outward normal's first ValueDim
  /// components (boundary points; Neumann data).
  template <class T, class F>
  std::vector<T> evaluate(PointKind kind, const F& f) const {
    const std::vector<Point<Dim>>& x = points_[int(kind)];
    std::vector<T> values(x.size());
    const std::ptrdiff_t count = std::ptrdiff_t(x.size());
#pragma omp parallel for schedule(static)
    for (std::ptrdiff_t i = 0; i < count; ++i) {
      if constexpr (requires { f(x[i]); }) {
        values[i] = f(x[i]);
      } else {
        Point<ValueDim> normal{};
        for (int d = 0; d < ValueDim; ++d) normal[d] = normals_[i][d];
        values[i] = f(x[i], normal);
      }
    }
    return values;
  }

  template <class T, class F>
  void set_member(Member<T>& member, std::initializer_list<PointKind> kinds, const F& f) {
    if constexpr (ConstantCoefficient<F>) {
      member.constant = f.constant_value();
      for (auto& array : member.arrays) array = {};
    } else {
      for (const PointKind kind : kinds) store(member.arrays[int(kind)], evaluate<T>(kind, f));
    }
  }

  std::array<std::vector<Point<Dim>>, 3> points_;  ///< per PointKind
  std::vector<Point<Dim>> normals_;                ///< at the boundary points
  Member<Tensor<ValueDim>> diffusion_;
  Member<Point<ValueDim>> advection_;
  Member<double> reaction_, source_, dirichlet_, neumann_;
};

}  // namespace polydg
