# sparse: block sparsity patterns and block matrices (CPU reference).
target_sources(polydg PRIVATE
  ${PROJECT_SOURCE_DIR}/src/sparse/block_pattern.cpp
  ${PROJECT_SOURCE_DIR}/src/sparse/block_matrix.cpp
  ${PROJECT_SOURCE_DIR}/src/sparse/dense_block_matrix.cpp
  ${PROJECT_SOURCE_DIR}/src/sparse/ghost_column_blocks.cpp
  ${PROJECT_SOURCE_DIR}/src/sparse/hdg_block_pattern.cpp
  ${PROJECT_SOURCE_DIR}/src/sparse/rank_block_pattern.cpp
)
