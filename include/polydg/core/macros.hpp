#pragma once
/// Portability macros shared by host and device code.
///
/// POLYDG_HD marks a function that the CPU backend and the CUDA kernels both call: the one copy
/// of the mathematics (basis evaluation, quadrature, integrands). It expands to nothing when the
/// translation unit is not compiled by nvcc, so public headers never need CUDA headers.
///
/// POLYDG_UNROLL before a loop of a compile-time trip count (a dimension) in POLYDG_HD code:
/// unrolled in device code, so the arrays it indexes stay in registers rather than in local
/// memory; nothing on the host.

#if defined(__CUDACC__)
#define POLYDG_HD __host__ __device__
#define POLYDG_INLINE __forceinline__
#else
#define POLYDG_HD
#define POLYDG_INLINE inline
#endif

#if defined(__CUDA_ARCH__)
#define POLYDG_UNROLL _Pragma("unroll")
#else
#define POLYDG_UNROLL
#endif
