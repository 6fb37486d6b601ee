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

# polydg.pc: Cflags and Libs for the host compiler (g++ / clang++); in a CUDA build the
# variable cuda_cflags holds the flags nvcc needs for a user's .cu file (nvcc rejects a bare
# -fopenmp). Libs carry run paths, so programs find libpolydg (and libcudart) where installed.
get_filename_component(POLYDG_PC_METIS_DIR "${METIS_LIBRARY}" DIRECTORY)
set(POLYDG_PC_CFLAGS "-std=c++20 -I\${includedir}")
set(POLYDG_PC_LIBS "-L\${libdir} -Wl,-rpath,\${libdir} -lpolydg")
if(OpenMP_CXX_FOUND)
  string(APPEND POLYDG_PC_CFLAGS " ${OpenMP_CXX_FLAGS}")
  string(APPEND POLYDG_PC_LIBS " ${OpenMP_CXX_FLAGS}")
endif()
# No run path into a directory the linker searches anyway (/usr/lib/...).
function(_polydg_pc_link_dir dir out)
  set(flags "-L${dir}")
  if(NOT dir IN_LIST CMAKE_CXX_IMPLICIT_LINK_DIRECTORIES)
    string(APPEND flags " -Wl,-rpath,${dir}")
  endif()
  set(${out} "${flags}" PARENT_SCOPE)
endfunction()
_polydg_pc_link_dir("${POLYDG_PC_METIS_DIR}" _metis_flags)
string(APPEND POLYDG_PC_LIBS " ${_metis_flags} -lmetis")
set(POLYDG_PC_CUDA_VARIABLES "")
if(POLYDG_CUDA)
  string(APPEND POLYDG_PC_CFLAGS " -DPOLYDG_CUDA=1")
  foreach(dir IN LISTS CUDAToolkit_INCLUDE_DIRS)
    string(APPEND POLYDG_PC_CFLAGS " -I${dir}")
  endforeach()
  _polydg_pc_link_dir("${CUDAToolkit_LIBRARY_DIR}" _cudart_flags)
  string(APPEND POLYDG_PC_LIBS " ${_cudart_flags} -lcudart")
  # nvcc's code generation for CMAKE_CUDA_ARCHITECTURES (90 = sm_90 and compute_90 PTX,
  # 90-real, 90-virtual, all / all-major / native), without brackets the shell would glob.
  set(_arch_flags "")
  foreach(arch IN LISTS CMAKE_CUDA_ARCHITECTURES)
    if(arch MATCHES "^(all|all-major|native)$")
      string(APPEND _arch_flags " -arch=${arch}")
    elseif(arch MATCHES "^([0-9]+[a-z]?)(-real|-virtual)?$")
      set(_sm ${CMAKE_MATCH_1})
      if(NOT CMAKE_MATCH_2 STREQUAL "-virtual")
        string(APPEND _arch_flags " -gencode=arch=compute_${_sm},code=sm_${_sm}")
      endif()
      if(NOT CMAKE_MATCH_2 STREQUAL "-real")
        string(APPEND _arch_flags " -gencode=arch=compute_${_sm},code=compute_${_sm}")
      endif()
    endif()
  endforeach()
  set(_cuda_cflags "-std=c++20 --extended-lambda --expt-relaxed-constexpr")
  if(OpenMP_CXX_FOUND)
    string(APPEND _cuda_cflags " -Xcompiler=${OpenMP_CXX_FLAGS}")
  endif()
  string(APPEND _cuda_cflags " -DPOLYDG_CUDA=1${_arch_flags}")
  set(POLYDG_PC_CUDA_VARIABLES "cuda_architectures=${CMAKE_CUDA_ARCHITECTURES}
# nvcc flags for a user's .cu file, used with the include paths of --cflags-only-I:
#   nvcc $(pkg-config --variable=cuda_cflags polydg) $(pkg-config --cflags-only-I polydg) -c app.cu
#   c++ app.o $(pkg-config --libs polydg) -o app
cuda_cflags=${_cuda_cflags}
")
endif()
# The .pc file finds its prefix relative to itself, so `cmake --install --prefix` anywhere works.
file(RELATIVE_PATH POLYDG_PC_RELATIVE_PREFIX "/${CMAKE_INSTALL_LIBDIR}/pkgconfig" "/")
string(REGEX REPLACE "/$" "" POLYDG_PC_RELATIVE_PREFIX "${POLYDG_PC_RELATIVE_PREFIX}")
configure_file(cmake/polydg.pc.in ${PROJECT_BINARY_DIR}/polydg.pc @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/polydg.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)

# The first steady program, for users to copy and build against the installed package
# (docs/user-guide.md, "A first steady program").
install(FILES examples/poisson.cpp DESTINATION ${CMAKE_INSTALL_DATADIR}/polydg/examples)
