#pragma once
/// DefaultInitAllocator<T>: std::allocator<T>, except that a vector's resize(n) default-
/// initializes the new elements instead of value-initializing them, so for trivially
/// constructible T (points, measures) it does not write zeros. The large arrays that a parallel
/// loop fills right after resize use it: std::vector<T> zeroed (and page-faulted) them on one
/// thread first, which on a large slab's geometry cost more than the parallel fill itself. Every
/// element must be written before it is read.
#include <memory>
#include <new>
#include <utility>

namespace polydg {

template <class T>
struct DefaultInitAllocator : std::allocator<T> {
  using value_type = T;
  template <class U>
  struct rebind {
    using other = DefaultInitAllocator<U>;
  };

  DefaultInitAllocator() noexcept = default;
  template <class U>
  DefaultInitAllocator(const DefaultInitAllocator<U>&) noexcept {}

  /// Default-initialization (no zeros for trivial types).
  template <class U>
  void construct(U* place) noexcept(noexcept(::new (static_cast<void*>(place)) U)) {
    ::new (static_cast<void*>(place)) U;
  }
  /// Any other construction as std::allocator's (copies, fills, emplace).
  template <class U, class... Arguments>
  void construct(U* place, Arguments&&... arguments) {
    ::new (static_cast<void*>(place)) U(std::forward<Arguments>(arguments)...);
  }
};

template <class T, class U>
bool operator==(const DefaultInitAllocator<T>&, const DefaultInitAllocator<U>&) noexcept {
  return true;
}

}  // namespace polydg
