# ctest -P script: installs the build tree into a scratch prefix, then configures, builds and
# runs tests/install/consumer against it (find_package), and compiles it once more with the
# flags from polydg.pc (pkg-config). Inputs: BUILD_DIR, SOURCE_DIR, WORK_DIR.
file(REMOVE_RECURSE ${WORK_DIR})
set(prefix ${WORK_DIR}/prefix)

function(run_step)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT status EQUAL 0)
    message(FATAL_ERROR "step failed (${status}): ${ARGN}\n${out}\n${err}")
  endif()
  message(STATUS "ok: ${ARGN}\n${out}")
endfunction()

run_step(${CMAKE_COMMAND} --install ${BUILD_DIR} --prefix ${prefix})
run_step(${CMAKE_COMMAND} -S ${SOURCE_DIR}/tests/install/consumer -B ${WORK_DIR}/consumer-build
         -DCMAKE_PREFIX_PATH=${prefix} -DCMAKE_BUILD_TYPE=Release)
run_step(${CMAKE_COMMAND} --build ${WORK_DIR}/consumer-build)
run_step(${WORK_DIR}/consumer-build/consumer)

# The same program through pkg-config.
find_program(PKG_CONFIG_EXECUTABLE pkg-config REQUIRED)
set(ENV{PKG_CONFIG_PATH} "${prefix}/lib/pkgconfig:$ENV{PKG_CONFIG_PATH}")
execute_process(COMMAND ${PKG_CONFIG_EXECUTABLE} --cflags --libs polydg
                OUTPUT_VARIABLE flags RESULT_VARIABLE status OUTPUT_STRIP_TRAILING_WHITESPACE)
if(NOT status EQUAL 0)
  message(FATAL_ERROR "pkg-config polydg failed")
endif()
separate_arguments(flags UNIX_COMMAND "${flags}")
run_step(${CXX_COMPILER} ${SOURCE_DIR}/tests/install/consumer/main.cpp ${flags}
         -Wl,-rpath,${prefix}/lib -o ${WORK_DIR}/consumer-pkgconfig)
run_step(${WORK_DIR}/consumer-pkgconfig)

# The installed first steady program, as a user copies it: built against the installed tree
# with the pkg-config flags, then run on a small mesh (exit code 0: it solved and measured).
run_step(${CXX_COMPILER} ${prefix}/share/polydg/examples/poisson.cpp ${flags}
         -Wl,-rpath,${prefix}/lib -o ${WORK_DIR}/poisson)
run_step(${WORK_DIR}/poisson --cells-per-side 16 --elements 60 --p 1)
