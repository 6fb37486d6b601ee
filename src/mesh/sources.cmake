# mesh: fine simplex meshes, their readers, generators and refinement, agglomeration into
# polytopes.
target_sources(polydg PRIVATE
  ${PROJECT_SOURCE_DIR}/src/mesh/simplex_mesh.cpp
  ${PROJECT_SOURCE_DIR}/src/mesh/refinement.cpp
  ${PROJECT_SOURCE_DIR}/src/mesh/square_grid.cpp
  ${PROJECT_SOURCE_DIR}/src/mesh/unit_square_mesh.cpp
  ${PROJECT_SOURCE_DIR}/src/mesh/cube_grid.cpp
  ${PROJECT_SOURCE_DIR}/src/mesh/unit_cube_mesh.cpp
  ${PROJECT_SOURCE_DIR}/src/mesh/oscillating_cube_mesh.cpp
)
# Gmsh reader (MSH 2.2 / 4.1) and the oscillating-boundary generator.
target_sources(polydg PRIVATE
  ${PROJECT_SOURCE_DIR}/src/mesh/gmsh_input.cpp
  ${PROJECT_SOURCE_DIR}/src/mesh/gmsh_element_types.cpp
  ${PROJECT_SOURCE_DIR}/src/mesh/gmsh_raw_mesh.cpp
  ${PROJECT_SOURCE_DIR}/src/mesh/gmsh_reader_msh2.cpp
  ${PROJECT_SOURCE_DIR}/src/mesh/gmsh_reader_msh4.cpp
  ${PROJECT_SOURCE_DIR}/src/mesh/gmsh_reader_msh4_ascii.cpp
  ${PROJECT_SOURCE_DIR}/src/mesh/gmsh_reader_msh4_binary.cpp
  ${PROJECT_SOURCE_DIR}/src/mesh/gmsh_reader.cpp
  ${PROJECT_SOURCE_DIR}/src/mesh/oscillating_domain_mesh.cpp
)
# Agglomeration (METIS) and polytopic meshes built from it.
target_sources(polydg PRIVATE
  ${PROJECT_SOURCE_DIR}/src/mesh/agglomeration.cpp
  ${PROJECT_SOURCE_DIR}/src/mesh/metis_partition.cpp
  ${PROJECT_SOURCE_DIR}/src/mesh/element_order.cpp
  ${PROJECT_SOURCE_DIR}/src/mesh/polytopic_mesh.cpp
  ${PROJECT_SOURCE_DIR}/src/mesh/polytopic_boundary_loops.cpp
  ${PROJECT_SOURCE_DIR}/src/mesh/polytopic_retriangulation.cpp
  ${PROJECT_SOURCE_DIR}/src/mesh/rank_submesh.cpp
  ${PROJECT_SOURCE_DIR}/src/mesh/polytopic_quality.cpp
)
# Partition of a polytopic mesh's elements over MPI ranks (METIS, weighted by quadrature cost).
target_sources(polydg PRIVATE
  ${PROJECT_SOURCE_DIR}/src/mesh/mesh_partition.cpp
  ${PROJECT_SOURCE_DIR}/src/mesh/part_halo.cpp
  ${PROJECT_SOURCE_DIR}/src/mesh/rank_part_file.cpp
)
