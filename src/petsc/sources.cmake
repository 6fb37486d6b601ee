# petsc: AIJ export, MATSHELL over a LinearOperator, KSP helpers, PETSc error handling.
target_sources(polydg PRIVATE
  ${PROJECT_SOURCE_DIR}/src/petsc/petsc_error.cpp
  ${PROJECT_SOURCE_DIR}/src/petsc/session.cpp
  ${PROJECT_SOURCE_DIR}/src/petsc/aij_matrix.cpp
  ${PROJECT_SOURCE_DIR}/src/petsc/csr_value_order.cpp
  ${PROJECT_SOURCE_DIR}/src/petsc/placement.cpp
  ${PROJECT_SOURCE_DIR}/src/petsc/petsc_vector.cpp
  ${PROJECT_SOURCE_DIR}/src/petsc/ghost_scatter.cpp
  ${PROJECT_SOURCE_DIR}/src/petsc/linear_solver.cpp
  ${PROJECT_SOURCE_DIR}/src/petsc/shell_matrix.cpp
  ${PROJECT_SOURCE_DIR}/src/petsc/device_dense_block_operator.cpp
  ${PROJECT_SOURCE_DIR}/src/petsc/agglomeration_multigrid.cpp
  ${PROJECT_SOURCE_DIR}/src/petsc/solution_pvtu.cpp
  ${PROJECT_SOURCE_DIR}/src/petsc/part_block_pattern.cpp
)
