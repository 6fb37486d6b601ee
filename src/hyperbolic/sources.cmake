# hyperbolic: the explicit path for conservation laws (headers in include/polydg/hyperbolic).
target_sources(polydg PRIVATE ${PROJECT_SOURCE_DIR}/src/hyperbolic/triangle_geometry.cpp)
target_sources(polydg PRIVATE ${PROJECT_SOURCE_DIR}/src/hyperbolic/supersonic_vortex.cpp)
target_sources(polydg PRIVATE ${PROJECT_SOURCE_DIR}/src/hyperbolic/explicit_polygon_dg.cpp)
target_sources(polydg PRIVATE ${PROJECT_SOURCE_DIR}/src/hyperbolic/slope_limiter.cpp)
target_sources(polydg PRIVATE ${PROJECT_SOURCE_DIR}/src/hyperbolic/positivity.cpp)
target_sources(polydg PRIVATE ${PROJECT_SOURCE_DIR}/src/hyperbolic/double_mach_reflection.cpp)
target_sources(polydg PRIVATE ${PROJECT_SOURCE_DIR}/src/hyperbolic/explicit_output.cpp)
target_sources(polydg PRIVATE ${PROJECT_SOURCE_DIR}/src/hyperbolic/element_halo.cpp)
