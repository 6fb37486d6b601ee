# fem: bounding-box Legendre basis (header-only, host + device) and quadrature rules.
target_sources(polydg PRIVATE
  ${PROJECT_SOURCE_DIR}/src/fem/gauss_jacobi.cpp
  ${PROJECT_SOURCE_DIR}/src/fem/compressed_quadrature.cpp
  ${PROJECT_SOURCE_DIR}/src/fem/simplex_quadrature.cpp
  ${PROJECT_SOURCE_DIR}/src/fem/symmetric_triangle_rules.cpp
  ${PROJECT_SOURCE_DIR}/src/fem/symmetric_slab_rules.cpp
  ${PROJECT_SOURCE_DIR}/src/fem/tensor_quadrature.cpp
  ${PROJECT_SOURCE_DIR}/src/fem/mapped_quadrature.cpp
  ${PROJECT_SOURCE_DIR}/src/fem/quadrature_cache.cpp
)
