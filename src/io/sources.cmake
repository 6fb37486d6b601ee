# io: VTK output.
target_sources(polydg PRIVATE ${PROJECT_SOURCE_DIR}/src/io/vtk_writer.cpp)
target_sources(polydg PRIVATE ${PROJECT_SOURCE_DIR}/src/io/solution_vtu.cpp)
target_sources(polydg PRIVATE ${PROJECT_SOURCE_DIR}/src/io/pvd_writer.cpp)
target_sources(polydg PRIVATE ${PROJECT_SOURCE_DIR}/src/io/vtu_xml_writer.cpp)
