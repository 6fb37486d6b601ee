# spacetime: slab meshes and the time-marching driver.
target_sources(polydg PRIVATE
  ${PROJECT_SOURCE_DIR}/src/spacetime/slab_mesh.cpp
  ${PROJECT_SOURCE_DIR}/src/spacetime/slab_trace.cpp
)
