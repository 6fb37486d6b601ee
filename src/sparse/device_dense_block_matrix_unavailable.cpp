// DeviceDenseBlockMatrix in a build without CUDA: constructing one throws.
#include "polydg/core/error.hpp"
#include "polydg/sparse/device_dense_block_matrix.hpp"

namespace polydg {
namespace {
[[noreturn]] void unavailable(const char* what) {
  raise("DeviceDenseBlockMatrix::", what, ": libpolydg was built without CUDA (POLYDG_CUDA=OFF)");
}
}  // namespace

template <class Real>
DeviceDenseBlockMatrix<Real>::DeviceDenseBlockMatrix(const DenseBlockMatrix<Real>&, int, Index) {
  unavailable("DeviceDenseBlockMatrix");
}
template <class Real>
double DeviceDenseBlockMatrix<Real>::minimal_bytes() const {
  unavailable("minimal_bytes");
}
template <class Real>
void DeviceDenseBlockMatrix<Real>::multiply(const Real*, Real*) const {
  unavailable("multiply");
}
template <class Real>
void DeviceDenseBlockMatrix<Real>::multiply_add(const Real*, const Real*, Real*) const {
  unavailable("multiply_add");
}
template <class Real>
void DeviceDenseBlockMatrix<Real>::multiply_transpose(const Real*, Real*) const {
  unavailable("multiply_transpose");
}
template <class Real>
void DeviceDenseBlockMatrix<Real>::inflate(const Real*, Real*) const {
  unavailable("inflate");
}
template <class Real>
void DeviceDenseBlockMatrix<Real>::contract(const Real*, Real*) const {
  unavailable("contract");
}
template <class Real>
void DeviceDenseBlockMatrix<Real>::diagonal(Real*) const {
  unavailable("diagonal");
}
template <class Real>
void DeviceDenseBlockMatrix<Real>::diagonal_blocks(Real*) const {
  unavailable("diagonal_blocks");
}
template <class Real>
GhostColumnBlocks DeviceDenseBlockMatrix<Real>::ghost_column_blocks(GlobalIndex) const {
  unavailable("ghost_column_blocks");
}
template <class Real>
void DeviceDenseBlockMatrix<Real>::update_values(const Real*) {
  unavailable("update_values");
}

template class DeviceDenseBlockMatrix<float>;
template class DeviceDenseBlockMatrix<double>;

}  // namespace polydg
