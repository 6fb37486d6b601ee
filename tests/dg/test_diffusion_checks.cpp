#define BOOST_TEST_MODULE dg_diffusion_checks
// Problem (1) needs A symmetric positive semidefinite: an assembly with an A that is not
// stops with a polydg::Error that says what is wrong, at which point and in which element
// (variable A) or which A (constant), instead of a matrix PETSc cannot factor.
#include <boost/test/unit_test.hpp>
#include <memory>
#include <string>
#include <vector>

#include "error_message.hpp"
#include "polydg/dg/assembler.hpp"
#include "polydg/mesh/agglomeration.hpp"
#include "polydg/mesh/generators.hpp"

using namespace polydg;
using testing::contains;
using testing::error_message;

namespace {

PolytopicMesh<2> small_mesh() {
  const auto fine = std::make_shared<const SimplexMesh<2>>(unit_square_mesh(6, 0.2, 3));
  return PolytopicMesh<2>(fine, agglomerate_by_cell_count(*fine, 6).element_of_cell, 1);
}

template <class Diffusion>
std::string assembly_error(const Diffusion& diffusion) {
  Assembler<2> assembler(small_mesh(), BoundaryConditions::all_dirichlet());
  auto matrix = assembler.make_matrix();
  return error_message(
      [&] { assembler.assemble_matrix(make_coefficients<2>().with_diffusion(diffusion), matrix); });
}

}  // namespace

BOOST_AUTO_TEST_CASE(diffusion_defects_are_named) {
  BOOST_TEST(diffusion_defect(Tensor<2>::identity(1.0)) == nullptr);
  BOOST_TEST(diffusion_defect(Tensor<2>{{{1, 0}, {0, 0}}}) == nullptr);  // semidefinite
  BOOST_TEST(contains(diffusion_defect(Tensor<2>{{{1, 0.5}, {0, 1}}}), "not symmetric"));
  BOOST_TEST(contains(diffusion_defect(Tensor<2>{{{-1, 0}, {0, 1}}}), "diagonal"));
  // Positive diagonal, indefinite: the 2 × 2 minor 1 − 4 < 0.
  BOOST_TEST(contains(diffusion_defect(Tensor<2>{{{1, 2}, {2, 1}}}), "principal minor"));
  // 3D: every 2 × 2 minor 1 − 0.81 > 0, but the determinant 1 − 3·0.81 + 2·0.729 < 0.
  const Tensor<3> indefinite{{{1, -0.9, -0.9}, {-0.9, 1, -0.9}, {-0.9, -0.9, 1}}};
  BOOST_TEST(contains(diffusion_defect(indefinite), "determinant"));
  BOOST_TEST(diffusion_defect(Tensor<3>::identity(2.0)) == nullptr);
}

BOOST_AUTO_TEST_CASE(negative_definite_constant_diffusion_is_refused) {
  const std::string message = assembly_error(-1.0);
  BOOST_TEST_MESSAGE(message);
  BOOST_TEST(contains(message, "constant diffusion coefficient A = [[-1, 0], [0, -1]]"));
  BOOST_TEST(contains(message, "not positive semidefinite"));
}

BOOST_AUTO_TEST_CASE(indefinite_variable_diffusion_is_refused_naming_point_and_element) {
  // Indefinite where x > 0.5 only: the error names a point there and its element.
  const std::string message = assembly_error([](const Point<2>& x) {
    return x[0] > 0.5 ? Tensor<2>{{{1, 0}, {0, -1}}} : Tensor<2>::identity(1.0);
  });
  BOOST_TEST_MESSAGE(message);
  BOOST_TEST(contains(message, "diffusion coefficient A(x) = [[1, 0], [0, -1]]"));
  BOOST_TEST(contains(message, "not positive semidefinite"));
  BOOST_TEST(contains(message, "at x = ("));
  BOOST_TEST(contains(message, "in element "));
}
