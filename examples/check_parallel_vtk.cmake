# ctest -P script: an example's --vtk output under mpiexec against the same run on one rank.
# Runs the command given after "--" (the program and its options, without --vtk) once on one
# rank with --vtk SERIAL_DIR and once as MPIEXEC MPIEXEC_NUMPROC_FLAG RANKS --oversubscribe
# with --vtk PARALLEL_DIR (both folders emptied first, so no file of an earlier run counts),
# then tests/io/check_pvtu_against_vtu.py on PARALLEL_DIR/PARALLEL_FILE (a .pvtu or a .pvd of
# them) against SERIAL_DIR/SERIAL_FILE (a .vtu or a .pvd of them) with TOLERANCE on u.
# Inputs: PYTHON, CHECKER, MPIEXEC, MPIEXEC_NUMPROC_FLAG, RANKS, SERIAL_DIR, SERIAL_FILE,
# PARALLEL_DIR, PARALLEL_FILE, TOLERANCE; optional PARTS_DIR: the parallel run reads its ranks'
# parts from there (--read-parts). Fails on any non-zero exit status.
set(command)
set(after_separator FALSE)
math(EXPR last_argument "${CMAKE_ARGC} - 1")
foreach(i RANGE 0 ${last_argument})
  if(after_separator)
    list(APPEND command "${CMAKE_ARGV${i}}")
  elseif("${CMAKE_ARGV${i}}" STREQUAL "--")
    set(after_separator TRUE)
  endif()
endforeach()
if(NOT command)
  message(FATAL_ERROR "check_parallel_vtk.cmake: no command after --")
endif()

function(run_checked)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE err)
  message(STATUS "${ARGN}\n${out}${err}")
  if(NOT "${status}" STREQUAL "0")
    message(FATAL_ERROR "exit status ${status}: ${ARGN}")
  endif()
endfunction()

foreach(folder ${SERIAL_DIR} ${PARALLEL_DIR})
  file(REMOVE_RECURSE ${folder})
  file(MAKE_DIRECTORY ${folder})
endforeach()
run_checked(${command} --vtk ${SERIAL_DIR})
set(parallel_options --vtk ${PARALLEL_DIR})
if(PARTS_DIR)
  list(APPEND parallel_options --read-parts ${PARTS_DIR})
endif()
run_checked(${MPIEXEC} ${MPIEXEC_NUMPROC_FLAG} ${RANKS} --oversubscribe ${command}
            ${parallel_options})
run_checked(${PYTHON} ${CHECKER} --parallel ${PARALLEL_DIR}/${PARALLEL_FILE}
            --serial ${SERIAL_DIR}/${SERIAL_FILE} --ranks ${RANKS} --tolerance ${TOLERANCE})
