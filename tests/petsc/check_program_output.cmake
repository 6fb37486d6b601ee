# cmake -DPROGRAM=<executable> [-DARGS=<a;list>] [-DEXPECT=<regex;...>] [-DREJECT=<regex;...>]
#       -P check_program_output.cmake
# Runs PROGRAM with ARGS and fails unless it exits with 0 and its output (stdout and stderr
# together) matches every regular expression of EXPECT and none of REJECT. (A ctest
# PASS_REGULAR_EXPRESSION would ignore the exit code.)
execute_process(COMMAND ${PROGRAM} ${ARGS} RESULT_VARIABLE exit_code OUTPUT_VARIABLE output
                ERROR_VARIABLE output)
message("${PROGRAM} ${ARGS}\n${output}")
if(NOT exit_code EQUAL 0)
  message(FATAL_ERROR "exit code ${exit_code}, expected 0")
endif()
foreach(expression IN LISTS EXPECT)
  if(NOT output MATCHES "${expression}")
    message(FATAL_ERROR "the output does not match '${expression}'")
  endif()
endforeach()
foreach(expression IN LISTS REJECT)
  if(output MATCHES "${expression}")
    message(FATAL_ERROR "the output matches '${expression}', which it should not")
  endif()
endforeach()
