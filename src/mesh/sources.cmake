# mesh: fine simplex meshes, their readers and generators, agglomeration into polytopes.
target_sources(polydg PRIVATE
  ${PROJECT_SOURCE_DIR}/src/mesh/simplex_mesh.cpp
  ${PROJECT_SOURCE_DIR}/src/mesh/unit_square_mesh.cpp
)
