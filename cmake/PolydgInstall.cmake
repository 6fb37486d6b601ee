# Installation: headers, libpolydg, the exported CMake package (find_package(polydg) gives
# polydg::polydg with its PETSc / MPI / METIS / CUDA usage requirements and, in a CUDA build,
# polydg::cuda for the user's .cu files) and polydg.pc.
include(CMakePackageConfigHelpers)
set(POLYDG_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/polydg)

set(_polydg_exported polydg)
if(POLYDG_CUDA)
  list(APPEND _polydg_exported polydg_cuda)
endif()
install(TARGETS ${_polydg_exported} EXPORT polydgTargets
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
        RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
# The public headers are include/polydg/*/*.hpp; with CUDA also polydg/cuda/*.cuh (the template
# path for a user's own coefficient functors) and the internal polydg/detail/ headers it needs.
# kernels/ (the library's CUDA sources, Approach 1) is not installed.
if(POLYDG_CUDA)
  install(DIRECTORY include/polydg DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
else()
  install(DIRECTORY include/polydg DESTINATION ${CMAKE_INSTALL_INCLUDEDIR} PATTERN "*.cuh" EXCLUDE
          PATTERN "cuda" EXCLUDE)
endif()
install(EXPORT polydgTargets NAMESPACE polydg:: DESTINATION ${POLYDG_CMAKE_DIR})

# What polydgConfig.cmake records: ON/OFF, and the architectures the library was built for.
if(POLYDG_CUDA)
  set(POLYDG_HAS_CUDA ON)
  set(POLYDG_EXPORTED_CUDA_ARCHITECTURES "${CMAKE_CUDA_ARCHITECTURES}")
else()
  set(POLYDG_HAS_CUDA OFF)
  set(POLYDG_EXPORTED_CUDA_ARCHITECTURES "")
endif()
if(OpenMP_CXX_FOUND)
  set(POLYDG_HAS_OPENMP ON)
else()
  set(POLYDG_HAS_OPENMP OFF)
endif()
configure_package_config_file(cmake/polydgConfig.cmake.in
                              ${PROJECT_BINARY_DIR}/polydgConfig.cmake
                              INSTALL_DESTINATION ${POLYDG_CMAKE_DIR})
write_basic_package_version_file(${PROJECT_BINARY_DIR}/polydgConfigVersion.cmake
                                 COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/polydgConfig.cmake ${PROJECT_BINARY_DIR}/polydgConfigVersion.cmake
              cmake/FindMETIS.cmake
        DESTINATION ${POLYDG_CMAKE_DIR})

if(POLYDG_CUDA)
  set(POLYDG_PC_CUDA_LIBS "-L${CUDAToolkit_LIBRARY_DIR} -lcudart")
  set(POLYDG_PC_CFLAGS "-DPOLYDG_CUDA=1")
endif()
get_filename_component(POLYDG_PC_METIS_DIR "${METIS_LIBRARY}" DIRECTORY)
# The .pc file finds its prefix relative to itself, so `cmake --install --prefix` anywhere works.
file(RELATIVE_PATH POLYDG_PC_RELATIVE_PREFIX "/${CMAKE_INSTALL_LIBDIR}/pkgconfig" "/")
string(REGEX REPLACE "/$" "" POLYDG_PC_RELATIVE_PREFIX "${POLYDG_PC_RELATIVE_PREFIX}")
configure_file(cmake/polydg.pc.in ${PROJECT_BINARY_DIR}/polydg.pc @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/polydg.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)

# The first steady program, for users to copy and build against the installed package
# (docs/user-guide.md, "A first steady program").
install(FILES examples/poisson.cpp DESTINATION ${CMAKE_INSTALL_DATADIR}/polydg/examples)
