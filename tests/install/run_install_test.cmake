# ctest -P script: installs the build tree into a scratch prefix, then builds programs outside
# the source tree against it, as users do:
#  * tests/install/consumer (C++ only, project(... LANGUAGES CXX)) through find_package, run;
#    with CUDA also its device_consumer: the precompiled GPU assembly from plain C++, run (it
#    compares with the CPU where a device is visible);
#  * the same main.cpp with g++ and the flags of polydg.pc (its run paths, none of ours), run;
#  * the installed examples/poisson.cpp through pkg-config, run on a small mesh;
#  * with CUDA (NVCC given): tests/install/cuda_consumer/main.cu through find_package and
#    polydg::cuda, and with nvcc and polydg.pc's cuda_cflags — compiled and linked, not run.
# Inputs: BUILD_DIR, SOURCE_DIR, WORK_DIR, CXX_COMPILER, LIBDIR, [NVCC].
file(REMOVE_RECURSE ${WORK_DIR})
set(prefix ${WORK_DIR}/prefix)
set(test_dir ${SOURCE_DIR}/tests/install)

function(run_step)
  string(TIMESTAMP start "%s")
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE err)
  string(TIMESTAMP end "%s")
  math(EXPR seconds "${end} - ${start}")
  if(NOT status EQUAL 0)
    message(FATAL_ERROR "step failed (${status}): ${ARGN}\n${out}\n${err}")
  endif()
  message(STATUS "ok (${seconds} s): ${ARGN}\n${out}")
endfunction()

run_step(${CMAKE_COMMAND} --install ${BUILD_DIR} --prefix ${prefix})

# ---- find_package, C++ -----------------------------------------------------------------------
run_step(${CMAKE_COMMAND} -S ${test_dir}/consumer -B ${WORK_DIR}/consumer-build
         -DCMAKE_PREFIX_PATH=${prefix} -DCMAKE_BUILD_TYPE=Release)
run_step(${CMAKE_COMMAND} --build ${WORK_DIR}/consumer-build)
run_step(${WORK_DIR}/consumer-build/consumer)
if(EXISTS ${WORK_DIR}/consumer-build/device_consumer)
  run_step(${WORK_DIR}/consumer-build/device_consumer)
endif()

# ---- pkg-config, C++ -------------------------------------------------------------------------
find_program(PKG_CONFIG_EXECUTABLE pkg-config REQUIRED)
set(ENV{PKG_CONFIG_PATH} "${prefix}/${LIBDIR}/pkgconfig:$ENV{PKG_CONFIG_PATH}")
function(pkg_config out)
  execute_process(COMMAND ${PKG_CONFIG_EXECUTABLE} ${ARGN} polydg OUTPUT_VARIABLE value
                  RESULT_VARIABLE status OUTPUT_STRIP_TRAILING_WHITESPACE)
  if(NOT status EQUAL 0)
    message(FATAL_ERROR "pkg-config ${ARGN} polydg failed")
  endif()
  set(${out} "${value}" PARENT_SCOPE)
endfunction()
pkg_config(flags --cflags --libs)
message(STATUS "pkg-config --cflags --libs polydg: ${flags}")
if(NOT flags MATCHES "-Wl,-rpath,")
  message(FATAL_ERROR "polydg.pc's Libs set no run path")
endif()
separate_arguments(flags UNIX_COMMAND "${flags}")
# No -Wl,-rpath of ours: the programs must find libpolydg through polydg.pc's run path.
run_step(${CXX_COMPILER} ${test_dir}/consumer/main.cpp ${flags} -o ${WORK_DIR}/consumer-pkgconfig)
run_step(${WORK_DIR}/consumer-pkgconfig)

# The installed first steady program, as a user copies it: built against the installed tree
# with the pkg-config flags, then run on a small mesh (exit code 0: it solved and measured).
run_step(${CXX_COMPILER} ${prefix}/share/polydg/examples/poisson.cpp ${flags} -o ${WORK_DIR}/poisson)
run_step(${WORK_DIR}/poisson --cells-per-side 16 --elements 60 --p 1)

# ---- CUDA: a user's .cu, compiled and linked only --------------------------------------------
pkg_config(has_cuda --variable=has_cuda)
if(NOT NVCC)
  if(has_cuda)
    message(FATAL_ERROR "polydg.pc says has_cuda=${has_cuda}, but the test was given no nvcc")
  endif()
  message(STATUS "CPU-only build (has_cuda=${has_cuda}): no CUDA consumer")
  return()
endif()
if(NOT has_cuda)
  message(FATAL_ERROR "a CUDA build whose polydg.pc says has_cuda=${has_cuda}")
endif()
run_step(${CMAKE_COMMAND} -S ${test_dir}/cuda_consumer -B ${WORK_DIR}/cuda-consumer-build
         -DCMAKE_PREFIX_PATH=${prefix} -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_COMPILER=${NVCC})
run_step(${CMAKE_COMMAND} --build ${WORK_DIR}/cuda-consumer-build --verbose)

# nvcc with cuda_cflags and the include paths; the object linked by the C++ compiler with Libs.
pkg_config(cuda_cflags --variable=cuda_cflags)
pkg_config(includes --cflags-only-I)
message(STATUS "cuda_cflags: ${cuda_cflags}")
separate_arguments(cuda_cflags UNIX_COMMAND "${cuda_cflags} ${includes}")
run_step(${NVCC} ${cuda_cflags} -c ${test_dir}/cuda_consumer/main.cu
         -o ${WORK_DIR}/cuda-consumer-pkgconfig.o)
run_step(${CXX_COMPILER} ${WORK_DIR}/cuda-consumer-pkgconfig.o ${flags}
         -o ${WORK_DIR}/cuda-consumer-pkgconfig)
