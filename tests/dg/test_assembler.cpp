#define BOOST_TEST_MODULE dg_assembler
#include <omp.h>

#include <boost/test/unit_test.hpp>
#include <cmath>
#include <cstring>
#include <memory>
#include <new>
#include <string>

#include "allocation_counter.hpp"
#include "dg/dense_solver.hpp"
#include "error_message.hpp"
#include "polydg/core/error.hpp"
#include "polydg/dg/assembler.hpp"
#include "polydg/dg/coefficients.hpp"
#include "polydg/dg/diffusion_ranges.hpp"
#include "polydg/dg/quadrature_mesh.hpp"
#include "polydg/fem/legendre_basis.hpp"
#include "polydg/mesh/agglomeration.hpp"
#include "polydg/mesh/generators.hpp"

using namespace polydg;
using testing::contains;
using testing::error_message;
using testing::error_names;

namespace {

std::shared_ptr<const SimplexMesh<2>> fine_square(int n) {
  return std::make_shared<const SimplexMesh<2>>(unit_square_mesh(n, 0.2, 4));
}

// Polygons of many faces: a 16×16 square agglomerated into 12 elements (~40 triangles each).
PolytopicMesh<2> polygons(int degree) {
  static const auto fine = fine_square(16);
  static const Agglomeration parts = agglomerate(*fine, 12);
  return PolytopicMesh<2>(fine, parts.element_of_cell, degree);
}

// max over the centroids of all fine cells of |u_h − u|.
template <class Exact>
double max_nodal_error(const PolytopicMesh<2>& mesh, const BlockPattern& pattern,
                       const std::vector<double>& solution, Exact u) {
  double error = 0;
  for (Index e = 0; e < mesh.element_count(); ++e)
    for (Index c : mesh.element_cells(e)) {
      const auto points = mesh.fine_mesh().cell_points(c);
      const Point<2> x = (1.0 / 3) * (points[0] + points[1] + points[2]);
      double values[66];
      evaluate_basis<2, double>(mesh.element_degree(e), mesh.element_box(e), x, values);
      double uh = 0;
      for (Index k = 0; k < pattern.block_size(e); ++k)
        uh += values[k] * solution[pattern.dof_offset(e) + k];
      error = std::max(error, std::abs(uh - u(x)));
    }
  return error;
}

// A polynomial of total degree p with all monomials present, and its derivatives.
struct Polynomial {
  int p;
  double operator()(const Point<2>& x) const {
    double sum = 0;
    for (int i = 0; i <= p; ++i)
      for (int j = 0; i + j <= p; ++j)
        sum += (1.0 + 0.3 * i - 0.2 * j) * std::pow(x[0], i) * std::pow(x[1], j);
    return sum;
  }
  Point<2> gradient(const Point<2>& x) const {
    Point<2> g{};
    for (int i = 0; i <= p; ++i)
      for (int j = 0; i + j <= p; ++j) {
        const double coefficient = 1.0 + 0.3 * i - 0.2 * j;
        if (i > 0) g[0] += coefficient * i * std::pow(x[0], i - 1) * std::pow(x[1], j);
        if (j > 0) g[1] += coefficient * j * std::pow(x[0], i) * std::pow(x[1], j - 1);
      }
    return g;
  }
  Tensor<2> hessian(const Point<2>& x) const {
    Tensor<2> h{};
    for (int i = 0; i <= p; ++i)
      for (int j = 0; i + j <= p; ++j) {
        const double c = 1.0 + 0.3 * i - 0.2 * j;
        if (i > 1) h[0][0] += c * i * (i - 1) * std::pow(x[0], i - 2) * std::pow(x[1], j);
        if (j > 1) h[1][1] += c * j * (j - 1) * std::pow(x[0], i) * std::pow(x[1], j - 2);
        if (i > 0 && j > 0) {
          const double v = c * i * j * std::pow(x[0], i - 1) * std::pow(x[1], j - 1);
          h[0][1] += v;
          h[1][0] += v;
        }
      }
    return h;
  }
};

// Advection-diffusion-reaction with linear A, b, c and the data of the polynomial u.
auto polynomial_problem(const Polynomial& u) {
  const auto a = [](const Point<2>& x) {
    return Tensor<2>{{{1.5 + 0.5 * x[0], 0.25}, {0.25, 1 + 0.5 * x[1]}}};
  };
  const auto b = [](const Point<2>& x) { return Point<2>{{0.7 - 0.2 * x[1], -0.4 + 0.3 * x[0]}}; };
  const auto c = [](const Point<2>& x) { return 1 + 0.5 * x[0]; };
  return make_coefficients<2>()
      .with_diffusion(a)
      .with_advection(b)
      .with_reaction(c)
      .with_source([=](const Point<2>& x) {
        const Tensor<2> ax = a(x), h = u.hessian(x);
        const Point<2> g = u.gradient(x);
        const double div_a_grad = 0.5 * g[0] + 0.5 * g[1] + ax[0][0] * h[0][0] +
                                  2 * ax[0][1] * h[0][1] + ax[1][1] * h[1][1];
        return -div_a_grad + dot(b(x), g) + c(x) * u(x);
      })
      .with_dirichlet(u)
      .with_neumann(
          [=](const Point<2>& x, const Point<2>& n) { return dot(n, a(x) * u.gradient(x)); });
}

}  // namespace

BOOST_AUTO_TEST_CASE(polynomials_of_the_degree_are_reproduced_on_polygons) {
  for (int p = 1; p <= 3; ++p) {
    const PolytopicMesh<2> mesh = polygons(p);
    const Polynomial u{p};
    // Dirichlet on the bottom and top, Neumann on the sides.
    BoundaryConditions conditions(BoundaryKind::dirichlet);
    conditions.set(2, BoundaryKind::neumann).set(4, BoundaryKind::neumann);
    Assembler<2> assembler(mesh, conditions);
    auto matrix = assembler.make_matrix();
    auto rhs = assembler.make_vector();
    assembler.assemble(polynomial_problem(u), matrix, rhs);
    const auto solution = testing::dense_solve(matrix, rhs);
    const double error = max_nodal_error(mesh, *assembler.pattern(), solution, u);
    BOOST_TEST_MESSAGE("p = " << p << ": max error " << error);
    BOOST_TEST(error < 1e-10);
  }
}

BOOST_AUTO_TEST_CASE(pure_diffusion_matrix_is_symmetric) {
  const PolytopicMesh<2> mesh = polygons(3);
  Assembler<2> assembler(mesh, BoundaryConditions::all_dirichlet());
  auto matrix = assembler.make_matrix();
  assembler.assemble_matrix(make_coefficients<2>().with_diffusion([](const Point<2>& x) {
    return Tensor<2>{{{1 + x[0] * x[1], 0.3 * x[0]}, {0.3 * x[0], 2 - x[1]}}};
  }),
                            matrix);
  const auto dense = testing::dense_matrix(matrix);
  const std::size_t n = std::size_t(assembler.pattern()->dof_count());
  double largest = 0, asymmetry = 0;
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = 0; j < n; ++j) {
      largest = std::max(largest, std::abs(dense[i * n + j]));
      asymmetry = std::max(asymmetry, std::abs(dense[i * n + j] - dense[j * n + i]));
    }
  BOOST_TEST(largest > 0);
  BOOST_TEST(asymmetry <= 1e-12 * largest);
}

BOOST_AUTO_TEST_CASE(hp_mesh_reproduces_polynomials_of_the_smallest_degree) {
  const auto fine = fine_square(16);
  const Agglomeration parts = agglomerate(*fine, 12);
  std::vector<int> degrees(parts.element_count);
  for (Index e = 0; e < parts.element_count; ++e) degrees[e] = 2 + e % 2;  // 2 and 3 mixed
  const PolytopicMesh<2> mesh(fine, parts.element_of_cell, degrees);
  const Polynomial u{2};
  Assembler<2> assembler(mesh, BoundaryConditions::all_dirichlet());
  auto matrix = assembler.make_matrix();
  auto rhs = assembler.make_vector();
  assembler.assemble(polynomial_problem(u), matrix, rhs);
  const auto solution = testing::dense_solve(matrix, rhs);
  BOOST_TEST(max_nodal_error(mesh, *assembler.pattern(), solution, u) < 1e-10);
}

BOOST_AUTO_TEST_CASE(assembly_is_bitwise_reproducible_and_allocates_nothing_the_second_time) {
  const PolytopicMesh<2> mesh = polygons(3);
  Assembler<2> assembler(mesh, BoundaryConditions::all_dirichlet());
  const auto problem = polynomial_problem(Polynomial{3});
  auto first = assembler.make_matrix();
  auto rhs_first = assembler.make_vector();
  omp_set_num_threads(1);
  assembler.assemble(problem, first, rhs_first);
  omp_set_num_threads(std::max(2, omp_get_num_procs()));

  auto second = assembler.make_matrix();
  auto rhs_second = assembler.make_vector();
  assembler.assemble(problem, second, rhs_second);  // warm-up of the threads' pools
  const double* values_before = second.values().data();
  const long allocations_before = testing::allocation_count();
  assembler.assemble(problem, second, rhs_second);
  const long allocations = testing::allocation_count() - allocations_before;
  BOOST_TEST(allocations == 0);
  BOOST_TEST(second.values().data() == values_before);
  BOOST_TEST(
      std::memcmp(first.values().data(), second.values().data(), first.values().size_bytes()) == 0);
  BOOST_TEST(std::memcmp(rhs_first.data(), rhs_second.data(), rhs_first.size() * sizeof(double)) ==
             0);
}

// assemble_rhs evaluates basis values only (no gradients) at element points, assemble_matrix
// no source: each must give the bits of the full assembly's rhs and matrix.
BOOST_AUTO_TEST_CASE(rhs_only_and_matrix_only_give_the_bits_of_the_full_assembly) {
  const PolytopicMesh<2> mesh = polygons(3);
  Assembler<2> assembler(mesh, BoundaryConditions::all_dirichlet());
  const auto problem = polynomial_problem(Polynomial{3});
  auto full = assembler.make_matrix();
  auto full_rhs = assembler.make_vector();
  assembler.assemble(problem, full, full_rhs);
  auto matrix_only = assembler.make_matrix();
  assembler.assemble_matrix(problem, matrix_only);
  auto rhs_only = assembler.make_vector();
  assembler.assemble_rhs(problem, rhs_only);
  BOOST_TEST(std::memcmp(full.values().data(), matrix_only.values().data(),
                         full.values().size_bytes()) == 0);
  BOOST_TEST(std::memcmp(full_rhs.data(), rhs_only.data(), full_rhs.size() * sizeof(double)) == 0);
  double largest = 0;
  for (const double value : rhs_only) largest = std::max(largest, std::abs(value));
  BOOST_TEST(largest > 0);  // the comparison is of a rhs with data in it
}

// A Constant diffusion skips the pass over the points for the penalty's ranges
// (ConstantCoefficient): the ranges and the whole matrix must be those of a callable that returns
// the same tensor at every point.
BOOST_AUTO_TEST_CASE(constant_diffusion_gives_the_ranges_and_bits_of_a_pointwise_one) {
  Tensor<2> a{};
  a[0][0] = 1.5;
  a[1][1] = 0.75;
  a[0][1] = a[1][0] = -0.25;
  const auto constant = make_coefficients<2>()
                            .with_diffusion(a)
                            .with_advection(Point<2>{{1.0, -0.5}})
                            .with_reaction(2.0)
                            .with_source(1.0);
  const auto pointwise = constant.with_diffusion([a](const Point<2>&) { return a; });
  static_assert(ConstantCoefficient<decltype(constant.diffusion)>);
  static_assert(!ConstantCoefficient<decltype(pointwise.diffusion)>);

  const PolytopicMesh<2> mesh = polygons(2);
  const QuadratureMesh<2> quadrature_mesh(mesh, BoundaryConditions::all_dirichlet());
  const QuadratureDegrees degrees;
  const auto constant_ranges = compute_diffusion_ranges(quadrature_mesh, constant, degrees);
  const auto pointwise_ranges = compute_diffusion_ranges(quadrature_mesh, pointwise, degrees);
  BOOST_REQUIRE_EQUAL(constant_ranges.size(), pointwise_ranges.size());
  BOOST_TEST(std::memcmp(constant_ranges.data(), pointwise_ranges.data(),
                         constant_ranges.size() * sizeof(DiffusionRange<2>)) == 0);

  Assembler<2> assembler(mesh, BoundaryConditions::all_dirichlet());
  auto constant_matrix = assembler.make_matrix();
  auto pointwise_matrix = assembler.make_matrix();
  auto constant_rhs = assembler.make_vector();
  auto pointwise_rhs = assembler.make_vector();
  assembler.assemble(constant, constant_matrix, constant_rhs);
  assembler.assemble(pointwise, pointwise_matrix, pointwise_rhs);
  BOOST_TEST(std::memcmp(constant_matrix.values().data(), pointwise_matrix.values().data(),
                         constant_matrix.values().size_bytes()) == 0);
  BOOST_TEST(std::memcmp(constant_rhs.data(), pointwise_rhs.data(),
                         constant_rhs.size() * sizeof(double)) == 0);

  // A non-finite constant is refused before any point is visited, naming the entry.
  Tensor<2> broken = a;
  broken[1][0] = std::nan("");
  const auto message = error_message(
      [&] { assembler.assemble(constant.with_diffusion(broken), constant_matrix, constant_rhs); });
  BOOST_TEST(message.find("constant diffusion coefficient A is not finite (A[1][0] = nan)") !=
                 std::string::npos,
             message);
}

BOOST_AUTO_TEST_CASE(bad_input_gives_clear_errors) {
  const PolytopicMesh<2> mesh = polygons(2);
  Assembler<2> assembler(mesh, BoundaryConditions::all_dirichlet());
  auto matrix = assembler.make_matrix();
  auto rhs = assembler.make_vector();
  const auto nan_diffusion = make_coefficients<2>().with_diffusion(
      [](const Point<2>& x) { return Tensor<2>::identity(x[0] > 0.5 ? std::nan("") : 1.0); });
  auto message = error_message([&] { assembler.assemble(nan_diffusion, matrix, rhs); });
  BOOST_TEST(message.find("A(x) is not finite") != std::string::npos, message);
  BOOST_TEST(message.find("element") != std::string::npos, message);

  const auto nan_source = make_coefficients<2>().with_diffusion(1.0).with_source(
      [](const Point<2>& x) { return x[1] > 0.9 ? std::nan("") : 0.0; });
  message = error_message([&] { assembler.assemble(nan_source, matrix, rhs); });
  BOOST_TEST(message.find("f(x) is not finite") != std::string::npos, message);
  BOOST_TEST(message.find("at x = (") != std::string::npos, message);

  // A tag without a condition.
  BoundaryConditions partial;
  partial.set(1, BoundaryKind::dirichlet)
      .set(2, BoundaryKind::dirichlet)
      .set(3, BoundaryKind::neumann);
  message = error_message([&] { Assembler<2>(mesh, partial); });
  BOOST_TEST(message.find("boundary tag 4 has no boundary condition") != std::string::npos,
             message);

  // Degrees outside [1, 10].
  const auto fine = fine_square(4);
  std::vector<Index> identity(fine->cell_count());
  for (Index c = 0; c < fine->cell_count(); ++c) identity[c] = c;
  for (const int degree : {11, -1, 0})
    BOOST_TEST(
        error_names([&] { PolytopicMesh<2>(fine, identity, degree); },
                    {"PolytopicMesh: degree " + std::to_string(degree), "is outside [1, 10]"}));

  // Vectors and matrices of another size or pattern: the sizes are named.
  std::vector<double> short_rhs(3);
  BOOST_TEST(error_names([&] { assembler.assemble_rhs(nan_source, short_rhs); },
                         {"Assembler: rhs of 3 entries for " +
                          std::to_string(assembler.pattern()->dof_count()) + " unknowns"}));
  Assembler<2> other(polygons(1), BoundaryConditions::all_dirichlet());
  auto foreign = other.make_matrix();
  BOOST_TEST(error_names([&] { assembler.assemble_matrix(nan_source, foreign); },
                         {"Assembler: the matrix was not made on this assembler's pattern"}));
}

// A coefficient or boundary datum that is NaN right of x = ½ is refused, naming the coefficient,
// the element (the first of smallest index that meets it) and the point, which lies right of ½.
BOOST_AUTO_TEST_CASE(non_finite_coefficients_name_the_coefficient_the_element_and_the_point) {
  // Unperturbed 2×2 squares, one element per triangle: every element lies in one quadrant.
  const auto fine = std::make_shared<const SimplexMesh<2>>(unit_square_mesh(2));
  std::vector<Index> identity(fine->cell_count());
  for (Index c = 0; c < fine->cell_count(); ++c) identity[c] = c;
  const PolytopicMesh<2> mesh(fine, identity, 1);
  const double nan = std::nan("");
  const auto right = [](const Point<2>& x) { return x[0] > 0.5; };
  // The first element right of ½, and the first there with a boundary facet.
  Index first_right = -1, first_right_on_boundary = -1;
  for (Index e = mesh.element_count() - 1; e >= 0; --e)
    if (mesh.element_box(e).lower[0] >= 0.5) {
      first_right = e;
      if (!mesh.element_boundary_facets(e).empty()) first_right_on_boundary = e;
    }
  BOOST_REQUIRE_GE(first_right_on_boundary, 0);

  // "<name> is not finite (nan) in element <e> at x = (x0, x1)": x0 must lie right of ½.
  const auto check = [&](const auto& data, const BoundaryConditions& conditions,
                         const std::string& name, Index element) {
    Assembler<2> assembler(mesh, conditions);
    auto matrix = assembler.make_matrix();
    auto rhs = assembler.make_vector();
    const std::string message = error_message([&] { assembler.assemble(data, matrix, rhs); });
    const std::string expected =
        name + " is not finite (nan) in element " + std::to_string(element) + " at x = (";
    BOOST_TEST(contains(message, expected), "expected \"" << expected << "\" in: " << message);
    const auto at = message.find(" at x = (");
    BOOST_TEST_REQUIRE(at != std::string::npos, message);
    BOOST_TEST(std::stod(message.substr(at + 9)) > 0.5, message);
  };
  const auto dirichlet = BoundaryConditions::all_dirichlet();
  const auto base = make_coefficients<2>().with_diffusion(1.0);
  check(base.with_advection([&](const Point<2>& x) {
    return right(x) ? Point<2>{{nan, 0.0}} : Point<2>{{1.0, 0.5}};
  }),
        dirichlet, "b(x)", first_right);
  check(base.with_reaction([&](const Point<2>& x) { return right(x) ? nan : 1.0; }), dirichlet,
        "c(x)", first_right);
  check(base.with_dirichlet([&](const Point<2>& x) { return right(x) ? nan : 0.0; }), dirichlet,
        "g_D(x)", first_right_on_boundary);
  check(base.with_neumann([&](const Point<2>& x, const Point<2>&) { return right(x) ? nan : 0.0; }),
        BoundaryConditions(BoundaryKind::neumann), "g_N(x)", first_right_on_boundary);
}
