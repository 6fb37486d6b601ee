#define BOOST_TEST_MODULE spacetime_slab_march
// SlabMarch, the step bookkeeping SlabSolver and DeviceSlabSolver share: each step maps the mesh
// from the interval it is on; the previous interval is the one before; the matrix is assembled on
// the first step, at every step when the coefficients depend on t, and otherwise when the step
// length changes (steps t_n = n·T/N that differ by a few ulps count as the same); a step that
// does not move forward is refused naming both times, and start() begins again.
#include <boost/test/unit_test.hpp>
#include <string>

#include "error_message.hpp"
#include "polydg/spacetime/slab_march.hpp"

using polydg::SlabMarch;
using polydg::testing::contains;
using polydg::testing::error_message;

BOOST_AUTO_TEST_CASE(steps_map_from_the_interval_the_mesh_is_on) {
  SlabMarch march;
  march.start(0.5);
  const SlabMarch::Step first = march.next(0.75, false);
  BOOST_TEST(first.n == 1);
  BOOST_TEST(first.first);
  BOOST_TEST(first.from_begin == 0.0);  // a slab mesh is made on [0, 1]
  BOOST_TEST(first.from_end == 1.0);
  BOOST_TEST(first.t_begin == 0.5);
  BOOST_TEST(first.t_end == 0.75);
  BOOST_TEST(march.time() == 0.5);  // until finish()
  march.finish(first);
  BOOST_TEST(march.time() == 0.75);

  const SlabMarch::Step second = march.next(1.0, false);
  BOOST_TEST(second.n == 2);
  BOOST_TEST(!second.first);
  BOOST_TEST(second.from_begin == 0.5);
  BOOST_TEST(second.from_end == 0.75);
  BOOST_TEST(march.previous_begin() == 0.5);  // the previous solution's time box
  BOOST_TEST(march.previous_end() == 0.75);
  march.finish(second);
}

BOOST_AUTO_TEST_CASE(the_matrix_is_assembled_when_the_step_changes) {
  SlabMarch march;
  march.start(0);
  const double T = 1, N = 7;
  bool assembled[4];
  for (int n = 1; n <= 4; ++n) {  // t_n = n·T/N: steps equal up to a few ulps
    const SlabMarch::Step step = march.next(n * T / N, false);
    assembled[n - 1] = step.assemble_matrix;
    march.finish(step);
  }
  BOOST_TEST(assembled[0]);
  BOOST_TEST(!assembled[1]);
  BOOST_TEST(!assembled[2]);
  BOOST_TEST(!assembled[3]);
  const SlabMarch::Step longer = march.next(march.time() + 0.5, false);
  BOOST_TEST(longer.assemble_matrix);
  march.finish(longer);
  const SlabMarch::Step same = march.next(march.time() + 0.5, false);
  BOOST_TEST(!same.assemble_matrix);
  march.finish(same);
  const SlabMarch::Step dependent = march.next(march.time() + 0.5, true);
  BOOST_TEST(dependent.assemble_matrix);  // coefficients depending on t: every step
}

BOOST_AUTO_TEST_CASE(steps_that_do_not_move_forward_are_refused_and_start_begins_again) {
  SlabMarch march;
  march.start(0.5);
  BOOST_TEST(
      contains(error_message([&] { march.next(0.5, false); }), "t_end = 0.5 is not after t = 0.5"));
  BOOST_TEST(contains(error_message([&] { march.next(0.25, false); }), "is not after"));
  march.finish(march.next(0.75, false));  // the refused steps changed nothing
  BOOST_TEST(march.time() == 0.75);
  march.start(0);
  const SlabMarch::Step again = march.next(0.1, false);
  BOOST_TEST(again.n == 1);
  BOOST_TEST(again.first);
  BOOST_TEST(again.assemble_matrix);
}
