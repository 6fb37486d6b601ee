# polydg_set_warnings(target): the warning set every polydg target compiles with.
function(polydg_set_warnings target)
  set(cxx_warnings -Wall -Wextra -Wpedantic -Wshadow -Wnon-virtual-dtor -Wcast-align
                   -Woverloaded-virtual -Wnull-dereference -Wimplicit-fallthrough)
  if(POLYDG_WARNINGS_AS_ERRORS)
    list(APPEND cxx_warnings -Werror)
  endif()
  target_compile_options(${target} PRIVATE $<$<COMPILE_LANGUAGE:CXX>:${cxx_warnings}>)
  if(POLYDG_WARNINGS_AS_ERRORS)
    target_compile_options(${target} PRIVATE $<$<COMPILE_LANGUAGE:CUDA>:-Werror=all-warnings>)
  endif()
endfunction()
