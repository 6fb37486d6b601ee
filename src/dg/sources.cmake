# dg: boundary conditions, quadrature mesh, assembly (CPU reference).
target_sources(polydg PRIVATE
  ${PROJECT_SOURCE_DIR}/src/dg/boundary_conditions.cpp
  ${PROJECT_SOURCE_DIR}/src/dg/quadrature_mesh.cpp
  ${PROJECT_SOURCE_DIR}/src/dg/element_trace_constants.cpp
  ${PROJECT_SOURCE_DIR}/src/dg/assembler.cpp
  ${PROJECT_SOURCE_DIR}/src/dg/level_partition.cpp
  ${PROJECT_SOURCE_DIR}/src/dg/partition_numbering.cpp
  ${PROJECT_SOURCE_DIR}/src/dg/prolongation.cpp
  ${PROJECT_SOURCE_DIR}/src/dg/agglomeration_hierarchy.cpp
)
