# FindMETIS: locates METIS 5 (metis.h, libmetis) and defines the imported target METIS::METIS.
# Hints: METIS_ROOT or METIS_DIR, CMAKE_PREFIX_PATH.
find_path(METIS_INCLUDE_DIR metis.h HINTS ${METIS_ROOT} ${METIS_DIR} ENV METIS_ROOT PATH_SUFFIXES include)
find_library(METIS_LIBRARY metis HINTS ${METIS_ROOT} ${METIS_DIR} ENV METIS_ROOT PATH_SUFFIXES lib lib64)
if(METIS_INCLUDE_DIR AND EXISTS "${METIS_INCLUDE_DIR}/metis.h")
  file(STRINGS "${METIS_INCLUDE_DIR}/metis.h" _metis_major REGEX "#define METIS_VER_MAJOR")
  string(REGEX MATCH "[0-9]+" METIS_VERSION_MAJOR "${_metis_major}")
endif()
include(FindPackageHandleStandardArgs)
find_package_handle_standard_args(METIS REQUIRED_VARS METIS_LIBRARY METIS_INCLUDE_DIR)
if(METIS_FOUND AND NOT TARGET METIS::METIS)
  add_library(METIS::METIS UNKNOWN IMPORTED)
  set_target_properties(METIS::METIS PROPERTIES IMPORTED_LOCATION "${METIS_LIBRARY}"
                                                INTERFACE_INCLUDE_DIRECTORIES "${METIS_INCLUDE_DIR}")
endif()
mark_as_advanced(METIS_INCLUDE_DIR METIS_LIBRARY)
